"""The Lab contract (tests/lab_contract.py) in a guest kernel: the same checks as on this host,
with the guest's own Docker engine as the witness."""
import pytest

from tests import lab_contract

PROJECT = "blackhole-test-guest-contract"


@pytest.mark.guest
def test_a_lab_in_a_guest_keeps_the_lab_contract(guest):
    lab_contract.refused_by_preflight_before_anything_starts(guest, PROJECT)
    lab = lab_contract.lab_for(guest, PROJECT)
    try:
        lab.up(timeout_s=600)
        lab_contract.check_a_running_lab(lab, ["docker", "-H", guest.docker_host])
    finally:
        lab_contract.down_leaves_nothing(lab, guest)
