"""The Lab contract (tests/lab_contract.py) on this host's engine."""
import os

from harness.lab import HostEngine
from tests import lab_contract

PROJECT = f"blackhole-test-contract-{os.getpid()}"


def test_a_lab_on_this_host_keeps_the_lab_contract():
    engine = HostEngine()
    witness = lab_contract.DockerWitness(engine, ["docker"])
    lab_contract.refused_by_preflight_before_anything_starts(lab_contract.lab_for(engine, PROJECT), witness)
    lab = lab_contract.lab_for(engine, PROJECT)
    try:
        lab.up()
        lab_contract.check_a_running_lab(lab, witness)
    finally:
        lab_contract.down_leaves_nothing(lab, witness)
