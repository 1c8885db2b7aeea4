"""The probe's --group mode (images/client/probe.py): many probes from one process, one fork per
cell, their lines tagged with the cell, commands passed in to each; a cell's probe may run in a
network namespace of its own."""
import ctypes
import json
import os
import selectors
import signal
import sys
import traceback

CLONE_NEWNET = 0x40000000
STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def run_group(preload, run_probe):
    """--group: many probes from one process (one exec per container, one interpreter start).
    The first stdin line is [{"cell": name, "env": {...}, "argv": [...]}, ...]; each cell's probe
    is a fork with its own environment (libsockopts reads SOCKOPT_* at each connect) and its own
    stdin and stdout pipes; a cell's "netns", when set, is the file of the network namespace its
    probe runs in. Their lines come out as "<cell>\t<line>"; a stdin line "<cell>\t<text>" goes to
    that cell's probe; a closed stdin closes theirs (each stops between operations). A SIGINT or
    SIGTERM is passed on to them; the group ends when every probe has. A probe that fails (exits
    non-zero) stops the others, and the group exits with its status."""
    first = b""
    while b"\n" not in first:              # read from the fd itself: relay() reads it after this
        data = os.read(0, 65536)
        if not data:
            return
        first += data
    first, after_spec = first.split(b"\n", 1)
    spec = json.loads(first)
    preload([c["argv"] for c in spec])       # once, before the forks share it
    children = {}                            # cell -> (pid, its stdin's write end, its stdout's read end)
    sys.stdout.flush()
    # A stop request that comes while the probes are forked waits until pass_on can pass it on
    # (a child takes it once its own handler is in place, in run_child).
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    for cell in spec:
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            run_child(cell, run_probe, stdin_r, stdout_w,
                      [fd for _, w, r in children.values() for fd in (w, r)] + [stdin_w, stdout_r])
        os.close(stdin_r)
        os.close(stdout_w)
        children[cell["cell"]] = (pid, stdin_w, stdout_r)

    def pass_on(signum=None, frame=None):
        for pid, _, _ in children.values():
            try:
                os.kill(pid, signal.SIGINT)
            except ProcessLookupError:
                pass
    signal.signal(signal.SIGINT, pass_on)
    signal.signal(signal.SIGTERM, pass_on)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    failed = relay(children, after_spec, pass_on)        # every probe has ended (and been reaped)
    if failed:
        sys.exit(next(iter(failed.values())))


def run_child(cell, run_probe, stdin_r, stdout_w, not_mine):
    status = 0
    try:
        # The group's SIGINT is how it stops a probe: taken as KeyboardInterrupt even where this
        # process inherited it ignored (a job started in the background), and only from here on.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
        for fd in not_mine:
            os.close(fd)
        os.dup2(stdin_r, 0)
        os.dup2(stdout_w, 1)
        os.close(stdin_r)
        os.close(stdout_w)
        sys.stdin = open(0, "r", closefd=False)
        sys.stdout = open(1, "w", closefd=False)
        os.environ.update(cell["env"])
        if cell.get("netns"):
            enter_network_namespace(cell["netns"])
        run_probe(cell["argv"])
    except KeyboardInterrupt:
        pass
    except SystemExit as exc:                  # argparse's, after its message
        status = exc.code if isinstance(exc.code, int) else 2
    except BaseException:
        sys.stderr.write(f"probe {cell['cell']}: ")
        traceback.print_exc()
        status = 2
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)


def enter_network_namespace(path):
    """setns(2) into the network namespace at path (Python 3.11 has no os.setns)."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(path, os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"setns({path}): {os.strerror(errno)}")
    finally:
        os.close(fd)


def relay(children, commands, stop_all):
    """Lines out of the probes, tagged with their cell; commands in to them; until all are done.
    Returns {cell: exit status} of the probes that failed; the first one's end stops the others."""
    failed = {}
    by_fd = {r: cell for cell, (_, _, r) in children.items()}
    partial = {fd: b"" for fd in by_fd}
    selector = selectors.DefaultSelector()
    for fd in by_fd:
        selector.register(fd, selectors.EVENT_READ)
    selector.register(0, selectors.EVENT_READ)
    commands = forward(children, commands)
    out = sys.stdout.buffer
    while by_fd:
        for key, _ in selector.select():
            fd = key.fd
            try:
                data = os.read(fd, 65536)
            except InterruptedError:
                continue
            if fd == 0 and data:
                commands = forward(children, commands + data)
            elif fd == 0:                        # stop: close every probe's stdin
                selector.unregister(0)
                for _, w, _ in children.values():
                    os.close(w)
            elif not data:                       # that probe has ended
                selector.unregister(fd)
                os.close(fd)
                cell = by_fd.pop(fd)
                status = os.waitstatus_to_exitcode(os.waitpid(children[cell][0], 0)[1])
                if status:
                    if not failed:
                        stop_all()
                    failed[cell] = status if status > 0 else 128 - status
            else:
                *lines, partial[fd] = (partial[fd] + data).split(b"\n")
                tag = by_fd[fd].encode() + b"\t"
                out.write(b"".join(tag + line + b"\n" for line in lines))
        out.flush()
    return failed


def forward(children, commands):
    """Each complete line "<cell>\t<text>" to that cell's probe; returns what is left."""
    *lines, left = commands.split(b"\n")
    for line in lines:
        cell, _, text = line.decode().partition("\t")
        try:
            os.write(children[cell][1], text.encode() + b"\n")
        except (KeyError, OSError):              # no such cell, or its probe has ended
            pass
    return left
