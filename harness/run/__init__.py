"""Running a scenario against a lab: the failover runner, the burst runner, the live view.
A runner returns its store.RunDir; reports are drawn from that directory afterwards."""
from .burst import BurstRun
from .failover import FailoverRun


def runner_for(scenario, raw_definition, **options):
    """The runner of a parsed scenario's kind ('failover' or 'burst')."""
    return (BurstRun if scenario.kind == "burst" else FailoverRun)(scenario, raw_definition, **options)


__all__ = ["BurstRun", "FailoverRun", "runner_for"]
