"""The version lines env.json records, kept by image: an image id names its bytes, so what
`nft --version` printed in one container of that image it prints in every other. A run then asks
only an image it has not seen (each ask is a `docker exec`: ~0.05 s of this host's CPU while its
clients settle, seconds in an emulated guest). Kept in the cache directory (BLACKHOLE_CACHE)."""
import json
import os
from collections.abc import Mapping, Sequence

from ..settings import machine

FILE_NAME = "version-lines.json"


def key(image: str | None, command: Sequence[str]) -> str | None:
    """The line's key, or None where the image is not named by its content (a tag, as a cluster's
    pods give, names whatever was built last; nothing is kept then)."""
    return f"{image} {json.dumps(list(command))}" if image and image.startswith("sha256:") else None


def known() -> dict[str, str]:
    """{key: the version line} kept so far ({} when none, or the file is unreadable)."""
    try:
        found = json.loads((machine.cache_root() / FILE_NAME).read_text())
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def keep(lines: Mapping[str, str]) -> None:
    """Adds {key: line} to the kept ones. Runs side by side may each write: the last whole file
    wins, and a line one of them lost is asked again by the next run."""
    if not lines:
        return
    path = machine.cache_root() / FILE_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    written = path.with_suffix(f".{os.getpid()}")
    written.write_text(json.dumps({**known(), **lines}, indent=0, sort_keys=True))
    written.replace(path)
