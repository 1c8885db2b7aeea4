"""`--dist loadgroup` as make test runs it, with the groups handed out longest first.

pytest-xdist hands each worker a whole group at a time, the group with the most tests first: the
modules of a few hundred quick unit tests went out before the write-loss runs (6 tests, 256 s),
which then ran last with the other workers idle. This scheduler hands out the group that took the
most seconds when last measured (benchmarks/test-group-seconds.json, written by make bench-test);
a group measured never (a new module) counts as one lab's run, so it goes before the quick ones.
Only the order changes: which tests run, and with which group, stays xdist's."""
from xdist.scheduler import LoadGroupScheduling

from harness.bench import test_groups

NOT_MEASURED_S = 30.0       # about one short scenario's run on this machine


class LongestFirst(LoadGroupScheduling):
    seconds = test_groups.read()

    def _assign_work_unit(self, node):
        if self.workqueue:
            longest = max(self.workqueue, key=lambda group: (self.seconds.get(group, NOT_MEASURED_S),
                                                             len(self.workqueue[group])))
            self.workqueue.move_to_end(longest, last=False)
        super()._assign_work_unit(node)


def pytest_xdist_make_scheduler(config, log):
    if config.getoption("dist") == "loadgroup":
        return LongestFirst(config, log)
    return None
