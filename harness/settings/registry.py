"""Every knob a user can give (`make GOAL NAME=value`, or the environment), what it may be, and
which make goals use it. The one table of ranges: run, explain, the matrix and the workshop read
their knobs through it, and a knob given to a goal that does not use it is refused, not dropped.
Ranges a scenario file also has come from the scenario's own tables (sysctl_knobs, clients);
tests/unit/test_settings_registry.py checks the rest against the harness's registries."""
import dataclasses
import difflib
from collections.abc import Sequence

from ..databases import DATABASES
from ..load.clients import CLIENTS, DEFAULT_CLIENT, PROBE_NAMES
from ..measure.sysctl_knobs import SYSCTL_KNOBS
from . import kinds, targets


@dataclasses.dataclass(frozen=True)
class Knob:
    name: str
    parse: kinds.Parse         # kinds.*: (text, name) -> value, or SettingsError
    goals: tuple               # the make goals that use it; EVERY_GOAL: all of them
    meaning: str

    @property
    def describe(self) -> str:
        return self.parse.describe


EVERY_GOAL = ("*",)
RUNS = ("run", "baseline", "check-baseline")
SCENARIO_GOALS = RUNS + ("kernel-matrix", "cluster-check", "setup", "guest-tools", "plan", "plan-check")
PLACE_GOALS = RUNS + ("plan", "replay", "up", "setup", "images", "guest-tools", "test-kernel", "cluster-up", "compare-control-planes")
# The goals that name a Compose project (make clean finds every lab by its labels).
PROJECT_GOALS = RUNS + ("replay", "up", "down", "status")
# The goals that choose a place by LAB (a run's open_place, clean's leftovers): make up, down and
# status work on a Compose lab by KERNEL and never read it.
PLACE_BY_LAB_GOALS = RUNS + ("replay", "clean")
SIZES_GOALS = ("bench-scale", "bench-namespaces", "bench-cluster-scale")

RETRIES2 = SYSCTL_KNOBS["tcp_retries2"]
# The keys KEEPALIVED's words may set (control.keepalived's settings_spec less `directors`).
KEEPALIVED_WORDS = ("delay_loop", "connect_timeout", "retry", "delay_before_retry", "check", "inhibit_on_failure",
                    "expire_nodest_conn", "vrrp", "advert_int", "preempt", "virtual_services")


# The keys HAPROXY's words may set (control.haproxy's settings_spec less `directors`).
HAPROXY_WORDS = ("check", "inter", "fastinter", "downinter", "fall", "rise", "timeout_connect", "retries",
                 "timeout_client", "timeout_server", "timeout_tunnel", "timeout_check", "shutdown_sessions",
                 "shutdown_backup_sessions", "clitcpka", "srvtcpka", "nolinger", "redispatch", "srvtcpka_idle",
                 "srvtcpka_intvl", "srvtcpka_cnt", "tcp_ut_client", "tcp_ut_server", "server_tcp_retries2")


def control_words(plane: str, keys: Sequence[str]) -> kinds.Parse:
    """KEEPALIVED="delay_loop=2 retry=1": each word SETTING=VALUE of a setting the plane takes (the
    values are checked with the scenario, as if its file said them)."""
    def words(text: str, name: str) -> str:
        for word in text.split():
            key, sep, _ = word.partition("=")
            if not sep or key not in keys:
                near = difflib.get_close_matches(key, keys, n=1)
                raise kinds.SettingsError(f"{name}: {word!r} is not SETTING=VALUE with SETTING one of "
                                          f"{', '.join(keys)}" + (f"; did you mean {near[0]}?" if near else ""))
        return text
    return kinds.described(words, f"{plane}'s SETTING=VALUE words")


keepalived_words = control_words("keepalived", KEEPALIVED_WORDS)
haproxy_words = control_words("haproxy", HAPROXY_WORDS)


