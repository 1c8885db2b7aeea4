"""events.jsonl: the run's timeline, one JSON record per harness step (client operations are
merged in at the end, evidence.merge_client_events)."""
import json
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


class EventLog:
    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        """clock: the lab's clock, which the clients' own records are stamped with."""
        self.path, self.clock = path, clock
        self.lock = threading.Lock()       # cleanup steps run side by side

    def add(self, event: str, t: float | None = None, **fields: Any) -> dict[str, Any]:
        record = {"t": t or self.clock(), "source": "harness", "event": event, **fields}
        with self.lock, open(self.path, "a") as f:
            f.write(json.dumps(record) + "\n")
        return record

    def merge(self, records: Iterable[dict[str, Any]]) -> None:
        """The log with records added, in time order."""
        with self.lock:
            with open(self.path) as f:
                merged = [json.loads(line) for line in f if line.strip()] + list(records)
            merged.sort(key=lambda r: r["t"])
            with open(self.path, "w") as f:
                f.write("".join(json.dumps(r) + "\n" for r in merged))
