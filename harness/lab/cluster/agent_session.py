"""Node commands over long-lived exec sessions into the node agent. A `kubectl exec` per command
cost 1.2-2.1 s on a TCG node and timed out under load. A session is one `kubectl exec` running a
small Python loop in the agent's container (the lab's client image has Python) that enters the
node's namespaces once (setns into PID 1's, what `nsenter -t 1` does per command), then reads one
command per line, runs it with `bash -c` and answers one line per command: a command costs its
own processes and a round trip. On a TCG node a bash loop (mktemp, base64 and timeout processes
per command) took 0.9 s a command, the Python loop with nsenter per command 0.45 s.

A session serves one command at a time; the pool keeps one idle session ready beside the busy
ones (the lab's threads do not wait for each other's commands) and up to KEEP_IDLE for the next.

The protocol, one JSON line each way:
    ask:    {"id", "command", "stdin", "timeout"}
    answer: {"id", "code", "out", "err", "timed_out"}
The loop ends a command that ran past its timeout with everything it started (its process
group, SIGKILL); the lab waits that long plus TRANSPORT_S for the answer, then ends the session."""
import collections
import itertools
import json
import queue
import subprocess
import threading
from collections.abc import Sequence

from ...errors import LabError

TRANSPORT_S = 30.0           # a session's start (a kubectl exec, the loop's Python) and an answer's way back
KEEP_IDLE = 4

LOOP = r'''
import ctypes, json, os, signal, subprocess, sys
if sys.argv[1:] == ["enter"]:          # PID 1's namespaces, once, as nsenter -t 1 -m -u -i -n -p would per command
    libc = ctypes.CDLL(None, use_errno=True)
    for kind in ("ipc", "uts", "net", "pid", "mnt"):
        fd = os.open(f"/proc/1/ns/{kind}", os.O_RDONLY)
        if libc.setns(fd, 0):
            sys.exit(f"setns into PID 1's {kind} namespace: {os.strerror(ctypes.get_errno())}")
        os.close(fd)
    os.chdir("/")
for line in sys.stdin:
    ask = json.loads(line)
    command = subprocess.Popen(["bash", "-c", ask["command"]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
    timed_out = False
    try:
        out, err = command.communicate(ask["stdin"].encode(), timeout=ask["timeout"])
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(command.pid, signal.SIGKILL)
        out, err = command.communicate()
    print(json.dumps({"id": ask["id"], "code": command.returncode, "out": out.decode(errors="replace"),
                      "err": err.decode(errors="replace"), "timed_out": timed_out}), flush=True)
'''


class AgentSession:
    """One exec session: transport + [python3, -c, LOOP] (transport: the kubectl exec into the
    agent), the loop in PID 1's namespaces when enter."""
    _ids = itertools.count(1)

    def __init__(self, transport: Sequence[str], enter: bool) -> None:
        self.process = subprocess.Popen([*transport, "python3", "-c", LOOP, *(["enter"] if enter else [])],
                                        stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        assert self.process.stdin and self.process.stdout and self.process.stderr       # the three pipes above
        self._to_loop, self._from_loop, self._loop_stderr = self.process.stdin, self.process.stdout, self.process.stderr
        self.answers: queue.Queue[str | None] = queue.Queue()
        self.complaints: collections.deque[str] = collections.deque(maxlen=20)   # the transport's last stderr lines
        threading.Thread(target=self._read_answers, daemon=True).start()
        self._complaints_reader = threading.Thread(target=self._read_complaints, daemon=True)
        self._complaints_reader.start()

    def _read_answers(self) -> None:
        for line in self._from_loop:
            self.answers.put(line)
        self.answers.put(None)

    def _read_complaints(self) -> None:
        for line in self._loop_stderr:
            self.complaints.append(line.rstrip())

    def alive(self) -> bool:
        return self.process.poll() is None

    def run(self, command: str, timeout: float, stdin: str = "") -> subprocess.CompletedProcess[str]:
        """subprocess.CompletedProcess of command on the node; TimeoutExpired as subprocess.run's."""
        ask = next(self._ids)
        try:
            self._to_loop.write(json.dumps({"id": ask, "command": command, "stdin": stdin, "timeout": timeout}) + "\n")
            self._to_loop.flush()
        except (BrokenPipeError, ValueError):
            raise LabError(f"cluster node (agent): its exec session had ended: {self._why()}") from None
        try:
            line = self.answers.get(timeout=timeout + TRANSPORT_S)
        except queue.Empty:
            self.close()
            raise subprocess.TimeoutExpired(command, timeout) from None
        if line is None:
            self.close()
            raise LabError(f"cluster node (agent): its exec session ended during `{command}`: {self._why()}")
        answer = json.loads(line)
        if answer["id"] != ask:
            self.close()
            raise LabError(f"cluster node (agent): answer {answer['id']} came for command {ask}")
        if answer["timed_out"]:
            raise subprocess.TimeoutExpired(command, timeout, answer["out"], answer["err"])
        return subprocess.CompletedProcess(command, answer["code"], answer["out"], answer["err"])

    def _why(self) -> str:
        """What the ended transport said (kubectl's error: no such pod, a refused exec, ...)."""
        try:
            self.process.wait(timeout=5)
            self._complaints_reader.join(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        said = "; ".join(self.complaints) or "it said nothing"
        return f"exit {self.process.returncode}: {said[-500:]}" if self.process.returncode is not None else said[-500:]

    def close(self) -> None:
        if self.process.stdin and not self.process.stdin.closed:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class SessionPool:
    """Sessions for whoever runs a command: an idle one, else a new one."""

    def __init__(self, transport: Sequence[str], enter: bool) -> None:
        self.transport, self.enter = list(transport), enter
        self._idle: list[AgentSession] = []
        self._lock, self._closed = threading.Lock(), False
        self.started = 0

    def run(self, command: str, timeout: float, stdin: str = "") -> subprocess.CompletedProcess[str]:
        session = self._take()
        try:
            result = session.run(command, timeout, stdin)
        except subprocess.TimeoutExpired:
            self._give_back(session)       # the node's timeout ended the command; a session given up is closed
            raise
        except BaseException:
            session.close()
            raise
        self._give_back(session)
        return result

    def _take(self) -> AgentSession:
        """An idle session; when it was the last, a spare starts beside it (a session takes seconds
        to start on a busy node, and the lab's commands come in bursts at a fault)."""
        with self._lock:
            while self._idle:
                session = self._idle.pop()
                if session.alive():
                    break
                session.close()
            else:
                session = self._start()
            if not self._idle and not self._closed:
                self._idle.append(self._start())
            return session

    def _start(self) -> AgentSession:
        self.started += 1
        return AgentSession(self.transport, self.enter)

    def _give_back(self, session: AgentSession) -> None:
        with self._lock:
            if not self._closed and len(self._idle) < KEEP_IDLE and session.alive():
                self._idle.append(session)
                return
        session.close()

    def close(self) -> None:
        """End the idle sessions now, and each busy one when its command is done."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for session in idle:
            session.close()
