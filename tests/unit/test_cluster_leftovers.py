"""Which lab namespaces `make clean LAB=kubernetes` deletes (leftovers.why_kept: the owner a
namespace says made it, seen from this machine)."""
import json
import os

from harness.lab import registry
from harness.lab.cluster import leftovers
from harness.lab.cluster.pods import LAB_LABEL, OWNER, lab_namespace


def owner(host="here", boot="b1", pid=123, start=456):
    return json.dumps({"host": host, "boot": boot, "pid": pid, "start": start})


def test_a_namespace_says_who_made_it_here_and_now():
    metadata = lab_namespace("lab-1", leftovers.owner_here())["metadata"]
    assert metadata["labels"] == {LAB_LABEL: "1"}
    made_by = json.loads(metadata["annotations"][OWNER])
    assert made_by["pid"] == os.getpid() and registry.alive(made_by)
    assert made_by["boot"] == leftovers.boot_id()


def test_a_dead_or_earlier_boots_owner_of_this_machine_lets_it_go_and_any_other_keeps_it():
    def running(o):
        return o["pid"] == 123
    assert leftovers.why_kept(owner(), "here", "b1", running) == "its owner, pid 123, is running"
    assert leftovers.why_kept(owner(pid=999), "here", "b1", running) is None
    assert leftovers.why_kept(owner(boot="b0"), "here", "b1", running) is None          # the machine rebooted since
    assert leftovers.why_kept(owner(host="elsewhere"), "here", "b1", running) == "made by a run on elsewhere"
    for unknown in (None, "", "not json", json.dumps(["a"]), json.dumps({"pid": 1})):
        assert leftovers.why_kept(unknown, "here", "b1", running) == "it says no owner"


def test_this_process_is_a_running_owner_and_a_finished_one_is_not():
    here = json.loads(leftovers.owner_here())
    assert leftovers.why_kept(leftovers.owner_here(), here["host"], here["boot"]) == f"its owner, pid {os.getpid()}, is running"
    finished = {**here, "start": here["start"] + 1}          # this pid, but not this process
    assert leftovers.why_kept(json.dumps(finished), here["host"], here["boot"]) is None
