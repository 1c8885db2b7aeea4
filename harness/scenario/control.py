"""A scenario's `control:` (who changes the director, harness/control/): a name, or a mapping
of one name to that control plane's settings, each checked against the plane's own spec."""
from collections.abc import Mapping, Sequence
from typing import Any

from ..control.base import CONTROL_PLANES, DEFAULT_CONTROL_PLANE
from ..setting import Setting
from .reader import NAME_RE, Reader, ScenarioError
from .setting_reader import read_setting


def read_control(raw: Any) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """(name, ((setting, value), ...)) of the scenario's control plane."""
    given = raw.get("control", DEFAULT_CONTROL_PLANE)
    if isinstance(given, dict):
        if len(given) != 1:
            raise ScenarioError("control: one control plane: `control: NAME` or `control: {NAME: {settings}}`")
        [(name, settings)] = given.items()
    else:
        name, settings = given, {}
    if not isinstance(name, str) or name not in CONTROL_PLANES:
        raise ScenarioError(f"control: must be one of {', '.join(sorted(CONTROL_PLANES))}, not {name!r}")
    spec = CONTROL_PLANES[name].settings_spec
    r = Reader(settings if settings is not None else {}, f"control.{name}", spec)
    read = tuple((key, _read(r, key, spec[key], spec)) for key in spec if key in r.raw)
    problem = CONTROL_PLANES[name].problem(dict(read))
    if problem:
        raise ScenarioError(f"control.{name}: {problem}")
    return name, read


def _read(r: Reader, key: str, setting: Setting, spec: Mapping[str, Setting]) -> Any:
    if setting.kind == "variants":
        return _variants(r, key, setting, spec)
    return read_setting(setting, r.raw[key], r.path(key))


def _variants(r: Reader, key: str, setting: Setting, spec: Mapping[str, Setting]) -> tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]:
    """{name: {setting: value}}: more directors, each its own name and a few settings of its own
    (the setting's maximum: how many; its choices: which settings each may change)."""
    most, keys = setting.maximum or 0, tuple(str(k) for k in setting.choices)
    raw = r.get(key, dict)
    if len(raw) > most:
        raise ScenarioError(f"{r.path(key)}: at most {most:g}, not {len(raw)}")
    variants = []
    for name, overrides in raw.items():
        if not isinstance(name, str) or not NAME_RE.match(name) or len(name) > 20:
            raise ScenarioError(f"{r.path(key)}: {name!r} must be lower-case letters, digits and '-' (at most 20)")
        v = Reader(overrides if overrides is not None else {}, f"{r.path(key)}.{name}", keys)
        variants.append((name, tuple((k, _read(v, k, spec[k], spec)) for k in keys if k in v.raw)))
    return tuple(variants)


def needs_ipvs(name: str, settings: Sequence[tuple[str, Any]] = ()) -> bool:
    """Whether the control plane named, with these settings, programs IPVS itself."""
    return CONTROL_PLANES[name](settings).needs_ipvs


def director_variants(settings: Sequence[tuple[str, Any]]) -> tuple[str, ...]:
    """The names of the director variants these control settings run."""
    return tuple(name for name, _ in dict(settings).get("directors", ()))


def check_lab_settings(name: str, settings: Sequence[tuple[str, Any]], asked: Sequence[tuple[str, str, str]],
                       datapath: str) -> None:
    """The director settings the control plane starts the lab with (an emulated cloud LB's idle
    timeout), against what the scenario asks itself ([(NAME, value, where)]): a conflict is refused,
    as is a silent drop of forgotten flows on a datapath that cannot emulate it."""
    wanted = CONTROL_PLANES[name](settings).lab_settings()
    for key, value, where in asked:
        if key in wanted and wanted[key] != value:
            raise ScenarioError(f"{where}: asks {key}={value}, but control: {name} starts the director "
                                f"with {wanted[key]} (its own setting decides it)")
    if wanted.get("LB_FORGOTTEN_FLOWS") == "drop" and datapath != "nftables":
        raise ScenarioError(f"control: {name} drops a forgotten idle flow's packets without a word: emulated on the "
                            f"nftables datapath only (datapath: nftables, not {datapath})")
