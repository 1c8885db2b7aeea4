"""pgbouncer (Debian's package) beside a cell's client, in its network namespace: the client connects
to it on loopback, it connects to the VIP. A dead server's packets then vanish on pgbouncer's leg;
the client's leg stays healthy, so the client's own TCP_USER_TIMEOUT or tcp_retries2 never fire on
it. What closes the client's connection is pgbouncer's: its query_timeout (checked by its janitor
three times a second), or its server socket giving up (the namespace's tcp_retries2, or pgbouncer's
own tcp_user_timeout on it), after which it closes the client with "server conn crashed?"."""
import dataclasses
from typing import Any

from ..load.driver_settings import MS, driver_setting
from ..measure import effects
from ..measure.effects import Close, Effect
from ..measure.predict import outstanding_data
from ..setting import Setting
from . import pgbouncer_log
from .base import Closing
from .pooled_cell import PooledCell, PooledScenario

FIRST_PORT = 6432             # cell i of the scenario listens on FIRST_PORT + i (cells share a namespace)
JANITOR_PERIOD_S = 1 / 3      # pgbouncer's full maintenance (janitor.c: USEC / 3), where query_timeout is checked
CONFIG_DIR = "/tmp/blackhole-pool-"


@dataclasses.dataclass(frozen=True)
class Pgbouncer:
    name: str = "pgbouncer"
    protocols: tuple[str, ...] = ("postgres",)
    version_command: tuple[str, ...] = ("pgbouncer", "--version")      # env.json's versions
    settings: dict[str, Setting] = dataclasses.field(default_factory=lambda: {
        "query_timeout": driver_setting(int, 1.0, maximum=86_400, meaning="s a query may run before pgbouncer closes its "
                                                                          "server connection and the client's (0: off)"),
        "tcp_user_timeout": driver_setting(int, MS, meaning="ms: TCP_USER_TIMEOUT on pgbouncer's sockets, the server's "
                                                            "leg among them (0: the kernel's)"),
        "server_connect_timeout": driver_setting(int, 1.0, minimum=1, maximum=86_400,
                                                 meaning="s a connect to the server may take (pgbouncer's default 15)"),
        "server_login_retry": driver_setting(int, 1.0, maximum=86_400,
                                             meaning="s pgbouncer waits after a failed server login (default 15)"),
        "tcp_keepalive": driver_setting(bool, meaning="SO_KEEPALIVE on its sockets (default on; ends idle connections only)"),
    })

    def port(self, scenario: PooledScenario, cell: PooledCell) -> int:
        return FIRST_PORT + [c.name for c in scenario.cells].index(cell.name)

    def config(self, scenario: PooledScenario, cell: PooledCell, vip: str, database_port: int) -> str:
        """pgbouncer.ini for the cell: every client logs in as the lab's account on the VIP."""
        settings = "".join(f"{key} = {int(value) if isinstance(value, bool) else value}\n"
                           for key, value in cell.pool_settings)
        return ("[databases]\n"
                f"* = host={vip} port={database_port} dbname=sbtest user=sbtest password=sbtest\n"
                "[pgbouncer]\n"
                f"listen_addr = 127.0.0.1\nlisten_port = {self.port(scenario, cell)}\nunix_socket_dir =\n"
                "auth_type = any\npool_mode = session\nignore_startup_parameters = extra_float_digits,options\n"
                "log_connections = 1\nlog_disconnections = 1\n" + settings)

    def config_path(self, cell: PooledCell) -> str:
        return f"{CONFIG_DIR}{cell.name}.ini"

    def process_pattern(self, cell: PooledCell) -> str:
        """What `pkill -f` matches to stop the cell's pgbouncer: its own command line."""
        return " ".join(self._argv(cell))

    def _argv(self, cell: PooledCell) -> list[str]:
        """pgbouncer in the foreground as nobody (it refuses root)."""
        return ["pgbouncer", "-u", "nobody", self.config_path(cell)]

    def command(self, scenario: PooledScenario, cell: PooledCell, vip: str, database_port: int,
                netns: str | None = None) -> list[str]:
        """Runs it (_argv), its log on stdout, in the cell's namespace."""
        enter = ["nsenter", f"--net={netns}"] if netns else []
        script = f"printf '%s' \"$1\" > {self.config_path(cell)} && exec {' '.join(enter + self._argv(cell))} 2>&1"
        return ["sh", "-c", script, "pgbouncer", self.config(scenario, cell, vip, database_port)]

    def effect_on(self, effect: Effect, cell: PooledCell) -> Effect:
        """A blackhole (or a proxy's hang) on pgbouncer's server leg is, to the client, an application
        that never answers until one of pgbouncer's limits closes its connection."""
        if effect.kind not in (effects.BLACKHOLE, effects.PARTITION, effects.APP_HANG):
            return effect
        return Effect(effects.APP_HANG, starts_at_s=effect.starts_at_s, starts_by_s=effect.starts_by_s,
                      closes=self.closes(effect, cell))

    def closings(self, log: str) -> list[Closing]:
        return pgbouncer_log.closings(log)

    def version(self, log: str) -> str | None:
        return pgbouncer_log.version(log)

    def closes(self, effect: Effect, cell: PooledCell) -> tuple[Close, ...]:
        settings: dict[str, Any] = dict(cell.pool_settings)
        found: list[Close] = []
        if settings.get("query_timeout"):
            q = settings["query_timeout"]
            found.append(Close(q, q + JANITOR_PERIOD_S, True, f"pgbouncer's query_timeout {q} s"))
        if effect.kind == effects.APP_HANG:      # a proxy further on: its limits close pgbouncer's server leg
            return (*found, *(dataclasses.replace(c, basis=f"{c.basis}, then pgbouncer") for c in effect.closes))
        ut = settings.get("tcp_user_timeout", 0)
        # the prediction does not read its server leg's own RTO (ss has it, under the port pgbouncer's log names): the default's
        leg = outstanding_data(dataclasses.replace(cell, tcp_user_timeout_ms=ut))
        basis = f"pgbouncer's server leg: {leg.basis}"
        if cell.tcp_user_timeout_ms:
            basis += f" (the client's TCP_USER_TIMEOUT {cell.tcp_user_timeout_ms} ms: on loopback, never fires)"
        earliest, _, latest = leg.bounds()
        found.append(Close(earliest, latest, True, basis))
        return tuple(found)


PGBOUNCER = Pgbouncer()