# Scenario overrides: harness/scenario/files.py OVERRIDES applies each to the scenario's YAML.
OVERRIDE_GOALS = RUNS + ("kernel-matrix", "plan", "plan-check", "cluster-check")
OVERRIDES = (
    Knob("TCP_RETRIES2", kinds.whole(RETRIES2.minimum, RETRIES2.maximum), OVERRIDE_GOALS + ("explain",),
         "net.ipv4.tcp_retries2 of every client cell (the kernel's default 15)"),
    Knob("LINK_DELAY_MS", kinds.number(0, 10_000, " ms"), OVERRIDE_GOALS, "delay on every client's link (netem)"),
    Knob("WARMUP_S", kinds.duration(7200), OVERRIDE_GOALS, "load before the first fault"),
    Knob("OBSERVE_S", kinds.duration(7200), OVERRIDE_GOALS, "how long to watch after the fault"),
    Knob("LB_DATAPATH", kinds.choice("auto", "ipvs", "nftables"), OVERRIDE_GOALS + ("up", "down", "status", "images"),
         "the director's datapath"),
    Knob("NAMESPACES", kinds.choice("container", "netns"), OVERRIDE_GOALS + ("bench-matrix",),
         "a client container per cell, or one container with a namespace per cell"),
    Knob("KEEPALIVED", keepalived_words, OVERRIDE_GOALS, "keepalived's settings as words: \"delay_loop=2 retry=1\""),
    Knob("HAPROXY", haproxy_words, OVERRIDE_GOALS + ("explain",),
         "HAProxy's settings as words: \"inter=2 fall=3 shutdown_sessions=true timeout_server=10\""),
    Knob("CONNECT_PROBE", kinds.whole(0, 1000), OVERRIDE_GOALS, "connects per second through the VIP (0: none)"),
    Knob("WRITER", kinds.number(0, 1000, "/s"), OVERRIDE_GOALS, "acknowledged writes per second (0: none)"),
    Knob("DB_ENGINE", kinds.choice(*sorted(DATABASES)), OVERRIDE_GOALS + ("up", "explain"), "what the database servers run"),
    Knob("REPLICATION", kinds.choice(*dict.fromkeys(m for e in DATABASES.values() for m in e.replication_modes)),
         OVERRIDE_GOALS, "the replica's replication mode (the engine's: semi-sync on MySQL, sync on PostgreSQL)"),
    Knob("SEMI_SYNC_TIMEOUT_MS", kinds.whole(100, 600_000), OVERRIDE_GOALS, "semi-sync's wait for the replica"),
)


PLACES = (
    Knob("scenario", targets.scenario, SCENARIO_GOALS, "the scenario to run"),
    Knob("KERNEL", targets.kernel, PLACE_GOALS, "where the lab runs: host, or a guest booting that Debian kernel"),
    Knob("KERNELS", targets.kernels, ("kernel-matrix", "bench-guest", "sysctl-dumps"), "the kernels a matrix runs on"),
    Knob("LAB", kinds.choice("compose", "kubernetes"), PLACE_BY_LAB_GOALS, "Compose (host or guest), or the kept cluster"),
    Knob("KUBECONFIG", kinds.existing_file, PLACE_BY_LAB_GOALS + ("cluster-check", "bench-node-agent"),
         "a cluster's kubeconfig (make cluster-up writes its own)"),
    Knob("KEEP_LAB", kinds.flag, RUNS, "leave the lab up after a run that ended (host only; an interrupted one goes)"),
    Knob("LAB_PROJECT", kinds.anything, PROJECT_GOALS + ("kernel-matrix", "compare-control-planes"),
         "the Compose project's name"),
    Knob("LB_IDLE_TIMEOUT", kinds.whole(1, 86_400), RUNS + ("up",), "the director's flow idle timeout, s"),
    Knob("LAB_FRONT_PREFIX", kinds.anything, RUNS + ("up",), "the clients' /24, e.g. 10.213.1"),
    Knob("LAB_BACK_PREFIX", kinds.anything, RUNS + ("up",), "the servers' /24, e.g. 10.213.2"),
    Knob("BASELINE", kinds.existing_file, ("check-baseline", "baseline"), "the baseline file"),
    Knob("ALLOWED_SYSCTLS", kinds.words, ("cluster-up",), "the sysctls the kubelet allows pods"),
)

