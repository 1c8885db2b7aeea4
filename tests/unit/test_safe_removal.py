from harness.lab.safe_removal import pending_execs
from harness.lab.stuck import describe_stuck, parse_stuck, stuck_script


def test_a_running_container_or_one_holding_an_exec_is_pending():
    states = [("lab-director-1", True, []), ("lab-db-primary-1", False, ["3f2a"]), ("lab-web-1", False, [])]
    assert pending_execs(states) == ["lab-db-primary-1", "lab-director-1"]


def test_stopped_containers_with_no_exec_are_safe_to_remove():
    assert pending_execs([("lab-director-1", False, []), ("lab-web-1", False, [])]) == []


def test_processes_stuck_in_the_kernel_and_its_hang_messages_are_read_from_the_shell_output():
    text = ("  812 D    netdev_run_todo                           154 runc:[2:INIT]\n"
            " 1234 Dl   rtnl_lock                                  61 /usr/sbin/dockerd --log-level=warn\n"
            "--\n"
            "[  212.1] unregister_netdevice: waiting for bh-rxstall to become free. Usage count = 2\n")
    found = parse_stuck(text)
    assert found["processes"] == [
        {"pid": 812, "state": "D", "waits_in": "netdev_run_todo", "for_s": 154, "command": "runc:[2:INIT]"},
        {"pid": 1234, "state": "Dl", "waits_in": "rtnl_lock", "for_s": 61, "command": "/usr/sbin/dockerd --log-level=warn"}]
    assert found["kernel"] == ["[  212.1] unregister_netdevice: waiting for bh-rxstall to become free. Usage count = 2"]
    said = describe_stuck(found)
    assert "pid 1234 (/usr/sbin/dockerd --log-level=warn) waits in rtnl_lock for 61 s" in said
    assert "kernel: [  212.1] unregister_netdevice" in said


def test_nothing_stuck_says_nothing():
    assert describe_stuck(parse_stuck("--\n")) == ""


def test_the_engine_log_tail_is_read_where_the_engine_keeps_one():
    assert "tail -n 5 /var/log/dockerd.log" in stuck_script("/var/log/dockerd.log")
    text = "--\n--\ntime=\"2026-11-28T03:46:10Z\" level=error msg=\"stream copy error: reading from a closed fifo\"\n"
    found = parse_stuck(text)
    assert found["engine_log"] == ['time="2026-11-28T03:46:10Z" level=error msg="stream copy error: reading from a closed fifo"']
    assert "dockerd: time=" in describe_stuck(found)
