"""listed_again_if_one_vanished (harness/lab/docker_lists.py): a list that failed because an object
vanished is read again; one that failed because the engine did not answer in time is not."""
import pytest
from python_on_whales.exceptions import DockerException

from harness.lab.docker_lists import TIMED_OUT, listed_again_if_one_vanished


def _failing(codes):
    calls = []

    def list_them():
        calls.append(1)
        if len(calls) <= len(codes):
            raise DockerException(["docker", "container", "inspect"], codes[len(calls) - 1])
        return ["lab-director-1"]
    return list_them, calls


def test_a_vanished_object_is_listed_again():
    list_them, calls = _failing([1])
    assert listed_again_if_one_vanished(list_them) == ["lab-director-1"] and len(calls) == 2


def test_an_engine_that_did_not_answer_in_time_is_not_asked_again():
    list_them, calls = _failing([TIMED_OUT])
    with pytest.raises(DockerException):
        listed_again_if_one_vanished(list_them)
    assert len(calls) == 1
