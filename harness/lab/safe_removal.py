"""Removing a lab's containers without crashing the Docker 20.10 daemon.

A health probe registers its exec on the container and then starts it. Starting it checks that
the container runs, and a few lines later looks the container up again and uses what it finds
without a check (daemon/exec.go:176, the same from v20.10.24, Debian 12's docker.io, through
v20.10.27). If the container was removed in that gap, the second lookup finds nil and dockerd
dies. On a busy machine the probe's goroutine can wait long enough for a `compose down --timeout 0`
to kill and remove the container in the gap: a CI run of this lab lost its engine that way.

So a lab is killed first, and removed only after its containers have been seen stopped, holding no
registered exec that has not started (inspect's ExecIDs), for SETTLE_S in a row. A probe already
in the gap when its container stopped has that long to reach the second lookup. This shrinks the
window; nothing outside dockerd can close it. scripts/ensure-docker.sh starts a dockerd it launched
again if one dies anyway.
"""
import json
import time
from collections.abc import Iterable
from typing import Any

from python_on_whales import DockerClient
from python_on_whales.exceptions import DockerException

from . import engine_api
from .container_states import PROJECT_LABEL, command_of, inspect_project

POLL_S = 0.1
SETTLE_S = 0.5
DOCKER_CALL_LIMIT_S = 20


def bounded_docker_call(limit_s: float = DOCKER_CALL_LIMIT_S) -> list[str]:
    """A docker client command line whose every call ends within limit_s (killed 5 s after its TERM):
    a wedged engine makes a removal fail with a reason instead of hanging it."""
    return ["timeout", "--kill-after=5", f"{limit_s:g}", "docker"]


def pending_execs(states: Iterable[tuple[str, bool, list[Any]]]) -> list[str]:
    """The containers in [(name, running, exec_ids)] that still run or hold an exec."""
    return sorted(name for name, running, exec_ids in states if running or exec_ids)


def kill_and_wait_for_probes(docker: DockerClient, project: str, timeout_s: float = 10.0) -> list[str]:
    """Kill the project's containers, then wait until they are all stopped with no exec pending.
    Returns the containers still pending at the deadline (empty when it is safe to remove them).
    docker: a python-on-whales client of the engine; each look is one `ps` and one `inspect`."""
    command = command_of(docker)

    def states() -> list[tuple[str, str, bool, list[Any]]]:
        return [(cid, name.lstrip("/"), running == "true", json.loads(exec_ids) or []) for cid, name, running, exec_ids
                in inspect_project(command, project, ("{{.Id}}", "{{.Name}}", "{{.State.Running}}", "{{json .ExecIDs}}"))]

    running = [cid for cid, _, is_running, _ in states() if is_running]
    if running:
        try:
            docker.container.kill(running)
        except DockerException:
            pass                            # one stopped by itself meanwhile; the looks below tell

    deadline = time.monotonic() + timeout_s
    quiet_since: float | None = None
    pending: list[str] = []
    while time.monotonic() < deadline:
        pending = pending_execs([(name, is_running, exec_ids) for _, name, is_running, exec_ids in states()])
        if pending:
            quiet_since = None
        elif quiet_since is None:
            quiet_since = time.monotonic()
        elif time.monotonic() - quiet_since >= SETTLE_S:
            return []
        time.sleep(POLL_S)
    return pending


def detach_one_by_one(docker_host: str | None, project: str, timeout_s: float) -> int:
    """Take every container of the project off the project's networks, one endpoint at a time,
    before anything is killed. Docker 20.10 keeps a count of each network's endpoints that drifts
    when many are deleted at once (a stopping container deletes its own: a killed lab deletes them
    all together), and a network whose count stays above zero cannot be removed until dockerd
    restarts (moby/moby#42119; Docker stopped counting in 28.1). Returns how many it took off; one
    that fails (gone meanwhile, or past the deadline) is left to compose down. Over the engine's
    socket: a CLI process per endpoint doubled a lab's teardown."""
    path = engine_api.socket_path(docker_host)
    if path is None:
        return 0
    deadline, detached = time.monotonic() + timeout_s, 0
    for network_id, _, containers in engine_api.labelled_networks(path, f"{PROJECT_LABEL}={project}"):
        for container_id in containers:
            if time.monotonic() >= deadline:
                return detached
            detached += engine_api.disconnect(path, network_id, container_id)
    return detached


def disconnect_stale_endpoints(docker: DockerClient, project: str) -> list[str]:
    """Force off the project's networks every endpoint still counted there. Docker 20.10 keeps now
    and then an endpoint of a container it has removed (moby/moby#42119), and then refuses to
    remove the network ("has active endpoints") until dockerd restarts; `network disconnect
    --force` by the endpoint's name clears it. Returns the 'network: name' pairs it cleared."""
    cleared = []
    for network in docker.network.list(filters={"label": f"{PROJECT_LABEL}={project}"}):
        for endpoint in (network.containers or {}).values():
            if endpoint.name is None:       # an endpoint the engine names nothing cannot be disconnected by name
                continue
            try:
                docker.network.disconnect(network.name, endpoint.name, force=True)
                cleared.append(f"{network.name}: {endpoint.name}")
            except DockerException:
                pass                        # gone meanwhile
    return cleared
