"""Pure functions over what a run wrote to disk: no Docker, no clocks."""
from . import burst, summary


def summarize(run):
    """summary.json's content for a run directory (store.RunDir), whatever its kind."""
    return (burst if run.scenario.kind == "burst" else summary).summarize(run)
