from harness.lab.safe_removal import pending_execs


def test_a_running_container_or_one_holding_an_exec_is_pending():
    states = [("lab-director-1", True, []), ("lab-mysql-primary-1", False, ["3f2a"]), ("lab-web-1", False, [])]
    assert pending_execs(states) == ["lab-director-1", "lab-mysql-primary-1"]


def test_stopped_containers_with_no_exec_are_safe_to_remove():
    assert pending_execs([("lab-director-1", False, []), ("lab-web-1", False, [])]) == []
