"""Labs a run left on a cluster. A run takes its namespace down after a failure or Ctrl-C; one
killed with SIGKILL (or whose machine died) cannot, and on a cluster given by a kubeconfig nothing
else would. So each lab's namespace says who made it (the OWNER annotation: this machine's name
and boot, the process and its start), and `make clean LAB=kubernetes` deletes the lab namespaces
whose owner is gone: a process of this machine's that is not running any more, or one of a boot
before this one. A namespace of another machine's run is kept (its owner may be running there),
as is one that says no owner; `make clean LAB=kubernetes ALL=1` deletes every lab namespace."""
import json
import socket
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .. import registry
from .api import KubeApi, wait_for
from .pods import LAB_LABEL, OWNER

GONE_S = 300


def boot_id() -> str:
    return Path("/proc/sys/kernel/random/boot_id").read_text().strip()


def owner_here() -> str:
    """The annotation a lab's namespace gets: who made it, here and now."""
    return json.dumps({"host": socket.gethostname(), "boot": boot_id(), **registry.me()}, sort_keys=True)


def why_kept(annotation: str | None, host: str, boot: str,
             alive: Callable[[Mapping[str, Any]], bool] = registry.alive) -> str | None:
    """Why a lab namespace with this OWNER annotation stays (None: it goes), seen from host in boot."""
    try:
        owner = json.loads(annotation) if annotation else None
    except json.JSONDecodeError:
        owner = None
    if not isinstance(owner, dict) or not owner.get("host"):
        return "it says no owner"
    if owner["host"] != host:
        return f"made by a run on {owner['host']}"
    if owner.get("boot") == boot and alive(owner):
        return f"its owner, pid {owner['pid']}, is running"
    return None


def clean(api: KubeApi, everything: bool = False, say: Callable[[str], None] = print) -> dict[str, Any]:
    """Delete the lab namespaces whose owner is gone (everything: all of them), and wait until
    they are; returns {"removed": [names], "kept": {name: why}}."""
    listed = api.get(f"/api/v1/namespaces?labelSelector={LAB_LABEL}")["items"]
    host, boot = socket.gethostname(), boot_id()
    removed, kept = [], {}
    for namespace in sorted(listed, key=lambda n: n["metadata"]["name"]):
        name = namespace["metadata"]["name"]
        why = None if everything else why_kept((namespace["metadata"].get("annotations") or {}).get(OWNER), host, boot)
        if why:
            kept[name] = why
            continue
        say(f"cluster: clean: deleting namespace {name} ...")
        api.delete(f"/api/v1/namespaces/{name}", grace_period_s=0)
        removed.append(name)
    if removed:
        wait_for(f"namespaces {', '.join(removed)} to be deleted",
                 lambda: all(api.gone(f"/api/v1/namespaces/{name}") for name in removed), GONE_S, poll_s=1.0)
    return {"removed": removed, "kept": kept}
