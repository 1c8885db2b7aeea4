"""The connection a fault caught is the one the probe was using when it struck, not its first:
records of a Connector/J cell in a 6.12 guest whose first login failed before the fault (its
ss samples: the second connection backed off from a 212 ms base RTO, the first was gone)."""
from harness.measure import probe_log

JVM_CELL = "\n".join([
    '{"connected": 1795902037.893607, "conn": 1, "local_port": 57490, "driver": "mysql-connector-j 8.4.0"}',
    '{"t0": 1795902037.742012, "t1": 1795902053.338337, "ok": false, "error": "CommunicationsException", "conn": 0}',
    '{"connected": 1795902053.659917, "conn": 2, "local_port": 46008, "driver": "mysql-connector-j 8.4.0"}',
    '{"t0": 1795902092.20, "t1": 1795902092.24, "ok": true, "server": "db-primary", "conn": 2}',
    '{"t0": 1795902092.947261, "t1": 1795902106.980045, "ok": false, "error": "CommunicationsException", "conn": 2}',
    '{"connected": 1795902162.580575, "conn": 3, "local_port": 43978, "driver": "mysql-connector-j 8.4.0"}',
])
FAULT_T = 1795902092.31


def test_the_connection_in_use_at_the_fault_is_caught():
    assert probe_log.caught_connection(JVM_CELL, FAULT_T) == (46008, 1795902053.659917)


def test_before_any_operation_it_is_the_first_connection():
    assert probe_log.caught_connection(JVM_CELL, 1795902037.0) == (57490, 1795902037.893607)


def test_records_without_connection_numbers_give_the_first_port():
    text = '{"connected": 1.0, "local_port": 4000}\n{"t0": 2.0, "t1": 2.1, "ok": true}\n'
    assert probe_log.caught_connection(text, 3.0) == (4000, 1.0)


def test_no_port_recorded_is_none():
    assert probe_log.caught_connection('{"t0": 2.0, "t1": 2.1, "ok": true}\n', 3.0) is None
