"""A project's containers looked at in two docker commands, `ps` then one `inspect` of them all.

python-on-whales lists the containers and then inspects each one again when an attribute is read:
five processes for a lab of four, 0.1 s of CPU a look. A run's health waits look four times a
second while its lab and its clients start, and its removal ten times a second while its report is
drawn: the machine has no CPU to spare then.
"""
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from python_on_whales import DockerClient

from ..errors import LabError
from .bounded_run import run_bounded
from .docker_lists import ContainerVanished, listed_again_if_one_vanished

PROJECT_LABEL = "com.docker.compose.project"
SERVICE_LABEL = "com.docker.compose.service"
SERVICE_FIELD = f'{{{{index .Config.Labels "{SERVICE_LABEL}"}}}}'
STATE_FIELDS = (SERVICE_FIELD, "{{.State.Status}}", "{{if .State.Health}}{{.State.Health.Status}}{{end}}",
                "{{.State.ExitCode}}", "{{.State.OOMKilled}}", "{{.State.StartedAt}}")
CALL_LIMIT_S = 60


@dataclass(frozen=True)
class ContainerState:
    status: str                 # running, exited, removing, ... (Docker's)
    health: str | None          # starting, healthy, unhealthy; None: the container has no check
    exit_code: int
    oom_killed: bool
    started_at: str = ""        # when this run of the container started (Docker's stamp): a restart changes it


def parse_states(rows: Iterable[Sequence[str]]) -> dict[str, ContainerState]:
    """{service: ContainerState} from inspect's rows of STATE_FIELDS."""
    return {service: ContainerState(status, health or None, int(exit_code), oom_killed == "true", started_at)
            for service, status, health, exit_code, oom_killed, started_at in rows}


def health_of(states: Mapping[str, ContainerState], passed_own_check: Mapping[str, str]) -> dict[str, str]:
    """{service: health} as Docker says it ('healthy', 'starting', ... or, without a check, the
    container's status), but 'healthy' for a container Docker has not checked yet whose own check
    the lab ran and saw pass in this same run of it (passed_own_check: {service: started_at}); a
    restart starts it over."""
    return {service: "healthy" if state.health == "starting" and passed_own_check.get(service) == state.started_at
            else state.health or state.status for service, state in states.items()}


def project_states(docker: Sequence[str], project: str) -> dict[str, ContainerState]:
    """{service: ContainerState} of the project's containers, stopped ones too."""
    return parse_states(inspect_project(docker, project, STATE_FIELDS))


def inspect_project(docker: Sequence[str], project: str, fields: Sequence[str]) -> list[list[str]]:
    """[[field, ...] per container] of the project's containers, each field a Go template of
    `docker inspect`. docker: the engine's docker command line. A container removed between the two
    commands is looked for again."""
    def look() -> list[list[str]]:
        ids = answer("ps", [*docker, "ps", "--all", "--quiet", "--no-trunc", "--filter", f"label={PROJECT_LABEL}={project}"])
        if not ids.split():
            return []
        lines = answer("inspect", [*docker, "inspect", "--type", "container", "--format", "\t".join(fields), *ids.split()])
        return [line.split("\t") for line in lines.splitlines()]
    return listed_again_if_one_vanished(look)


def command_of(docker_client: DockerClient) -> list[str]:
    """The docker command line of a python-on-whales client (its host and its wrapper included)."""
    return [str(part) for part in docker_client.client_config.docker_cmd]


def answer(command: str, argv: Sequence[str]) -> str:
    """What `docker <command>` (argv, bounded by CALL_LIMIT_S) printed; ContainerVanished when it
    names an object that is gone, LabError when it failed otherwise."""
    try:
        result = run_bounded(argv, timeout=CALL_LIMIT_S)
    except subprocess.TimeoutExpired:
        raise LabError(f"the Docker engine did not answer `docker {command}` within {CALL_LIMIT_S} s") from None
    if result.returncode:
        failed = ContainerVanished if "No such" in result.stderr else LabError
        raise failed(f"`docker {command}` failed ({result.returncode}): {result.stderr.strip()[-300:]}")
    return result.stdout
