"""sysbench prepare asked again while the VIP takes no connection (harness/run/loads.py), and
never for anything else. The outputs are the client image's sysbench 1.0.20's own: a refused
connection (`docker run --network none blackhole-lab/client:dev sysbench ... prepare` against
127.0.0.1) and a second prepare against the lab's MariaDB, which found its table already there."""
import pytest

from harness.errors import LabError
from harness.lab import ExecResult
from harness.load import sysbench
from harness.run import loads

REFUSED = """sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

FATAL: unable to connect to MySQL server on host '127.0.0.1', port 3306, aborting...
FATAL: error 2002: Can't connect to server on '127.0.0.1' (115)
FATAL: `sysbench.cmdline.call_command' function failed: /usr/share/sysbench/oltp_common.lua:83: connection creation failed
"""
TABLE_THERE = """sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Creating table 'sbtest1'...
FATAL: mysql_drv_query() returned error 1050 (Table 'sbtest1' already exists) for query 'CREATE TABLE sbtest1(
  id INTEGER NOT NULL AUTO_INCREMENT,
  k INTEGER DEFAULT '0' NOT NULL,
  c CHAR(120) DEFAULT '' NOT NULL,
  pad CHAR(60) DEFAULT '' NOT NULL,
  PRIMARY KEY (id)
) /*! ENGINE = innodb */ '
FATAL: `sysbench.cmdline.call_command' function failed: /usr/share/sysbench/oltp_common.lua:197: SQL error, errno = 1050, state = '42S01': Table 'sbtest1' already exists
"""


class Answers:
    """A lab whose exec gives these results in turn, on a clock that moves only when slept."""

    def __init__(self, *outputs):
        self.outputs, self.asked, self.now = list(outputs), 0, 0.0

    def exec(self, service, command, check=True, timeout=60):
        self.asked += 1
        output = self.outputs.pop(0) if len(self.outputs) > 1 else self.outputs[0]
        return ExecResult(0 if output is None else 1, output or "", "")

    def sleep(self, seconds):
        self.now += seconds


def prepare(lab, said):
    loads.prepare_sysbench(lab, "client-r5", ["sysbench", "prepare"], 300, said.append,
                           clock=lambda: lab.now, sleep=lab.sleep)


def test_a_refused_connection_is_asked_again_until_the_vip_takes_it_told_once():
    lab, said = Answers(REFUSED, REFUSED, REFUSED, None), []
    prepare(lab, said)
    assert lab.asked == 4 and len(said) == 1 and "takes no connection" in said[0]


def test_any_other_failure_ends_at_once_with_sysbenchs_own_words():
    lab, said = Answers(TABLE_THERE), []
    with pytest.raises(LabError, match="already exists"):
        prepare(lab, said)
    assert lab.asked == 1 and said == []


def test_a_vip_that_never_takes_a_connection_is_given_up_after_the_limit():
    lab, said = Answers(REFUSED), []
    with pytest.raises(LabError, match="unable to connect to MySQL server"):
        prepare(lab, said)
    assert lab.now >= loads.VIP_NOT_TAKING_LIMIT_S
    assert lab.asked == pytest.approx(loads.VIP_NOT_TAKING_LIMIT_S / loads.PREPARE_AGAIN_S + 1, abs=1)


def test_only_sysbenchs_refused_connection_reads_as_not_connected():
    assert sysbench.not_connected(REFUSED)
    assert not sysbench.not_connected(TABLE_THERE) and not sysbench.not_connected("")
