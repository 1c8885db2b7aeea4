"""HAProxy's own account of a run, from its log (`docker logs --timestamps` of a director running
it: `log stdout`, `option tcplog`, `option log-health-checks`) and its runtime API's `show servers
state` as the director table sampler wrote it (blocks headed '@ <unix time>')."""
import dataclasses
import datetime
import re
from collections.abc import Iterator

from .health_checks import stamp
from .sample_blocks import blocks

# "Server mysql/primary is DOWN, reason: Layer4 timeout, check duration: 2001ms. 0 active and 1 backup ..."
# "Server mysql/primary is going DOWN for maintenance. ..." and "... is UP/READY (leaving forced maintenance)."
STATE_RE = re.compile(r"^(?:Backup )?Server (?P<backend>[\w.-]+)/(?P<server>[\w.-]+) is (?:going )?(?P<state>DOWN|UP)\b"
                      r"(?P<maintenance>[^.]*maintenance)?(?:, reason: (?P<reason>[^,]+))?")
MAINTENANCE = "maintenance (an operator's command)"
# option log-health-checks: "Health check for server mysql/primary failed, reason: Layer4 timeout, ..."
CHECK_RE = re.compile(r"^Health check for (?:backup )?server (?P<backend>[\w.-]+)/(?P<server>[\w.-]+) "
                      r"(?P<result>succeeded|failed), reason: (?P<reason>[^,]+)")
# tcplog: "10.213.1.20:43008 [29/Nov/2026:05:14:15.002] mysql mysql/primary 1/0/15164 250 D- 2/1/0/0/0 0/0"
SESSION_RE = re.compile(r"^(?:\S+ )?(?P<client>[\d.]+):(?P<port>\d+) \[(?P<accept>[^\]]+)\] (?P<frontend>\S+) "
                        r"(?P<backend>[\w.-]+)/(?P<server>\S+) (?P<tw>-?\d+)/(?P<tc>-?\d+)/(?P<tt>\+?\d+) "
                        r"(?P<bytes>\+?\d+) (?P<term>\S{2}) ")
UP_STATE = 2               # srv_op_state in `show servers state`: 0 stopped, 1 starting, 2 running, 3 stopping


@dataclasses.dataclass(frozen=True)
class StateChange:
    t: float                   # Docker's stamp of the line
    backend: str
    server: str
    state: str                 # 'DOWN' or 'UP'
    reason: str


@dataclasses.dataclass(frozen=True)
class Session:
    client: str                # 'address:port' of the client's leg
    backend: str
    server: str
    accepted_t: float          # HAProxy's own clock (unix time, ms)
    ended_t: float             # accepted + its total time Tt, on HAProxy's clock: it lagged 0.1 s
                               # on a busy machine, so a test times an end by the wire's FIN/RST
    termination: str           # 'D-' (server marked down: shutdown-sessions), 'sD' (timeout server), 'SD', '--'


def state_changes(text: str) -> list[StateChange]:
    """[StateChange] in the log's order, each with the reason of the check that decided it (its own
    line's, or the last check line of that server's). HAProxy writes each to its log and to stderr
    ('[WARNING]  (1) : Server ...'): the log's copy is read."""
    found: list[StateChange] = []
    last_check: dict[tuple[str, str], str] = {}
    for line in text.splitlines():
        t = stamp(line)
        body = line.split(" ", 1)[1] if t is not None else line
        check, m = CHECK_RE.match(body), STATE_RE.match(body)
        if check:
            last_check[(check["backend"], check["server"])] = check["reason"].strip()
        if t is None or not m:
            continue
        reason = MAINTENANCE if m["maintenance"] else (m["reason"] or last_check.get((m["backend"], m["server"]), ""))
        reason = reason.strip()
        found.append(StateChange(t, m["backend"], m["server"], m["state"], reason))
    return found


def _haproxy_time(text: str) -> float:
    """'29/Nov/2026:05:14:15.002' (HAProxy's local time: UTC in the lab's containers) -> unix time."""
    moment = datetime.datetime.strptime(text, "%d/%b/%Y:%H:%M:%S.%f")
    return moment.replace(tzinfo=datetime.timezone.utc).timestamp()


def sessions(text: str) -> list[Session]:
    """[Session] each tcplog line: one per proxied connection, written when it ended."""
    found = []
    for line in text.splitlines():
        body = line.split(" ", 1)[1] if stamp(line) is not None else line
        m = SESSION_RE.match(body)
        if m:
            accepted = _haproxy_time(m["accept"])
            found.append(Session(f"{m['client']}:{m['port']}", m["backend"], m["server"], accepted,
                                 round(accepted + int(m["tt"].lstrip("+")) / 1000, 3), m["term"]))
    return found


def _rows(text: str) -> Iterator[dict[str, str]]:
    """Each server's row of a `show servers state`, as {column: value}."""
    columns = None
    for line in text.splitlines():
        words = line.split()
        if words[:1] == ["#"]:
            columns = words[1:]
        elif columns and len(words) >= len(columns) and "srv_addr" in columns:
            yield dict(zip(columns, words))


def _endpoint(row: dict[str, str]) -> str:
    return f"{row['srv_addr']}:{row.get('srv_port', '0')}"


def parse_state(text: str) -> dict[str, dict[str, int]]:
    """{backend: {server address:port: 1 running, 0 not}} of one `show servers state`."""
    table: dict[str, dict[str, int]] = {}
    for row in _rows(text):
        table.setdefault(row["be_name"], {})[_endpoint(row)] = int(row["srv_op_state"] == str(UP_STATE))
    return table


def server_endpoints(text: str) -> dict[tuple[str, str], str]:
    """{(backend, server name): address:port} from every sample's rows."""
    return {(row["be_name"], row["srv_name"]): _endpoint(row) for row in _rows(text)}


def parse_samples(text: str) -> list[tuple[float, dict[str, dict[str, int]]]]:
    """[(t, {backend: {server: 1 or 0}}), ...], as director_table.parse_samples gives IPVS's."""
    return blocks(text, parse_state)
