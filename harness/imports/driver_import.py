"""What an import read of one application's driver, and the two rules every reader of a driver's
settings shares: a setting's value by the client's table, and a near miss of a setting refused."""
import dataclasses
import difflib
import re
from collections.abc import Iterable
from typing import Any

from ..errors import InvalidInput
from ..load.clients import CLIENTS
from ..settings.drivers import setting_value
from ..settings.kinds import SettingsError

PROPERTY = re.compile(r"^([^=:\s]+)\s*(?:[=:]|\s)\s*(.*)$")     # java.util.Properties: key=value, key: value, key value


@dataclasses.dataclass(frozen=True)
class DriverImport:
    source: str
    client: str
    settings: tuple[tuple[str, Any], ...] = ()   # ((setting, value), ...) of the client's table
    cell: tuple[tuple[str, float], ...] = ()     # ((cell key, value), ...) for the lab's probe (PyMySQL)
    not_modelled: tuple[tuple[str, str], ...] = ()   # ((parameter, value), ...)

    def lines(self) -> list[str]:
        out = [f"{self.source}: the client: {self.client} ({CLIENTS[self.client].library})"]
        out += [f"{self.source}: used: {name}={value}" for name, value in self.settings + self.cell]
        out += [f"{self.source}: not modelled: {name}={value}" for name, value in self.not_modelled]
        return out

    def explain_words(self) -> list[str]:
        words = [f"CLIENT={self.client}"] + [f"{name}={text_of(value)}" for name, value in self.settings]
        return words + [f"READ_TIMEOUT_S={value:g}" for name, value in self.cell if name == "read_timeout_s"]


def text_of(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def refuse_near_miss(name: str, value: str, settings: Iterable[str], library: str, source: str) -> None:
    lower = {setting.lower(): setting for setting in settings}
    near = difflib.get_close_matches(name.lower(), list(lower), n=1, cutoff=0.85)
    if near:
        raise InvalidInput(f"{source}: {name}={value}: not a setting of {library}; did you mean {lower[near[0]]}?")


def setting_of(client: str, name: str, text: str, source: str, where: str | int) -> Any:
    """The client's setting read from text; where: the line or the key it came from, for the refusal."""
    try:
        return setting_value(client, name, text)
    except SettingsError as exc:
        raise InvalidInput(f"{source}: {where}: {exc}") from None
