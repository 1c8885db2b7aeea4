import os

import pytest

from harness.errors import LabError
from harness.lab.guest.qemu import DEFAULT_GUEST_CPUS, guest_cpus


def test_guest_cpus_defaults_to_the_default_or_the_hosts_count():
    default = min(DEFAULT_GUEST_CPUS, os.cpu_count())
    assert guest_cpus({}) == default and guest_cpus({"GUEST_CPUS": " "}) == default
    assert guest_cpus({"GUEST_CPUS": "1"}) == 1


@pytest.mark.parametrize("bad", ["0", "two", "-1", str((os.cpu_count() or 1) + 1)])
def test_guest_cpus_refuses_what_this_host_has_not(bad):
    with pytest.raises(LabError, match="GUEST_CPUS"):
        guest_cpus({"GUEST_CPUS": bad})
