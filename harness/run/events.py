"""events.jsonl: the run's timeline, one JSON record per harness step (client operations are
merged in at the end, evidence.merge_client_events)."""
import json
import time


class EventLog:
    def __init__(self, path, clock=time.time):
        """clock: the lab's clock, which the clients' own records are stamped with."""
        self.path, self.clock = path, clock

    def add(self, event, t=None, **fields):
        record = {"t": t or self.clock(), "source": "harness", "event": event, **fields}
        with open(self.path, "a") as f:
            f.write(json.dumps(record) + "\n")
        return record
