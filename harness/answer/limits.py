"""Every limit armed against a busy client's wait after a silent death, each with its own window
(seconds after the death), from the same pieces the composed prediction (measure/predict.py) is
made of: the client's kernel (tcp_retries2 or TCP_USER_TIMEOUT), the driver's read timeout, a
director that resets the flows of a server its control plane took out, a proxy's own limits.
A setting whose 0 means "no limit" arms nothing; a socket option a program never sees (a preloaded
TCP_USER_TIMEOUT in a Go program) arms nothing either, and says so."""
import dataclasses

from ..databases import DATABASES
from ..load.clients import CLIENTS, DEFAULT_CLIENT
from ..measure import predict
from ..measure.effects import Effect
from .question import Question

KERNEL, DRIVER, DIRECTOR, PROXY = "the client's kernel", "the application", "the director", "the proxy"
MONITOR = "the driver's host monitor"


@dataclasses.dataclass(frozen=True)
class Limit:
    name: str                 # the setting, as its owner names it: "tcp_retries2=15", "socketTimeout=3000"
    whose: str                # KERNEL, DRIVER, DIRECTOR or PROXY
    window: predict.Window    # seconds after the death
    told: str                 # what the application is told when it fires
    otherwise: "Limit | None" = None   # what ends the wait instead when this one may not fire (a host monitor
                                       # whose checks may reach the live server)


def fires_at_s(limit: Limit) -> float:
    """When a limit armed is expected to fire, seconds after the death (each armed one has a time)."""
    if limit.window.expected_s is None:
        raise ValueError(f"{limit.name}: armed, yet its window says it never fires")
    return limit.window.expected_s


def kernel_limit(question: Question) -> Limit:
    """The client kernel's own limit on a request nothing answers, or None through a proxy (it ACKs
    what the client sends, so nothing of the client's stays unacknowledged)."""
    cell = question.cell
    if not cell.socket_options_reach_kernel:
        cell = dataclasses.replace(cell, tcp_user_timeout_ms=0, keepalive=())
    window = predict.outstanding_data(cell, question.rto0_s, question.hz)
    name = (f"TCP_USER_TIMEOUT {cell.tcp_user_timeout_ms} ms" if cell.tcp_user_timeout_ms
            else f"tcp_retries2={cell.knob('tcp_retries2')}")
    return Limit(name, KERNEL, window, f"ETIMEDOUT ({DATABASES[question.engine].kernel_gave_up})")


def driver_limit(question: Question) -> Limit | None:
    """The application's own read timeout, where one is set (and its 0 is not "none")."""
    cell = question.cell
    if not cell.read_timeout_s:
        return None
    client = CLIENTS[cell.client]
    name = f"read timeout {cell.read_timeout_s:g} s"
    if client.read_timeout and client.read_timeout in dict(cell.client_settings):
        name = f"{client.read_timeout}={dict(cell.client_settings)[client.read_timeout]}"
    elif cell.client == DEFAULT_CLIENT:
        name = f"read_timeout={cell.read_timeout_s:g}"
    window = predict.Window(cell.read_timeout_s, cell.read_timeout_s, cell.read_timeout_s + predict.APP_TIMER_LATE_S,
                            f"application read timeout {cell.read_timeout_s:g} s")
    return Limit(name, DRIVER, window, f"{client.library}'s read timeout")


def director_limits(question: Question, effect: Effect) -> list[Limit]:
    """What the control plane's change does to the flow by its model: a reset from the removal on
    (keepalived with expire_nodest_conn=1, a cloud LB that resets), or a proxy's closes."""
    found: list[Limit] = []
    if effect.reset_at_s is not None:
        reset_by = effect.reset_by_s if effect.reset_by_s is not None else effect.reset_at_s
        window = predict.reset_window(effect.reset_at_s, reset_by, 0.0, 0.0, question.rto0_s, question.hz)
        found.append(Limit(f"{question.plane} takes the server out and the director resets the flow", DIRECTOR, window,
                           "ECONNRESET"))
    for close in effect.closes:
        found.append(Limit(close.basis, PROXY, predict.close_window(close, 0.0, 0.0),
                           "the proxy closed the connection"))
    return found


def armed(question: Question, effect: Effect, proxies: bool) -> tuple[Limit, ...]:
    """[Limit] of everything that may end a busy client's wait, the first expected first."""
    found = [] if proxies else [kernel_limit(question)]
    found += [limit for limit in [driver_limit(question)] if limit]
    found += director_limits(question, effect)
    return tuple(sorted(found, key=fires_at_s))
