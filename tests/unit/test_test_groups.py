"""make bench-test sums pytest's durations per xdist group; make test hands the groups out longest first."""
from collections import OrderedDict

from harness.bench.test_groups import group_seconds, read, write
from tests.longest_first import NOT_MEASURED_S, LongestFirst

REPORT = """============================ slowest durations =============================
121.69s setup    tests/scenarios/test_matrix.py::test_one_failover@tests/scenarios
51.21s call     tests/scenarios/test_matrix.py::test_idle@tests/scenarios
44.50s call     tests/scenarios/test_write_loss.py::test_lagging[mysql-async]@write-loss
0.02s teardown tests/scenarios/test_write_loss.py::test_lagging[mysql-async]@write-loss
3.00s call     tests/unit/test_plan.py::test_every_scenario_plans[seed]
(1500 durations < 0.005s hidden.  Use -vv to show these durations.)
================= 2147 passed, 26 skipped in 770.60s (0:12:50) =================
"""


def test_each_groups_setup_call_and_teardown_are_summed_and_a_test_without_a_group_counts_for_its_module():
    assert group_seconds(REPORT) == {"tests/scenarios": 172.9, "write-loss": 44.5, "tests/unit/test_plan.py": 3.0}
    assert list(group_seconds(REPORT)) == ["tests/scenarios", "write-loss", "tests/unit/test_plan.py"]


def test_the_seconds_written_are_read_back_and_a_missing_record_reads_as_none(tmp_path):
    path = tmp_path / "test-group-seconds.json"
    assert read(path) == {}
    write(group_seconds(REPORT), path)
    assert read(path) == {"tests/scenarios": 172.9, "write-loss": 44.5, "tests/unit/test_plan.py": 3.0}


class Worker:
    """Stands for an xdist worker: what it was sent."""
    shutting_down = False

    def __init__(self):
        self.sent = []

    def send_runtest_some(self, indices):
        self.sent.append(indices)


def test_the_group_that_took_longest_goes_first_and_one_never_measured_before_the_quick_ones():
    scheduler = LongestFirst.__new__(LongestFirst)        # its own state only: xdist's needs workers (--tx)
    scheduler.registered_collections, scheduler.assigned_work = {}, {}
    scheduler.seconds = {"unit-a": 2.0, "write-loss": 256.0, "web": 160.0}
    worker = Worker()
    collection = ["a::1", "a::2", "a::3", "w::1", "b::1", "n::1"]
    scheduler.registered_collections[worker] = collection
    # xdist's own order: the most tests first
    scheduler.workqueue = OrderedDict([("unit-a", {"a::1": False, "a::2": False, "a::3": False}),
                                       ("web", {"b::1": False}), ("new", {"n::1": False}),
                                       ("write-loss", {"w::1": False})])
    order = []
    while scheduler.workqueue:
        scheduler._assign_work_unit(worker)
        order.append([collection[i] for i in worker.sent[-1]])
    assert order == [["w::1"], ["b::1"], ["n::1"], ["a::1", "a::2", "a::3"]]
    assert 2.0 < NOT_MEASURED_S < 160.0
