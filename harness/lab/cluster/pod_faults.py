"""What a cluster lab does to its server pods when a fault says so (ClusterLab.pods()): the
faults in Kubernetes' own terms (harness/faults' endpoint_not_ready, endpoint_removed,
node_lost) and the seed's swap (director.py). The harness acts on the pod; the cluster's own
endpoint controller and kube-proxy do the rest, in their own time.

  set_behind_vip  a server's pod made an endpoint of the VIP's Service, or taken out of it
  cut_silently    the pod's network stops, in its own namespace: nothing answers, nothing is sent
  turn_unready    the pod's readiness gate (pods.SERVING) turned off: the endpoint controller
                  marks its endpoint not ready and kube-proxy takes it out of the Service (IPVS:
                  weight 0 while its flows last). The server goes on serving.
  delete          the pod deleted with a grace period, as `kubectl delete pod`: the kubelet
                  sends its container SIGTERM (the server closes its connections as it shuts
                  down), SIGKILL after the grace; its endpoint turns terminating, then goes
  lose_node       refused: the lab's node is the cluster's only one (fault_support.py)

Each fault returns when it landed, as a fault's inject() does (effects.Landing), on
the node's clock, which the pods' programs stamp their records with.
"""
import sys
from typing import TYPE_CHECKING

from ...errors import LabError
from ...faults.answers_out import service_port
from ...measure.effects import Landing
from ...topology import BACK
from . import pod_network, pod_status
from .api import ApiError, wait_for
from .fault_support import lost_node_refusal
from .making import API_POLL_S, BEHIND_VIP, INITIAL_BACKENDS, rfc3339_now
from .pods import serving

if TYPE_CHECKING:
    from .lab import ClusterLab

RESTART_GRACE_S = 3             # as the Compose labs' `restart --timeout 3`
GONE_AFTER_GRACE_S = 60          # the kubelet's SIGKILL after the grace, and a TCG node's slowness


class ClusterPods:
    def __init__(self, lab: "ClusterLab") -> None:
        self.lab = lab
        self._cut: dict[str, str] = {}               # service -> its pod's address, while its network is cut

    def restart(self, service: str, timeout_s: float) -> None:
        """The container's PID 1 ends (SIGTERM, SIGKILL after RESTART_GRACE_S) and the kubelet
        starts it again in the same pod; returns once the new one runs."""
        lab = self.lab
        before = lab.read_pod(service)
        if not before.get("id"):
            raise LabError(f"{service}: no container to restart")
        lab.restarts_asked[service] = before["restarts"] + 1
        lab.shell.stop(before["id"], RESTART_GRACE_S)

        def new_one_runs() -> bool:
            pod = lab.read_pod(service)
            return pod.get("id") not in ("", before["id"]) and pod_status.running(pod)
        wait_for(f"{service} to run again", new_one_runs, timeout_s, poll_s=API_POLL_S)

    def set_behind_vip(self, service: str, behind: bool) -> None:
        """Put a server's pod behind the VIP (an endpoint of its Service) or take it out."""
        self.lab.api.patch(self.lab.path("pods", service),
                           {"metadata": {"labels": {BEHIND_VIP: "yes" if behind else None}}})

    def reset(self) -> None:
        """The VIP's servers back to those the lab started with, every cut undone; a deleted pod
        stays deleted."""
        for service in self.lab.servers:
            if service in self._cut:
                pod_network.heal_cut(self.lab.shell, self._cut.pop(service))
            try:
                self.set_behind_vip(service, service in INITIAL_BACKENDS.values())
            except ApiError as exc:
                if exc.status != 404:
                    raise

    def cut_silently(self, service: str) -> tuple[float, float]:
        """The pod's network stops, as a hung or lost node's: (started, landed)."""
        address = self.lab.address(service, BACK)
        others = [self.lab.address(other, BACK) for other in self.lab.servers if other != service]
        started, landed, answers = pod_network.cut_silently(self.lab.shell, address, service_port(service), others)
        self._cut[service] = address
        if answers.waiting:             # its clients wait as for a hung server: said, as the page says it of a kill's
            print(f"warning: cluster: {answers.waiting} connection(s) of {service} still waited for an answer when "
                  f"its output was cut, {answers.waited_s:.2f} s after its input", file=sys.stderr)
        return started, landed

    def _replacement_in(self, replacement: str | None) -> None:
        if replacement is not None:
            self.set_behind_vip(replacement, True)

    def set_serving(self, service: str, ready: bool) -> None:
        """Turn the pod's readiness gate (pods.SERVING) on or off."""
        self.lab.api.patch(self.lab.path("pods", service) + "/status", serving(ready, rfc3339_now()))

    def turn_unready(self, target: str, replacement: str | None = None) -> Landing:
        self._replacement_in(replacement)
        asked = self.lab.now()
        self.set_serving(target, False)
        return Landing(asked, round(self.lab.now() - asked, 6))

    def delete(self, target: str, replacement: str | None = None, grace_s: float = 2.0) -> Landing:
        """From the API server's DELETE to the end of the container's PID 1 (seen on the node):
        the server's connections close in between, as its shutdown goes."""
        lab = self.lab
        container = lab.read_pod(target).get("id")
        if not container:
            raise LabError(f"{target}: no running container to delete")
        self._replacement_in(replacement)
        lab.keep_log(target)
        asked = lab.now()
        lab.api.delete(lab.path("pods", target), grace_period_s=int(round(grace_s)))
        ended = lab.shell.wait_gone(container, grace_s + GONE_AFTER_GRACE_S)
        lab.keep_log(target)            # its shutdown's lines, if the API server still has the pod
        return Landing(asked, round(ended - asked, 6), {"container_ended_t": round(ended, 6)})

    def lose_node(self, target: str, replacement: str | None = None, grace_s: float = 40.0) -> Landing:
        raise LabError(lost_node_refusal(self.lab, target))
