"""sysbench oltp_read_write through the VIP, a report line per second; on MySQL it reconnects on
errors (--mysql-ignore-errors=all).

Debian's sysbench 1.0.20 crashes on its first reconnect; the client image's
libsysbench_reconnect.so (LD_PRELOAD) re-initialises the handle so it survives. Its pgsql driver
has no ignore-errors option: on PostgreSQL a lost connection ends sysbench.
"""
from collections.abc import Mapping

from .probe import SOCKOPTS_LIBRARY
from .specs import Sysbench

PRELOAD = "/usr/local/lib/blackhole/libsysbench_reconnect.so"
PROCESS = "sysbench oltp_read_write"     # what pkill -f matches to stop it (and its stamp wrapper)
GATE_POLL_S = 0.1
# sh -c GATE_SCRIPT name <file> <polls> CMD...: CMD once the file exists, or a line saying it never did.
GATE_SCRIPT = ('gate=$1 polls=$2; shift 2; n=0; while [ ! -e "$gate" ]; do n=$((n + 1)); '
               'if [ $n -gt $polls ]; then echo "sysbench: not told to start within the run\'s limit ($gate)"; exit 1; fi; '
               f'sleep {GATE_POLL_S}; done; exec "$@"')


def not_connected(output: str) -> bool:
    """Whether sysbench's output says its first connection was not taken (nothing answers at the
    address yet): it printed `FATAL: unable to connect to MySQL server on host ...` before it did
    anything else."""
    return "unable to connect to MySQL server" in output or "Connection to database failed" in output


def _common(spec: Sysbench, vip: str) -> list[str]:
    d = spec.driver
    return ["sysbench", "oltp_read_write", f"--db-driver={d}", f"--{d}-host={vip}", f"--{d}-port=3306",
            f"--{d}-user=sbtest", f"--{d}-password=sbtest", f"--{d}-db=sbtest",
            f"--tables={spec.tables}", f"--table-size={spec.table_size}"]


def prepare_command(spec: Sysbench, vip: str, opens_gate: str | None = None) -> list[str]:
    """opens_gate: the file that tells sysbench run commands waiting on it (run_command's gate) to start, made
    once the tables are there."""
    prepare = _common(spec, vip) + ["prepare"]
    if not opens_gate:
        return prepare
    return ["sh", "-c", '"$@" && touch "$0"', opens_gate, *prepare]


def run_command(spec: Sysbench, vip: str, duration_s: float, socket_env: Mapping[str, str] | None = None,
                gate: tuple[str, float] | None = None) -> list[str]:
    """Stamped (`stamp`: one wall-clock time per line), bounded by --time, with the cell's
    socket options applied by libsockopts. gate=(file, limit_s): started ahead, it waits until the
    file exists (prepare_command makes it) and then starts at once: the exec session and its stamp,
    which take seconds to start in an emulated guest, are ready by then."""
    preload = f"{PRELOAD} {SOCKOPTS_LIBRARY}" if spec.driver == "mysql" else SOCKOPTS_LIBRARY
    on_errors = ["--mysql-ignore-errors=all"] if spec.driver == "mysql" else []
    env = [f"{k}={v}" for k, v in (socket_env or {}).items()]
    waiting: list[str] = []
    if gate:
        path, limit_s = gate
        waiting = ["sh", "-c", GATE_SCRIPT, "sysbench-gate", path, str(int(limit_s / GATE_POLL_S))]
    return ["stamp", *waiting, "env", f"LD_PRELOAD={preload}", "SOCKOPT_VERBOSE=1", *env] + _common(spec, vip) + [
        f"--threads={spec.threads}", f"--rate={spec.rate}", f"--time={duration_s:.0f}", "--report-interval=1",
        *on_errors, "--db-ps-mode=disable", "--skip-trx=on", "run"]
