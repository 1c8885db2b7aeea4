"""LAB=kubernetes: what a cluster cannot give a lab is refused with one line, before anything
asks the cluster (harness/lab/cluster/place.py's lab_of_shape, lab/places.py's open_place)."""
import json
import socket

import pytest

from harness.cli.runs import place_for
from harness.errors import InvalidInput, LabError
from harness.lab import ClientCell, LabRequest, lab_on
from harness.lab.cluster.assets import kubeconfig
from harness.lab.cluster.place import ClusterPlace


class NoCluster(ClusterPlace):
    """A place whose cluster must never be asked."""
    def ensure_started(self, say=None):
        raise AssertionError("asked the cluster")


@pytest.mark.parametrize("shape, says", [
    ({"cell_namespaces": "netns"}, "pod of its own"),
    ({"datapath": "nftables"}, "IPVS mode"),
    ({"services": [{"keepalived": {}}]}, "kube-proxy"),
    ({"cells": [ClientCell("r5-slow", netem="delay 50ms")]}, "netem"),
])
def test_what_a_cluster_cannot_give_is_refused_by_name(shape, says):
    with pytest.raises(LabError, match=says):
        lab_on(NoCluster(), LabRequest(project="p", **shape))


def test_an_empty_control_plane_service_list_is_no_refusal():
    class Asked(ClusterPlace):
        def ensure_started(self, say=None):
            raise LabError("asked")
    with pytest.raises(LabError, match="asked"):
        lab_on(Asked(), LabRequest(project="p", services=[{}]))


def test_a_kubeconfig_that_is_not_there_or_whose_server_does_not_answer_is_refused(monkeypatch, tmp_path, ca_file):
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "elsewhere"))
    with pytest.raises(LabError, match="elsewhere: no such file"):
        ClusterPlace()
    with socket.socket() as unused:             # a loopback port nothing listens on
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    config = tmp_path / "other"
    config.write_text(json.dumps(kubeconfig(f"https://127.0.0.1:{port}", str(ca_file))))
    monkeypatch.setenv("KUBECONFIG", str(config))
    with pytest.raises(LabError, match=rf"127.0.0.1:{port}\) does not answer /readyz"):
        ClusterPlace().ensure_started()


def test_an_unknown_lab_is_refused(monkeypatch):
    monkeypatch.setenv("LAB", "nomad")
    with pytest.raises(InvalidInput, match="LAB=nomad: one of compose, kubernetes"):
        place_for("host")
