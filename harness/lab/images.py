"""The lab's images: as compose.yaml names them, built on this host, handed to a guest."""
import json
import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ..control import CONTROL_PLANES
from ..databases import DATABASES
from ..errors import LabError
from . import image_inputs
from .guest.cache import cache_dir

if TYPE_CHECKING:
    from ..control.base import PlaneImage
    from .engine import PlaceEngine

REPO = Path(__file__).resolve().parents[2]
CONTEXTS = REPO / "images"             # every image's build context is a folder of this one
COMPOSE_FILE = REPO / "compose.yaml"
LABEL = "org.blackhole-lab"
HOST_CA_DIR = Path("/usr/local/share/ca-certificates")


IPVS_OVERRIDE = REPO / "compose.ipvs.yaml"


def compose_services(datapath: str | None = None) -> dict[str, Any]:
    """compose.yaml's services, as written; on the ipvs datapath with compose.ipvs.yaml's over them."""
    services = yaml.safe_load(COMPOSE_FILE.read_text())["services"]
    if datapath == "ipvs":
        for name, override in yaml.safe_load(IPVS_OVERRIDE.read_text())["services"].items():
            services[name] = {**services[name], **{key: {**services[name].get(key, {}), **value}
                                                   if isinstance(value, dict) else value
                                                   for key, value in override.items()}}
    return services


def planned_addresses() -> dict[str, dict[str, str]]:
    """{service: {network: address}} as compose.yaml places its nodes, interpolations kept
    ('${LAB_BACK_PREFIX:-10.213.2}.21')."""
    networks = {name: service.get("networks") for name, service in compose_services().items()}
    return {name: {network: spec["ipv4_address"] for network, spec in given.items()
                   if isinstance(spec, dict) and "ipv4_address" in spec}
            for name, given in networks.items() if isinstance(given, dict)}


def plane_images() -> list["PlaneImage"]:
    """The images control planes' services run (harness/control/base.py PlaneImage)."""
    return sorted({plane.image for plane in CONTROL_PLANES.values() if plane.image}, key=lambda i: i.tag)


def image_names() -> list[str]:
    """The lab's images: as compose.yaml names them, every database engine's, every control plane's."""
    return sorted({s["image"] for s in compose_services().values() if "image" in s}
                  | {engine.image for engine in DATABASES.values()} | {image.tag for image in plane_images()})


def host_extra_ca() -> str:
    """The certificate authorities this host added to its trust store (PEM), '' if none: where a
    TLS-inspecting proxy sits in front of the registries, image builds must trust it too."""
    if not HOST_CA_DIR.is_dir():
        return ""
    return "".join(p.read_text() for p in sorted(HOST_CA_DIR.rglob("*.crt")))


# BuildKit's session with the client timed out: on a busy machine (another build beside it) the
# build fails before it starts, "failed to read dockerfile: no active session for <id>: context
# deadline exceeded". Nothing was built; it is tried again.
BUILD_SESSION_LOST = "no active session for"
BUILD_ATTEMPTS = 3


def settle_modes(root: Path = CONTEXTS) -> None:
    """Give the build contexts' files the modes git means (0755 executable, else 0644; folders
    0755), whatever umask checked them out: BuildKit's COPY cache key holds the mode, so a clone
    made under umask 002 built other image ids, and each such id rebuilt the guest's disk (75 s)."""
    for folder, dirs, files in os.walk(root):
        os.chmod(folder, 0o755)
        for name in files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                os.chmod(path, 0o755 if os.stat(path).st_mode & 0o111 else 0o644)


def build(compose_command: Sequence[str], engine: "PlaceEngine", no_cache: bool = False) -> None:
    """Build the images with the project's compose command (a list), on engine."""
    settle_modes()
    env = {**os.environ, "LAB_HOST_EXTRA_CA": host_extra_ca()}
    command = [*compose_command, "--progress", "quiet", "build", *(["--no-cache"] if no_cache else [])]
    for _ in range(BUILD_ATTEMPTS):
        result = subprocess.run(command, capture_output=True, text=True, env=env)
        if not result.returncode or BUILD_SESSION_LOST not in result.stdout + result.stderr:
            break
    if result.returncode:
        raise LabError(f"docker compose build failed ({result.returncode}):\n"
                       f"{(result.stdout + result.stderr).strip()[-2000:]}")
    # An older build of a tag, left untagged, could be picked from the cache by the next build,
    # flipping the image id (and so the guest disk's key) between builds of the same files.
    engine.docker().image.prune(filter={"label": LABEL})


