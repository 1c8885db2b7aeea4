"""What a guest's start reads and writes besides QEMU: the saved guests' choice and upkeep, the
control socket's protocol, the health check run in a loop, and the kernel a KERNEL= meant."""
import json
import os
import socket
import subprocess
import threading
import time

import pytest

from harness.errors import LabError
from harness.lab import health_check_loop
from harness.lab.guest import kernels, snapshot
from harness.lab.guest.qmp import Qmp


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BLACKHOLE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_guest_snapshots_is_on_unless_turned_off_and_says_what_it_takes():
    assert snapshot.enabled({}) and snapshot.enabled({"GUEST_SNAPSHOTS": "1"})
    assert not snapshot.enabled({"GUEST_SNAPSHOTS": "0"})
    with pytest.raises(LabError, match="GUEST_SNAPSHOTS='yes'.*0 boots every guest"):
        snapshot.enabled({"GUEST_SNAPSHOTS": "yes"})


def _saved(cache, key, disk, age_s):
    directory = cache / "guest" / "saved" / key
    directory.mkdir(parents=True)
    (directory / "saved.json").write_text(json.dumps({"disk_image": str(disk), "utc": "then"}))
    then = time.time() - age_s
    os.utime(directory / "saved.json", (then, then))
    return directory


def test_the_most_recently_used_saved_guests_are_kept_and_one_whose_disk_is_gone_is_dropped(cache, tmp_path):
    disk = tmp_path / "disk.img"
    disk.write_text("")
    for index in range(snapshot.KEEP + 2):
        _saved(cache, f"k{index}", disk, age_s=100 - index)      # k0 the oldest
    assert snapshot.find("k0") is not None                      # used now: the newest
    snapshot.prune()
    kept = sorted(p.name for p in (cache / "guest" / "saved").iterdir())
    assert kept == sorted(["k0", *[f"k{i}" for i in range(3, snapshot.KEEP + 2)]])
    _saved(cache, "orphan", tmp_path / "rebuilt-away.img", age_s=0)
    assert snapshot.find("orphan") is None
    assert not (cache / "guest" / "saved" / "orphan").exists()
    assert snapshot.find("never-saved") is None


def test_a_reseed_command_carries_64_fresh_bytes_each_time():
    first, second = snapshot.reseed_command(), snapshot.reseed_command()
    assert first != second and len(first.split()[-1]) == 128
    assert "0x40085203" in first and "0x5207" in first          # RNDADDENTROPY, RNDRESEEDCRNG


def _qmp_server(path, answers):
    """A control socket that greets, then answers each command in turn from answers (events first)."""
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    asked = []

    def serve():
        conn, _ = server.accept()
        with conn, conn.makefile("rw") as stream:
            stream.write(json.dumps({"QMP": {"version": {}}}) + "\n")
            stream.flush()
            for answer in answers:
                asked.append(json.loads(stream.readline()))
                for line in answer:
                    stream.write(json.dumps(line) + "\n")
                stream.flush()
        server.close()
    threading.Thread(target=serve, daemon=True).start()
    return asked


def test_the_control_socket_skips_events_and_says_what_qemu_refused(tmp_path):
    path = tmp_path / "qmp.sock"
    asked = _qmp_server(path, [[{"return": {}}],
                               [{"event": "STOP"}, {"return": {"status": "paused"}}],
                               [{"error": {"class": "GenericError", "desc": "no migration running"}}]])
    with Qmp(path, timeout_s=10) as qmp:
        assert qmp.execute("query-status") == {"status": "paused"}
        with pytest.raises(LabError, match="QEMU refused migrate_cancel: no migration running"):
            qmp.execute("migrate_cancel")
    assert [a["execute"] for a in asked] == ["qmp_capabilities", "query-status", "migrate_cancel"]


def _run_loop(test, timeout_s):
    return subprocess.run(health_check_loop.until_passes(test, timeout_s), capture_output=True, timeout=60)


def test_a_health_check_loop_ends_once_the_check_passes(tmp_path):
    counter = tmp_path / "tries"
    script = f'n=$(cat {counter} 2>/dev/null || echo 0); echo $((n + 1)) > {counter}; [ "$n" -ge 2 ]'
    assert _run_loop(["CMD", "sh", "-c", script], 10).returncode == 0
    assert counter.read_text().strip() == "3"
    counter.unlink()
    assert _run_loop(["CMD-SHELL", script], 10).returncode == 0
    assert counter.read_text().strip() == "3"


def test_a_health_check_loop_gives_up_after_the_tries_its_time_allows(tmp_path):
    counter = tmp_path / "tries"
    result = _run_loop(["CMD-SHELL", f'echo x >> {counter}; false'], 1.0)
    assert result.returncode == 1
    assert len(counter.read_text().split()) == int(1.0 / health_check_loop.RETRY_S)


def test_a_container_without_a_check_has_no_loop():
    assert health_check_loop.until_passes(None, 10) is None
    assert health_check_loop.until_passes(["NONE"], 10) is None


def test_what_a_kernel_spec_meant_is_asked_again_once_the_package_lists_change(cache, tmp_path, monkeypatch):
    lists = tmp_path / "lists"
    lists.mkdir()
    monkeypatch.setattr(kernels, "HOST_LISTS", lists)
    kernels._remember("6.12", "linux-image-6.12.9+deb12-amd64", "6.12.9-1", kernels.HOST_SOURCES)
    assert kernels._resolved_before("6.12") == ("linux-image-6.12.9+deb12-amd64", "6.12.9-1")
    assert kernels._resolved_before("6.1") == (None, None)
    later = time.time() + 5
    os.utime(lists, (later, later))                 # apt-get update wrote the lists again
    assert kernels._resolved_before("6.12") == (None, None)


def test_a_kernel_of_the_lab_archive_is_asked_again_once_its_lists_are_a_day_old(cache, monkeypatch):
    archive = kernels.Archive("bullseye, trixie-backports")
    stamp = cache / "apt-archive" / "lists" / ".read"
    stamp.parent.mkdir(parents=True)
    stamp.touch()
    kernels._remember("5.10", "linux-image-5.10.0-46-amd64", "5.10.251-1", archive)
    assert kernels._resolved_before("5.10") == ("linux-image-5.10.0-46-amd64", "5.10.251-1")
    old = time.time() - kernels.ARCHIVE_MAX_AGE_S - 60
    os.utime(stamp, (old, old))
    assert kernels._resolved_before("5.10") == (None, None)
