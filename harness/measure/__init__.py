"""Pure functions over what a run wrote to disk: parsers, the kernel model, recovery; no Docker,
no clocks. harness/signals/ puts them together into a run's summary."""