HZ_VALUES = ("100", "250", "300", "1000")
EXPLAIN_ONLY = ("explain",)
EXPLAIN = (
    Knob("FROM", kinds.existing_dir, ("explain", "replay", "plan"),
         "an incident's folder: sysctl.txt (sysctl -a), driver.url, keepalived.conf, incident.yaml"),
    Knob("FULL", kinds.flag, ("replay", "plan"), "a replay watches until your own cell has ended too (1), not only "
         "until every cure the model ranks ahead of it has"),
    Knob("K", kinds.words, EXPLAIN_ONLY, "explain's knobs as words: K=\"TCP_RETRIES2=8 CLIENT=jdbc socketTimeout=3000\""),
    Knob("TCP_USER_TIMEOUT_MS", kinds.whole(0, 3_600_000), EXPLAIN_ONLY, "TCP_USER_TIMEOUT, ms (0: off)"),
    Knob("READ_TIMEOUT_S", kinds.duration(3600), EXPLAIN_ONLY, "the application's read timeout, s (0: none)"),
    Knob("KEEPALIVE", kinds.keepalive, EXPLAIN_ONLY, "keepalive IDLE/INTERVAL/PROBES, s, of an idle connection"),
    Knob("RTT_MS", kinds.number(0, 10_000, " ms"), EXPLAIN_ONLY, "the path's round-trip time"),
    Knob("HZ", kinds.choice(*HZ_VALUES), EXPLAIN_ONLY, "the kernel's CONFIG_HZ"),
    Knob("CLIENT", kinds.choice(*CLIENTS, *PROBE_NAMES), EXPLAIN_ONLY,
         f"the client ({DEFAULT_CLIENT} by default; {', '.join(PROBE_NAMES)}: the lab's probe on PostgreSQL); its "
         "settings follow by name: CLIENT=jdbc socketTimeout=3000"),
    Knob("DELAY_LOOP", kinds.number(0.1, 3600, " s"), EXPLAIN_ONLY, "keepalived: s between checks (its default 60)"),
    Knob("CONNECT_TIMEOUT", kinds.number(0.1, 300, " s"), EXPLAIN_ONLY, "keepalived: a check's connect limit (5)"),
    Knob("RETRY", kinds.whole(0, 100), EXPLAIN_ONLY, "keepalived: failed attempts after the first (1)"),
    Knob("DELAY_BEFORE_RETRY", kinds.number(0, 600, " s"), EXPLAIN_ONLY, "keepalived: s between attempts (1)"),
    Knob("EXPIRE_NODEST_CONN", kinds.choice("0", "1"), EXPLAIN_ONLY, "the director's net.ipv4.vs.expire_nodest_conn"),
    Knob("KUBE_PROXY", kinds.choice("ipvs", "nftables"), EXPLAIN_ONLY, "kube-proxy's mode in front"),
    Knob("NODE_GRACE_S", kinds.number(0, 3600, " s"), EXPLAIN_ONLY, "kube-proxy: the node-monitor grace period"),
    Knob("DNS_MOVED_AFTER_S", kinds.number(0, 3600, " s"), EXPLAIN_ONLY,
         "the clients connect to a name, not a VIP: s from the death to the name re-pointed at the promoted server"),
    Knob("NAME_CACHE", kinds.choice("none", "nscd"), EXPLAIN_ONLY, "with DNS_MOVED_AFTER_S: a caching daemon on the "
         "clients' host, which every getaddrinfo asks first (nscd: glibc's; with DNS_TTL_S)"),
    Knob("DNS_TTL_S", kinds.whole(1, 86_400), EXPLAIN_ONLY, "with NAME_CACHE=nscd: the name's record's TTL, s (what "
         "nscd keeps an answer by)"),
    Knob("HOST_LIST", kinds.flag, EXPLAIN_ONLY, "the client lists both servers by their own names, the dead primary "
         "first (jdbc:mysql://primary,replica/, libpq's host=primary,replica): 1; with PROMOTED_AFTER_S"),
    Knob("PROMOTED_AFTER_S", kinds.number(0, 3600, " s"), EXPLAIN_ONLY,
         "with HOST_LIST=1: s from the death to the replica's promotion (it takes writes from then on)"),
)

