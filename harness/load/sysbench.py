"""sysbench oltp_read_write through the VIP, reconnecting on errors, a report line per second.

Debian's sysbench 1.0.20 crashes on its first reconnect; the client image's
libsysbench_reconnect.so (LD_PRELOAD) re-initialises the handle so it survives.
"""
from .probe import SOCKOPTS_LIBRARY

PRELOAD = "/usr/local/lib/blackhole/libsysbench_reconnect.so"
PROCESS = "sysbench oltp_read_write"     # what pkill -f matches to stop it (and its stamp wrapper)


def _common(spec, vip):
    return ["sysbench", "oltp_read_write", "--db-driver=mysql", f"--mysql-host={vip}",
            "--mysql-user=sbtest", "--mysql-password=sbtest", "--mysql-db=sbtest",
            f"--tables={spec.tables}", f"--table-size={spec.table_size}"]


def prepare_command(spec, vip):
    return _common(spec, vip) + ["prepare"]


def run_command(spec, vip, duration_s, socket_env=None):
    """Stamped (`stamp`: one wall-clock time per line), bounded by --time, with the cell's
    socket options applied by libsockopts."""
    preload = f"{PRELOAD} {SOCKOPTS_LIBRARY}"
    env = [f"{k}={v}" for k, v in (socket_env or {}).items()]
    return ["env", f"LD_PRELOAD={preload}", "SOCKOPT_VERBOSE=1", *env, "stamp"] + _common(spec, vip) + [
        f"--threads={spec.threads}", f"--time={duration_s:.0f}", "--report-interval=1",
        "--mysql-ignore-errors=all", "--db-ps-mode=disable", "--skip-trx=on", "run"]
