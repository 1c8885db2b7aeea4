"""A real long-lived connection from a client through the VIP, driven step by step."""
import json
import time


class HeldConnection:
    """Runs the client image's probe: connect, one operation, then wait for go()."""

    def __init__(self, lab, client, proto, *probe_args):
        self.process = lab.spawn(client, ["probe", "--proto", proto, "--host", lab.address("director", "front"),
                                          "--start-on-stdin", *map(str, probe_args)])
        self.ready = None
        while self.ready is None:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"probe did not start: {self.process.stderr.read()}")
            record = json.loads(line)
            if "ready" in record:
                self.ready = record

    def go(self, timeout_s=30):
        """Let the probe run; returns (when go was said, its operations (dicts) once it exits)."""
        started = self.start()
        return started, self.finish(timeout_s)

    def start(self):
        """Let the probe run (its operations go on while the caller changes the director)."""
        started = time.time()
        self.process.stdin.write("go\n")
        self.process.stdin.flush()
        return started

    def finish(self, timeout_s=30):
        """The probe's operations, once it exits."""
        out, err = self.process.communicate(timeout=timeout_s)
        operations = [r for r in map(json.loads, filter(str.strip, out.splitlines())) if "t1" in r]
        assert operations, f"probe printed no operation: {err}"
        return operations

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
