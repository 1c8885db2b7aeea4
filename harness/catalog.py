"""Which runner a scenario file is for: the failover runner, or the burst runner when the
file has a `burst:` section (backlog-overflow)."""
from . import scenario as scenario_module
from .burst import spec as burst_spec


def load(target, overrides=None):
    """(kind, parsed scenario, raw definition) of scenarios/<id>.yaml or a YAML path."""
    path = scenario_module.scenario_path(target)
    raw = scenario_module.load_raw(target, overrides)
    source = scenario_module._source(path)
    if isinstance(raw, dict) and "burst" in raw:
        return "burst", burst_spec.parse(raw, source, path.stem), raw
    return "failover", scenario_module.parse(raw, source, path.stem), raw


def runner(kind, parsed, raw, **options):
    if kind == "burst":
        from .burst.run import BurstRun
        return BurstRun(parsed, raw, **options)
    from .runner import Run
    return Run(parsed, raw, **options)
