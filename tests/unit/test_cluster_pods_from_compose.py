"""A Compose service of the lab made a pod (harness/lab/cluster/from_compose.py), a pod's status
read back (pod_status.py), containerd's task list (node_shell.py): pure."""
import pytest

from harness.lab.cluster import from_compose, pod_status
from harness.lab.cluster.node_shell import running_tasks
from harness.lab.cluster.pods import SERVING, vip_service

# As `docker compose config` renders compose.yaml for a lab with the replica and one cell.
REPLICA = {"depends_on": {"db-primary": {"condition": "service_started"}}, "entrypoint": None, "command": None,
           "environment": {"PRIMARY_HOST": "10.213.2.21", "ROLE": "replica", "SERVER_ID": "2"},
           "hostname": "db-replica", "image": "blackhole-lab/mysql:dev",
           "healthcheck": {"test": ["CMD", "/usr/local/bin/healthcheck.sh"], "timeout": "3s", "interval": "1s"},
           "networks": {"back": {"ipv4_address": "10.213.2.22"}}, "tmpfs": ["/var/lib/mysql"]}
DEFINITIONS = {
    "director": {"networks": {"front": {"ipv4_address": "10.213.1.10"}, "back": {"ipv4_address": "10.213.2.10"}}},
    "db-primary": {**REPLICA, "depends_on": None, "environment": {"ROLE": "primary"},
                      "networks": {"back": {"ipv4_address": "10.213.2.21"}}},
    "db-replica": REPLICA,
    "client-r5": {"depends_on": {"director": {}}, "image": "blackhole-lab/client:dev", "environment": {"VIP": "10.213.1.10"},
                  "sysctls": {"net.ipv4.tcp_retries2": "5"}, "cap_add": ["NET_ADMIN"], "networks": {"front": None}},
}


def test_a_service_keeps_its_image_environment_and_mounts_and_its_addresses_become_the_clusters():
    pod = from_compose.pod_for("db-replica", REPLICA, "lab", {"10.213.2.21": "10.244.0.7"}, gated=True,
                               host_aliases={"db-primary": "10.244.0.7"}, ports={"mysql": 3306},
                               labels={"extra": "yes"})
    [container] = pod["spec"]["containers"]
    assert container["image"] == "blackhole-lab/mysql:dev" and container["imagePullPolicy"] == "Never"
    assert {"name": "PRIMARY_HOST", "value": "10.244.0.7"} in container["env"]
    assert container["ports"] == [{"name": "mysql", "containerPort": 3306}]
    assert container["startupProbe"]["exec"]["command"] == ["/usr/local/bin/healthcheck.sh"]
    assert "readinessProbe" not in container and "livenessProbe" not in container
    assert container["volumeMounts"] == [{"name": "tmpfs-0", "mountPath": "/var/lib/mysql"}]
    assert pod["spec"]["volumes"] == [{"name": "tmpfs-0", "emptyDir": {"medium": "Memory"}}]
    assert pod["spec"]["readinessGates"] == [{"conditionType": SERVING}]
    assert pod["spec"]["hostAliases"] == [{"ip": "10.244.0.7", "hostnames": ["db-primary"]}]
    assert pod["spec"]["hostname"] == "db-replica" and pod["spec"]["restartPolicy"] == "Always"
    assert pod["metadata"]["labels"] == {from_compose.LABEL: "db-replica", "extra": "yes"}


def test_a_cells_sysctls_and_capabilities_are_the_pods():
    pod = from_compose.pod_for("client-r5", DEFINITIONS["client-r5"], "lab", {"10.213.1.10": "10.96.0.20"})
    assert pod["spec"]["securityContext"]["sysctls"] == [{"name": "net.ipv4.tcp_retries2", "value": "5"}]
    [container] = pod["spec"]["containers"]
    assert container["securityContext"] == {"capabilities": {"add": ["NET_ADMIN"]}}
    assert container["env"] == [{"name": "VIP", "value": "10.96.0.20"}]
    assert "readinessGates" not in pod["spec"] and "startupProbe" not in container


def test_longer_addresses_are_rewritten_first():
    assert from_compose.rewrite_addresses("10.213.2.21,10.213.2.2", {"10.213.2.2": "A", "10.213.2.21": "B"}) == "B,A"


@pytest.mark.parametrize("test, command", [
    (["CMD", "a", "b"], ["a", "b"]), (["CMD-SHELL", "a && b"], ["sh", "-c", "a && b"]), ("a b", ["sh", "-c", "a b"])])
def test_health_checks_become_commands(test, command):
    assert from_compose.probe_command(test) == command


def test_pods_are_made_after_what_they_depend_on_among_those_made():
    assert from_compose.creation_waves(DEFINITIONS, ["client-r5", "db-replica", "db-primary"]) == [
        ["client-r5", "db-primary"], ["db-replica"]]
    # compose.yaml declares no order (Compose starts every container at once): the replica is
    # made after the primary because it names the primary's address
    undeclared = {name: {**d, "depends_on": None} for name, d in DEFINITIONS.items()}
    planned = from_compose.planned_addresses(undeclared, "director", "front", 10)
    assert from_compose.creation_waves(undeclared, ["client-r5", "db-replica", "db-primary"], planned) == [
        ["client-r5", "db-primary"], ["db-replica"]]
    assert from_compose.creation_waves(undeclared, ["client-r5", "db-replica", "db-primary"]) == [
        ["client-r5", "db-replica", "db-primary"]]
    # an address is named whole: 10.213.2.2 is not named by 10.213.2.21
    assert from_compose.names_of({"environment": {"X": "10.213.2.21:3306"}}, {"a": "10.213.2.2", "b": "10.213.2.21"}) == {"b"}
    cyclic = {"a": {"depends_on": ["b"]}, "b": {"depends_on": ["a"]}}
    with pytest.raises(ValueError, match="cycle"):
        from_compose.creation_waves(cyclic, ["a", "b"])


def test_the_planned_addresses_are_the_servers_and_the_vip():
    assert from_compose.planned_addresses(DEFINITIONS, "director", "front", 10) == {
        "db-primary": "10.213.2.21", "db-replica": "10.213.2.22", "vip": "10.213.1.10"}


def test_the_vip_service_targets_named_ports():
    service = vip_service("vip", {"behind": "yes"}, {"web": 80, "mysql": 3306})
    assert service["spec"]["ports"] == [{"name": "mysql", "port": 3306, "targetPort": "mysql"},
                                        {"name": "web", "port": 80, "targetPort": "web"}]


def test_a_pods_status_as_the_lab_reads_it():
    pod = {"status": {"phase": "Running", "podIP": "10.244.0.3",
                      "conditions": [{"type": "Ready", "status": "True"}, {"type": SERVING, "status": "True"}],
                      "containerStatuses": [{"containerID": "containerd://abc", "started": True, "restartCount": 1,
                                             "state": {"running": {}}, "imageID": "sha256:1"}]}}
    summary = pod_status.summary(pod)
    assert summary == {"ip": "10.244.0.3", "phase": "Running", "ready": True, "started": True, "id": "abc",
                       "state": {"running": {}}, "restarts": 1, "image": "sha256:1"}
    assert pod_status.running(summary)
    pending = pod_status.summary({"status": {"phase": "Pending"}})
    assert pending["id"] == "" and not pending["ready"] and not pod_status.running(pending)


def test_running_tasks_from_containerds_list():
    listing = "TASK    PID     STATUS\nabc     4242    RUNNING\ndef     4243    STOPPED\nghi     0       UNKNOWN\n"
    assert running_tasks(listing) == {"abc": 4242}