GOAL_ARGUMENTS = (
    Knob("RUN", kinds.existing_dir, ("report", "screenshots"), "a run directory to re-render, or to look at in Chromium"),
    Knob("RUNS", kinds.words, ("compare", "compare-control-planes", "soak-interrupt"),
         "compare: [label=]dir ...; soak-interrupt: how many runs"),
    Knob("SEED", kinds.whole(0, 2**31), ("soak-interrupt",), "the random seed of the interruptions"),
    Knob("N", targets.exercise, ("exercise", "hand-in", "collect"), "the exercise's number"),
    Knob("PAUSE", kinds.flag, ("exercise",), "wait for Enter between the exercise's parts"),
    Knob("PREDICT", kinds.words, ("exercise",), "your predictions, kept with the run: \"cell=seconds cell=never ...\""),
    Knob("NAME", kinds.anything, ("exercise", "hand-in"), "a participant's name, as the room's page shows it"),
    Knob("ROOM", kinds.existing_dir, ("hand-in", "collect"), "the room's folder every laptop reaches (a share)"),
    Knob("EXERCISES", kinds.whole_list(1, 99), ("workshop-check", "workshop"), "the exercises to check (every one)"),
    Knob("ALL", kinds.flag, ("clean",), "every lab, kept ones too"),
    Knob("SIZES", kinds.whole_list(1, 400), SIZES_GOALS, "the grid sizes"),
    Knob("ROUNDS", kinds.whole(1, 20), ("bench-connect-probe",), "rounds of the benchmark"),
    Knob("COMMANDS", kinds.whole(1, 1000), ("bench-node-agent",), "node commands of the benchmark"),
    Knob("TEST_WORKERS", kinds.whole(1, 16), ("test", "test-host", "bench-test"), "pytest workers of the host part"),
    Knob("TEST_GUEST_CPUS", kinds.whole(1, 64), ("test", "test-guest", "bench-test"), "vCPUs of the guest part's guests"),
)

MACHINE = (
    Knob("PYTHON", kinds.anything, EVERY_GOAL, "the Python (>= 3.11) the venv is made with"),
    Knob("GUEST_CPUS", kinds.whole(1, 64), EVERY_GOAL, "a guest's vCPUs"),
    Knob("GUEST_KERNEL_ARGS", kinds.words, EVERY_GOAL, "more words on a guest kernel's command line"),
    Knob("GUEST_SNAPSHOTS", kinds.flag, EVERY_GOAL, "save and resume guests (1)"),
    Knob("BLACKHOLE_RESULTS", kinds.anything, EVERY_GOAL, "where runs are written (results/)"),
    Knob("BLACKHOLE_CACHE", kinds.anything, EVERY_GOAL, "kernels, disks, debs and the version lines of images (~/.cache/blackhole-lab)"),
    Knob("BLACKHOLE_STATE", kinds.anything, EVERY_GOAL, "the labs' owner records (/tmp/blackhole-lab/labs)"),
    Knob("BLACKHOLE_ACCEL", kinds.choice("tcg", "kvm"), EVERY_GOAL, "QEMU's accelerator (tcg here)"),
    Knob("BLACKHOLE_NODE", kinds.anything, EVERY_GOAL, "the cluster node the agent runs on"),
    Knob("BLACKHOLE_TEST_KERNEL", targets.kernel, EVERY_GOAL, "the kernel of the guest tests"),
)

KNOBS = {knob.name: knob for knob in OVERRIDES + PLACES + EXPLAIN + GOAL_ARGUMENTS + MACHINE}


def used_by(knob: Knob, goal: str) -> bool:
    return knob.goals == EVERY_GOAL or goal in knob.goals


def goals_of(knob: Knob) -> str:
    return "every goal" if knob.goals == EVERY_GOAL else ", ".join(f"make {g}" for g in knob.goals)
