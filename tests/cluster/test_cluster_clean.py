"""A run on a cluster given by its kubeconfig, killed with SIGKILL, cannot take its namespace
down; `make clean LAB=kubernetes` does (its owner, a process of this machine, is gone) and keeps
a lab namespace whose owner is running. The witnesses: the API server's namespaces, and this
machine's processes (the dead run's kubectl execs end with its namespace)."""
import os
import signal
import subprocess
import sys
import time

import pytest

from harness.lab.cluster.agent import AGENT
from harness.lab.cluster.api import ApiError, wait_for
from harness.lab.cluster.leftovers import owner_here
from harness.lab.cluster.pods import LAB_LABEL, lab_namespace
from harness.lab.compose import REPO
from tests.cluster.test_cluster_run import given_by_its_kubeconfig

pytestmark = pytest.mark.cluster
STARTED_S = 600               # the run's namespace and node agent made (TCG node)


def labelled(api):
    return {n["metadata"]["name"] for n in api.get(f"/api/v1/namespaces?labelSelector={LAB_LABEL}")["items"]}


def agent_running(api, namespace):
    try:
        return api.get(f"/api/v1/namespaces/{namespace}/pods/{AGENT}")["status"].get("phase") == "Running"
    except ApiError:
        return False


def processes_naming(text):
    found = subprocess.run(["pgrep", "-af", text], capture_output=True, text=True).stdout.splitlines()
    return [line for line in found if "pgrep" not in line]


def test_make_clean_deletes_the_namespace_a_killed_run_left_and_keeps_a_running_owners(node, tmp_path):
    api = node.api()
    kubeconfig = given_by_its_kubeconfig(node, tmp_path).kubeconfig_path
    env = {**os.environ, "LAB": "kubernetes", "KUBECONFIG": str(kubeconfig)}
    before = labelled(api)
    live = f"blackhole-test-live-{os.getpid()}"
    api.create_unless_there("/api/v1/namespaces", lab_namespace(live, owner_here()))
    run = subprocess.Popen([sys.executable, "-m", "harness", "run", "lvs-switchover"], cwd=REPO, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        def made():
            return [n for n in labelled(api) - before - {live} if agent_running(api, n)]
        wait_for("the run's namespace and node agent", made, STARTED_S, poll_s=1.0,
                 alive=lambda: run.poll() is not None and f"the run ended (exit {run.returncode})")
        [namespace] = made()
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
        assert namespace in labelled(api), "nothing deletes a killed run's namespace but make clean"
        cleaned = subprocess.run([sys.executable, "-m", "harness", "clean"], cwd=REPO, env=env, capture_output=True,
                                 text=True, timeout=600)
        print(cleaned.stdout, cleaned.stderr)
        assert cleaned.returncode == 0
        assert namespace not in labelled(api) and live in labelled(api)
        assert f"removed namespace {namespace}" in cleaned.stdout
        assert f"kept namespace {live} on the cluster: its owner, pid {os.getpid()}, is running" in cleaned.stdout
        # the dead run's kubectl execs into its pods ended with them
        deadline = time.monotonic() + 120
        while processes_naming(namespace) and time.monotonic() < deadline:
            time.sleep(1)
        assert processes_naming(namespace) == []
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        for name in labelled(api) - before:
            api.delete(f"/api/v1/namespaces/{name}", grace_period_s=0)
        wait_for("the test's namespaces to be deleted", lambda: labelled(api) <= before, 300, poll_s=1.0)
