"""Which Debian package KERNEL= names (harness/lab/guest/kernels.py), over a fixed package list."""
import pytest

from harness.errors import LabError
from harness.lab.guest.kernels import resolve

PACKAGES = {
    "linux-image-5.10.0-45-amd64", "linux-image-5.10.0-46-amd64", "linux-image-5.10.0-46-cloud-amd64",
    "linux-image-6.1.0-0.deb11.51-amd64",          # bullseye's backport of 6.1: not what KERNEL=6.1 means
    "linux-image-6.1.0-9-amd64", "linux-image-6.1.0-56-amd64",
    "linux-image-6.12.117+deb12-amd64", "linux-image-6.12.99+deb12-amd64",
    "linux-image-6.12.200+deb13-amd64",             # trixie's 6.12: the baselines were measured on bookworm's
    "linux-image-7.3.4+deb13-amd64", "linux-image-7.3.10+deb13-amd64", "linux-image-7.3.10+deb13-rt-amd64",
}


@pytest.mark.parametrize("spec, package", [
    ("5.10", "linux-image-5.10.0-46-amd64"),
    ("6.1", "linux-image-6.1.0-56-amd64"),
    ("6.12", "linux-image-6.12.117+deb12-amd64"),
    ("7.3", "linux-image-7.3.10+deb13-amd64"),
    ("7.3.4+deb13", "linux-image-7.3.4+deb13-amd64"),
    ("linux-image-5.10.0-45-amd64", "linux-image-5.10.0-45-amd64"),
])
def test_a_series_means_its_newest_generic_build_and_a_version_that_package(spec, package):
    assert resolve(spec, PACKAGES) == package


@pytest.mark.parametrize("spec, says", [
    ("4.19", "no Debian package of Linux 4.19"),
    ("5.10.0-99", "use host, a series (5.10, 6.1, 6.12, 7.3)"),
    ("5.10.0-46-cloud", "no package linux-image-5.10.0-46-cloud-amd64"),
])
def test_a_kernel_the_registry_lacks_is_refused_with_what_there_is(spec, says):
    with pytest.raises(LabError, match=None) as refused:
        resolve(spec, PACKAGES - {"linux-image-5.10.0-46-cloud-amd64"})
    assert says in str(refused.value)

