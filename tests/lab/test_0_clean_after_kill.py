"""`make clean` after a killed `make up` leaves nothing labelled as the lab's.

Named to run first: `make clean` removes every lab container, the session's too.
"""
import os
import signal
import subprocess
import time

from harness.lab import REPO, labelled_leftovers


def test_make_clean_after_killed_make_up_leaves_nothing_labelled():
    env = {**os.environ, "LAB_PROJECT": "blackhole-lab-killed",
           "LAB_FRONT_PREFIX": "10.213.111", "LAB_BACK_PREFIX": "10.213.112"}
    up = subprocess.Popen(["make", "up"], cwd=REPO, env=env, start_new_session=True,
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and not labelled_leftovers()["containers"]:
        time.sleep(0.2)
    assert labelled_leftovers()["containers"], "make up created no container within 120 s"
    os.killpg(up.pid, signal.SIGKILL)
    up.wait()
    assert labelled_leftovers()["networks"], "nothing left to clean: the test proves nothing"

    subprocess.run(["make", "clean"], cwd=REPO, check=True, capture_output=True)
    assert labelled_leftovers() == {"containers": [], "networks": [], "volumes": []}
