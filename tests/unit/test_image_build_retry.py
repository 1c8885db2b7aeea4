"""A build whose BuildKit session timed out on a busy machine is tried again; any other failure is not."""
import subprocess

import pytest

from harness.errors import LabError
from harness.lab import images

LOST = ("failed to solve: rpc error: code = Unknown desc = failed to solve with frontend dockerfile.v0: "
        "failed to read dockerfile: no active session for vzel0xc15mawk9h0vuhamybaf: context deadline exceeded")


class Engine:
    def docker(self):
        raise AssertionError("a failed build prunes nothing")


def builds_answering(monkeypatch, answers):
    calls = []

    def run(command, **kwargs):
        calls.append(command)
        code, text = answers[len(calls) - 1]
        return subprocess.CompletedProcess(command, code, stdout="", stderr=text)

    monkeypatch.setattr(images.subprocess, "run", run)
    monkeypatch.setattr(images, "host_extra_ca", lambda: "")
    return calls


def test_a_lost_session_is_tried_again_until_the_attempts_run_out(monkeypatch):
    calls = builds_answering(monkeypatch, [(17, LOST)] * images.BUILD_ATTEMPTS)
    with pytest.raises(LabError, match="no active session"):
        images.build(["docker", "compose"], Engine())
    assert len(calls) == images.BUILD_ATTEMPTS


def test_another_failure_is_not_tried_again(monkeypatch):
    calls = builds_answering(monkeypatch, [(17, "ERROR: failed to solve: process \"/bin/sh -c apt-get\" did not complete")])
    with pytest.raises(LabError, match="apt-get"):
        images.build(["docker", "compose"], Engine())
    assert len(calls) == 1
