"""A driver's own settings given by name (CLIENT=jdbc socketTimeout=3000), validated against the
client's table in load/clients.py: the same table a scenario cell's `jdbc: {...}` is read with."""
import re
from collections.abc import Iterable

from ..load.clients import CLIENTS
from ..setting import go_duration_s
from .kinds import SettingsError, _shown


def clients_with(name: str) -> list[str]:
    return [client for client, spec in CLIENTS.items() if name in spec.settings]


def every_setting_name() -> list[str]:
    return sorted({name for spec in CLIENTS.values() for name in spec.settings})


def setting_value(client: str, name: str, text: str) -> bool | int | str:
    """The value of one of `client`'s settings, or SettingsError saying what it takes."""
    spec = CLIENTS[client].settings
    if name not in spec:
        others = clients_with(name)
        if others:
            raise SettingsError(f"{name} is a setting of {', '.join(others)}, not of {client}: give CLIENT="
                                f"{others[0]}")
        known = ", ".join(spec) or "none"
        raise SettingsError(f"{name}: not a setting of {client} (its settings: {known})")
    setting = spec[name]
    value: bool | int | str | None
    if setting.kind == "bool":
        value = {"true": True, "false": False}.get(text.lower())
        wanted = "true or false"
    elif setting.kind == "int":
        value = int(text) if re.fullmatch(r"-?[0-9]+", text.strip()) else None
        low, high = setting.minimum, setting.maximum      # a driver's int has both (driver_setting)
        wanted = f"a whole number, {low} to {high}"
        if value is not None and (low is not None and value < low or high is not None and value > high):
            value = None
    elif setting.choices:
        value = text if text in setting.choices else None
        wanted = "one of " + ", ".join(map(str, setting.choices))
    else:
        value = text if go_duration_s(text) is not None else None
        wanted = "a duration like 2s or 1500ms"
    if value is None:
        raise SettingsError(f"{name}={_shown(text)}: {client}'s {name} takes {wanted}")
    return value


def settings_of(client: str, pairs: Iterable[tuple[str, str]]) -> tuple[tuple[str, bool | int | str], ...]:
    """((name, value), ...) of (name, text) pairs for `client`."""
    if client not in CLIENTS:
        raise SettingsError(f"CLIENT={_shown(client)}: must be one of {', '.join(CLIENTS)}")
    return tuple((name, setting_value(client, name, text)) for name, text in pairs)
