#!/usr/bin/env python3
"""stamp CMD...: run CMD and print each line of its output (stdout and stderr) as
'<unix time> <line>', taken when the line is read. The command gets a pseudo-terminal,
so tools that buffer a pipe (sysbench) still hand over every line at once.
Its last line says how the command ended: '[stamp] exit N' or '[stamp] killed by SIGNAME'.
A SIGINT/SIGTERM to stamp is passed on to the command, whose end it then still records."""
import os
import pty
import signal
import sys
import time


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: stamp CMD [ARGS...]")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(sys.argv[1], sys.argv[1:])
    for forwarded in (signal.SIGINT, signal.SIGTERM):
        signal.signal(forwarded, lambda number, _frame: os.kill(pid, number))
    pending = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            break
        now = time.time()
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            sys.stdout.write(f"{now:.3f} {line.decode(errors='replace').rstrip()}\n")
        sys.stdout.flush()
    if pending:
        sys.stdout.write(f"{time.time():.3f} {pending.decode(errors='replace').rstrip()}\n")
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    end = f"killed by {signal.Signals(-code).name}" if code < 0 else f"exit {code}"
    sys.stdout.write(f"{time.time():.3f} [stamp] {end}\n")
    sys.exit(code & 0xFF)


if __name__ == "__main__":
    main()
