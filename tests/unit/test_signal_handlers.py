"""harness/interrupts.py: a process that installed the harness's handlers raises Interrupted on
SIGTERM (so a test or a run takes its lab down on the way out, tests/conftest.py installs them in
every test process); a child it forks without exec gets the defaults back, so a pool's SIGTERM ends
its workers, as multiprocessing expects."""
import os
import signal
import time

import pytest

from harness import interrupts


def test_sigterm_is_raised_where_the_code_is_and_a_forked_child_dies_of_it():
    interrupts.install()          # tests/conftest.py did already; installing again changes nothing
    with pytest.raises(interrupts.Interrupted) as raised:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)
    assert raised.value.exit_code == 128 + signal.SIGTERM
    ready, told = os.pipe()
    child = os.fork()
    if child == 0:
        os.write(told, b"!")      # running: the fork's own steps are done
        time.sleep(30)            # no handler of ours: SIGTERM ends it at once
        os._exit(0)
    os.read(ready, 1)
    os.kill(child, signal.SIGTERM)
    _, status = os.waitpid(child, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM
