"""A cell's client when it is not the lab's probe: a zoo program (images/client/zoo/) holding its
connection through a real driver, writing the probe's JSON lines. libsockopts is preloaded with
SOCKOPT_VERBOSE, so the log also says, per socket, which options the kernel took (no line: the
program's sockets never went through libc)."""
from typing import Any

from .clients import CLIENTS
from .probe import SOCKOPTS_LIBRARY
from .specs import LoadedCell, LoadedScenario

DATABASE_PORT = 3306           # the lab's database port, whatever the engine


def setting_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def command(scenario: LoadedScenario, cell: LoadedCell, host: str, port: int | None, duration_s: float,
            gate: tuple[str, float] | tuple[()] = ()) -> list[str]:
    """The cell's zoo program against host:port (port None: the database's). gate=(file, limit_s):
    a client that starts ahead (Client.starts_ahead) waits, its start-up done, until the file
    exists, at most limit_s; its duration counts from then."""
    program = CLIENTS[cell.client].program
    if program is None:
        raise ValueError(f"client {cell.client} is the lab's own probe: it has no zoo program")
    zoo_env = [f"ZOO_GATE={gate[0]}", f"ZOO_GATE_LIMIT_S={gate[1]:.0f}"] if gate and CLIENTS[cell.client].starts_ahead else []
    if CLIENTS[cell.client].stops_on_eof:
        zoo_env.append("ZOO_STOP_ON_EOF=1")
    client = CLIENTS[cell.client]
    jvm = [f"{key}={setting_text(value)}" for key, value in cell.client_settings if client.settings[key].jvm_security]
    if jvm:
        zoo_env.append(f"ZOO_JAVA_SECURITY={' '.join(jvm)}")
    settings = [f"{key}={setting_text(value)}" for key, value in cell.client_settings
                if not client.settings[key].jvm_security]
    if cell.client == "sysbench":           # the tables sysbench prepared (load.sysbench)
        if scenario.sysbench is None:
            raise ValueError(f"cell {cell.name}: a sysbench client needs the scenario's sysbench load")
        settings = [f"tables={scenario.sysbench.tables}", f"table_size={scenario.sysbench.table_size}"]
    return ["env", f"LD_PRELOAD={SOCKOPTS_LIBRARY}", "SOCKOPT_VERBOSE=1", f"LAB_DB_USER={cell.database_user}", *zoo_env,
            *(f"{k}={v}" for k, v in cell.socket_env().items()),
            "sh", "-c", 'exec "$@" 2>&1', program, program, host, str(port or DATABASE_PORT),
            f"{scenario.probe.interval_ms:g}", f"{duration_s:.0f}", *settings]
