"""Pure functions over what a run wrote to disk: no Docker, no clocks."""
