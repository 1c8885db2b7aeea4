"""After a server's input is cut, the wait until the requests its kernel already took have their
answers out, read from the server's own kernel (ss), so its output is cut after them, not after a
guessed sleep.

A request the kernel acknowledged but the server never answered leaves its client with nothing
unacknowledged: it waits for an answer without retransmitting, which is app_hang's effect, not a
blackhole's. Once the input is cut no new request arrives, so each client connection of the
server settles into one of these, read per socket:
- Recv-Q above 0: the server has not read the request yet (waiting);
- Send-Q above 0: what it sent last is not acknowledged, so no request came after it (answered);
- its last data sent after its last data received, by the kernel's millisecond clocks (answered);
- its last data received after its last data sent (waiting);
- both in the same millisecond: the clocks cannot tell, counted as answered and named (`same_ms`).
Connections from the lab's other servers (replication) are not counted: they carry no requests.
"""
import dataclasses
import time
from collections.abc import Callable, Collection

from ..topology import SERVERS, SERVICE_PORTS, SERVICE_SERVERS
from ..measure.effects import Landing
from .base import FaultsLab, nft_table_script, stamped_nft

ANSWERS_OUT_LIMIT_S = 1.0       # the output is cut by then whatever ss says; the event says so


@dataclasses.dataclass(frozen=True)
class ServerSocket:
    """One established connection of the server, as `ss -tinO` prints it."""
    peer: str                   # the client's address
    recv_q: int
    send_q: int
    last_send_ms: int           # ss's lastsnd: ms since the last data sent (0 when absent)
    last_receive_ms: int        # ss's lastrcv


@dataclasses.dataclass(frozen=True)
class AnswersOut:
    """What the wait saw: how long it took, and the connections still waiting when it ended."""
    waited_s: float
    waiting: int                # connections whose request had no answer out at the cut
    same_ms: int                # connections counted as answered though the clocks could not tell

    def seen(self) -> dict[str, float | int]:
        return {"answers_out_wait_s": round(self.waited_s, 3), "answers_out_limit_s": ANSWERS_OUT_LIMIT_S,
                "unanswered_at_output_cut": self.waiting, "answered_in_same_ms": self.same_ms}


def server_sockets(ss_text: str) -> list[ServerSocket]:
    """Each line of `ss -HtinO state established`: Recv-Q, Send-Q, local, peer, then key:value fields."""
    sockets = []
    for line in ss_text.splitlines():
        words = line.split()
        if len(words) < 4:
            continue
        fields = dict(word.split(":", 1) for word in words[4:] if ":" in word)
        sockets.append(ServerSocket(peer=ipv4_of(words[3].rsplit(":", 1)[0]), recv_q=int(words[0]),
                                    send_q=int(words[1]), last_send_ms=int(fields.get("lastsnd", 0)),
                                    last_receive_ms=int(fields.get("lastrcv", 0))))
    return sockets


def ipv4_of(address: str) -> str:
    """'[::ffff:10.0.0.2]' (an IPv4 client of a server listening on ::) as '10.0.0.2'."""
    address = address.strip("[]")
    return address.removeprefix("::ffff:")


def is_waiting(socket: ServerSocket) -> bool:
    """Its client sent a request the server has not answered (see the module's list)."""
    if socket.recv_q > 0:
        return True
    return socket.send_q == 0 and socket.last_receive_ms < socket.last_send_ms


def is_same_ms(socket: ServerSocket) -> bool:
    return socket.recv_q == 0 and socket.send_q == 0 and socket.last_receive_ms == socket.last_send_ms


def client_sockets(sockets: list[ServerSocket], not_counted: set[str]) -> list[ServerSocket]:
    return [socket for socket in sockets if socket.peer not in not_counted]


def service_port(server: str) -> int:
    return next(SERVICE_PORTS[service] for service, servers in SERVICE_SERVERS.items() if server in servers)


def go_silent(lab: FaultsLab, server: str, table: str) -> Landing:
    """Cut what reaches the server (the death: when that cut landed), then, once its answers are
    out, what it sends too; the Landing carries what the wait saw."""
    before, after = stamped_nft(lab, server, nft_table_script(table, {"input": ["drop"]}))
    answers_out = wait_for_answers_out(lab, server)
    lab.exec(server, ["nft", "-f", "-"], stdin=nft_table_script(table, {"input": ["drop"], "output": ["drop"]}))
    return Landing(before, after - before, answers_out.seen())


def wait_for_answers_out(lab: FaultsLab, server: str) -> AnswersOut:
    """Poll the server's kernel until no client connection waits for an answer (ANSWERS_OUT_LIMIT_S at most)."""
    others = {address for other in SERVERS if other != server and other in lab.services()
              for address in lab.addresses(other)}
    return wait_until_answered(lambda: lab.exec(server, ss_command(service_port(server))).stdout, others)


def ss_command(port: int) -> list[str]:
    """ss's look at a server's established connections on its port."""
    return ["ss", "-HtinO", "state", "established", "sport", "=", f":{port}"]


def wait_until_answered(read_ss: Callable[[], str], not_counted: Collection[str]) -> AnswersOut:
    """Read the server's sockets (read_ss: ss_command's output in its network namespace) until no
    client connection waits for an answer, ANSWERS_OUT_LIMIT_S at most. not_counted: the lab's other
    servers' addresses (replication carries no requests)."""
    start = time.monotonic()
    while True:
        sockets = client_sockets(server_sockets(read_ss()), set(not_counted))
        waiting = sum(map(is_waiting, sockets))
        waited_s = time.monotonic() - start
        if not waiting or waited_s >= ANSWERS_OUT_LIMIT_S:
            return AnswersOut(waited_s, waiting, sum(map(is_same_ms, sockets)))
