"""What a guest keeps with a run (GuestEngine.collect): its console logs, what it was, and its
clock's offset at the end."""
import json
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...errors import LabError

if TYPE_CHECKING:
    from .engine import GuestEngine


def collect(engine: "GuestEngine", directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    if engine.vm is not None and engine.vm.console_log.exists():
        shutil.copy(engine.vm.console_log, directory / "console.log")
    for died in engine.state_dir.glob("console-boot-*.log") if engine.state_dir else ():
        shutil.copy(died, directory / died.name)
    info: dict[str, Any] = {"describe": engine.describe() if engine.kernel else None}
    if engine.vm is not None and engine.vm.alive() and engine.ssh is not None:
        try:
            info["clock_at_end"] = engine.measure_clock()
        except (LabError, subprocess.TimeoutExpired, ValueError):
            pass
    (directory / "guest.json").write_text(json.dumps(info, indent=1, default=str) + "\n")
