"""What a kernel says when its Docker engine stops answering: the processes stuck in
uninterruptible sleep (state D) or stopped (T) with the kernel function they wait in, and the kernel's last
messages that tell of a hang (a network device that cannot be freed, a task blocked for long).
Read by the engine's own shell and said in the error of a lab that could not be taken down."""
from collections.abc import Mapping
from typing import Any

STUCK_SCRIPT = ("ps -eo pid=,stat=,wchan:40=,etimes=,args= | awk '$2 ~ /^[DT]/' | head -20; echo --; "
                "dmesg 2>/dev/null | grep -E 'unregister_netdevice|blocked for more than|hung_task|Call Trace' | tail -10")
HANG_LINES = 10
ENGINE_LOG_LINES = 5


def stuck_script(engine_log: str | None = None) -> str:
    """STUCK_SCRIPT, and the last lines of the engine's own log where the kernel's shell keeps one."""
    if not engine_log:
        return STUCK_SCRIPT
    return f"{STUCK_SCRIPT}; echo --; tail -n {ENGINE_LOG_LINES} {engine_log} 2>/dev/null"


def parse_stuck(text: str) -> dict[str, list[Any]]:
    """{"processes": [{pid, state, waits_in, for_s, command}], "kernel": [lines], "engine_log": [lines]}
    from stuck_script's output."""
    processes_part, _, rest = text.partition("--\n")
    kernel_part, _, engine_part = rest.partition("--\n")
    processes = []
    for line in processes_part.splitlines():
        fields = line.split(None, 4)
        if len(fields) == 5 and fields[0].isdigit() and fields[3].isdigit():
            processes.append({"pid": int(fields[0]), "state": fields[1], "waits_in": fields[2],
                              "for_s": int(fields[3]), "command": fields[4][:160]})
    return {"processes": processes, "kernel": [line for line in kernel_part.splitlines() if line.strip()][-HANG_LINES:],
            "engine_log": [line[:300] for line in engine_part.splitlines() if line.strip()][-ENGINE_LOG_LINES:]}


def describe_stuck(found: Mapping[str, list[Any]]) -> str:
    """One paragraph for an error message; '' when nothing is stuck."""
    lines = [f"pid {p['pid']} ({p['command']}) waits in {p['waits_in']} for {p['for_s']} s" for p in found["processes"]]
    lines += [f"kernel: {line}" for line in found["kernel"]]
    lines += [f"dockerd: {line}" for line in found.get("engine_log", [])]
    return ("\nstuck or stopped under the engine (state, kernel function it waits in):\n  " + "\n  ".join(lines)) if lines else ""
