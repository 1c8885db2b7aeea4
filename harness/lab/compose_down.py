"""`docker compose down` of a lab, bounded in time, again while Docker still counts an endpoint of
a removed container on one of its networks."""
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from python_on_whales.exceptions import DockerException

from ..errors import LabError
from .docker_lists import TIMED_OUT
from .engine_api import EngineApiError

if TYPE_CHECKING:
    from .engine import PlaceEngine
from .safe_removal import bounded_docker_call, detach_one_by_one, disconnect_stale_endpoints, kill_and_wait_for_probes

STALE_ENDPOINT = "has active endpoints"
STALE_ENDPOINT_RETRY_S, STALE_ENDPOINT_WAIT_S = 2.0, 10.0


def compose_down(engine: "PlaceEngine", project: str, compose: Callable[..., str], timeout_s: float) -> None:
    """`compose down`, again while a network still counts an endpoint of a removed container:
    Docker 20.10 does so now and then for a moment after removing a hundred containers, and
    sometimes for good (moby/moby#42119: only restarting dockerd clears it). compose(*args,
    timeout=): runs a `docker compose` command of the project, LabError when it fails."""
    deadline = time.monotonic() + timeout_s
    try:
        detach_one_by_one(engine.docker_host, project, timeout_s=min(20.0, timeout_s / 4))
    except EngineApiError as exc:       # the engine did not answer: compose down removes them anyway
        print(f"warning: could not take {project}'s containers off its networks first: {str(exc).strip()[-200:]}",
              file=sys.stderr)
    try:
        pending = kill_and_wait_for_probes(engine.docker(client_call=bounded_docker_call()), project,
                                           timeout_s=min(10.0, timeout_s / 4))
    except DockerException as exc:      # one that did not answer in time: compose down tries anyway
        said = "no answer in time" if exc.return_code == TIMED_OUT else (exc.stderr or "").strip()[-200:]
        pending = [f"(the engine's list of them: {said})"]
    except LabError as exc:             # a look at them that failed or did not answer in time
        pending = [f"(the engine's list of them: {str(exc).strip()[-200:]})"]
    if pending:
        print(f"warning: {', '.join(pending)} still ran or held an exec after being killed; removing anyway",
              file=sys.stderr)
    gives_up, restarted = None, False
    while True:
        try:
            # nothing in the lab keeps state worth a clean shutdown (its logs are kept before this)
            compose("down", "--remove-orphans", "--volumes", "--timeout", "0",
                    timeout=max(1.0, deadline - time.monotonic()))
            return
        except subprocess.TimeoutExpired:
            raise LabError(f"`docker compose down` of {project} did not end within {timeout_s:g} s; its "
                           "containers may remain" + engine.what_is_stuck()) from None
        except LabError as exc:
            if STALE_ENDPOINT not in str(exc):
                raise
            if gives_up is not None:            # it stayed: take the stale endpoints off by force
                cleared = disconnect_stale_endpoints(engine.docker(), project)
                print(f"lab: took stale endpoints off by force (moby/moby#42119): {', '.join(cleared) or 'none'}",
                      file=sys.stderr)
            gives_up = gives_up or min(deadline, time.monotonic() + STALE_ENDPOINT_WAIT_S)
            if time.monotonic() + STALE_ENDPOINT_RETRY_S > gives_up:
                if not restarted and engine.restart_docker_if_idle():
                    restarted, deadline = True, max(deadline, time.monotonic() + STALE_ENDPOINT_WAIT_S * 6)
                    print("lab: restarted the guest's dockerd to forget a stale endpoint (moby/moby#42119)",
                          file=sys.stderr)
                    continue
                raise LabError(f"{exc}\nDocker still counts an endpoint of a removed container on that network "
                               "(moby/moby#42119), even after `network disconnect --force`; restarting dockerd "
                               "while no lab runs clears it" + (" (a restart did not)" if restarted else "")) from None
            time.sleep(STALE_ENDPOINT_RETRY_S)