def build_plane_images() -> None:
    """Each control plane's image: its programs built once per machine by its script (which says
    what it builds, and how long that takes), copied into its context, then `docker build`."""
    settle_modes()
    for image in plane_images():
        context = REPO / image.context
        if image.binaries:
            made = subprocess.run([str(REPO / image.binaries)], stdout=subprocess.PIPE, text=True)
            if made.returncode:
                raise LabError(f"{image.binaries} failed ({made.returncode}): the {image.tag} image cannot be built")
            source = Path(made.stdout.strip().splitlines()[-1])
            (context / "bin").mkdir(exist_ok=True)
            for program in sorted(source.iterdir()):
                copy = context / "bin" / program.name
                if not copy.exists() or copy.stat().st_size != program.stat().st_size \
                        or copy.stat().st_mtime < program.stat().st_mtime:
                    shutil.copy2(program, copy)
        result = subprocess.run(["docker", "build", "--quiet", "--network", "host", "--label", f"{LABEL}=1",
                                 "--tag", image.tag, str(context)], capture_output=True, text=True)
        if result.returncode:
            raise LabError(f"docker build of {image.tag} failed ({result.returncode}):\n"
                           f"{(result.stdout + result.stderr).strip()[-2000:]}")


def image_contexts() -> dict[str, Path]:
    """{image: its build context folder}: compose.yaml's, the database engines', the control planes'."""
    services = list(compose_services().values())
    services += [s for engine in DATABASES.values() for s in engine().services().values()]
    contexts = {s["image"]: REPO / s["build"]["context"] for s in services if "image" in s and "build" in s}
    contexts.update({image.tag: REPO / image.context for image in plane_images()})
    return contexts


def host_image_keys() -> dict[str, str]:
    """{image: what it is built from} of the lab's images (harness/lab/image_inputs.py): what the
    guest's disk is keyed by."""
    return image_inputs.keys(image_names(), image_contexts(), {"HOST_EXTRA_CA": host_extra_ca()})


def _built_record() -> Path:
    return cache_dir("images") / "built.json"


def built_as_recorded() -> bool:
    """Whether this host's images are the ones the last build here made, from the inputs the
    checkout has now (then a build would only walk Compose's cache: 2.7 s a run)."""
    try:
        record = json.loads(_built_record().read_text())
    except (OSError, ValueError):
        return False
    names = image_names()
    if image_inputs.image_ids(names) != record.get("ids"):
        return False
    return host_image_keys() == record.get("keys")


def record_build() -> None:
    ids = image_inputs.image_ids(image_names())
    _built_record().write_text(json.dumps({"keys": host_image_keys(), "ids": ids}, indent=1) + "\n")


def save_host_images(path: str | Path) -> None:
    """The lab's images into one archive for a guest's disk, which is keyed by the checkout's
    files: images built from other files (edited since the last build) are refused, or the disk
    would carry the old images under the new files' key until those files changed again."""
    try:
        built_from = json.loads(_built_record().read_text()).get("keys")
    except (OSError, ValueError):
        built_from = None
    now = host_image_keys()
    stale = sorted(name for name in now if (built_from or {}).get(name) != now[name])
    if stale:
        raise LabError(f"image {stale[0]} was built from other files than the checkout has now"
                       f"{f' (and {len(stale) - 1} more)' if len(stale) > 1 else ''}: build the lab's images "
                       "first (make images), then the guest's disk is made from them")
    subprocess.run(["docker", "save", "-o", str(path), *image_names()], check=True, timeout=900)


def image_sizes_mb(engine: "PlaceEngine") -> dict[str, int]:
    """{image tag: size in MB} of the lab's images (blackhole-lab/*)."""
    return {tag: round(image.size / 1e6) for image in engine.docker().image.list()
            for tag in image.repo_tags if tag.startswith("blackhole-lab/")}
