"""What each of the lab's images is built from, as one key per image: the files of its build
context (their bytes and whether they are executable, as git records them), the base images its
Dockerfile names, and the build argument the lab passes. The guest's disk is keyed by these, not
by image ids: a build whose every step came from BuildKit's cache could hand back an older equal
image (other file times in its layers, another id; seen: a clean clone's mysql:dev made the day
before), and each such flip rebuilt the disk (95-113 s)."""
import hashlib
import json
import os
import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..errors import LabError

FROM_RE = re.compile(r"^FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?", re.I | re.M)
SKIPPED = ("__pycache__",)                 # what every context's .dockerignore leaves out
SKIPPED_SUFFIXES = (".pyc",)


def base_images(dockerfile: str) -> list[str]:
    """The images a Dockerfile's FROM lines name, not its own stages."""
    found: list[str] = []
    stages: set[str] = set()
    for image, stage in FROM_RE.findall(dockerfile):
        if image.lower() not in stages and image not in found:
            found.append(image)
        if stage:
            stages.add(stage.lower())
    return found


def context_digest(context: Path) -> str:
    """The context's files by relative path: bytes and executable bit (not times, not owners)."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(context):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED)
        for name in sorted(files):
            path = Path(folder) / name
            if name.endswith(SKIPPED_SUFFIXES) or path.is_symlink():
                continue
            digest.update(f"{path.relative_to(context)}\0{os.stat(path).st_mode & 0o100 > 0}\0".encode())
            with open(path, "rb") as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    digest.update(block)
    return digest.hexdigest()


def input_key(context: Path, base_ids: Mapping[str, str | None], build_args: Mapping[str, str]) -> str:
    """One image's key from its context folder, {base image: id} and {argument: value}."""
    held = {"files": context_digest(context), "bases": base_ids, "args": build_args}
    return "inputs:" + hashlib.sha256(json.dumps(held, sort_keys=True).encode()).hexdigest()[:24]


def image_ids(names: Sequence[str]) -> dict[str, str]:
    """{image: id} of those on this host (missing ones left out)."""
    result = subprocess.run(["docker", "image", "inspect", *names], capture_output=True, text=True)
    return {name: record["Id"] for record in json.loads(result.stdout or "[]")
            for name in record.get("RepoTags") or () if name in names}


def keys(names: Sequence[str], contexts: Mapping[str, Path], build_args: Mapping[str, str]) -> dict[str, str]:
    """{image: input_key} for the named images, each of which must be on this host (the disk is
    made from them)."""
    missing = sorted(set(names) - set(image_ids(names)))
    if missing:
        raise LabError(f"image {missing[0]} is missing on this host: build the lab's images first (make images)")
    dockerfiles = {name: (contexts[name] / "Dockerfile").read_text() for name in names if name in contexts}
    unknown = sorted(set(names) - set(dockerfiles))
    if unknown:
        raise LabError(f"image {unknown[0]}: no build context known for it")
    bases = {name: base_images(text) for name, text in dockerfiles.items()}
    base_ids = image_ids(sorted({b for found in bases.values() for b in found}))
    return {name: input_key(contexts[name], {b: base_ids.get(b) for b in bases[name]}, build_args)
            for name in names}
