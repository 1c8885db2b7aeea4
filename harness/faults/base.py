"""What every fault is: params it takes, inject(), and an idempotent recover()."""
import dataclasses

# Which process is "the server" in each server's container.
SERVER_PROCESS = {"mysql-primary": "mariadbd", "mysql-replica": "mariadbd", "web-a": "nginx", "web-b": "nginx"}


@dataclasses.dataclass(frozen=True)
class Param:
    kind: str                  # server | node | choice | duration
    default: object = None     # None: required
    choices: tuple = ()
    help: str = ""


class Fault:
    """Subclasses set name, params and implement inject(); recover() must be safe to repeat."""
    name = ""
    params: dict = {}
    reversible = True          # False: a reconfiguration (swap, promotion); nothing to undo

    def __init__(self, lab, **params):
        self.lab = lab
        self.p = params

    def inject(self):
        """Do it. May return {"landed_t": t, "uncertainty_s": u}: it took effect between t and
        t + u, when that is known more closely than the step's start and duration (the
        director reports when its rules landed)."""
        raise NotImplementedError

    def recover(self):
        pass


def nft_table_script(table, chains):
    """An nft script that (re)creates `table` (inet) with the given {hook: [rules]} chains."""
    lines = [f"table inet {table} {{}}", f"delete table inet {table}", f"table inet {table} {{"]
    for hook, rules in chains.items():
        lines += [f"  chain {hook}_cut {{", f"    type filter hook {hook} priority -10; policy accept;"]
        lines += [f"    {rule}" for rule in rules] + ["  }"]
    return "\n".join(lines + ["}"]) + "\n"


def delete_table(lab, node, table):
    lab.exec(node, ["nft", "delete", "table", "inet", table], check=False)
