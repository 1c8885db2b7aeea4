"""Reports: read only what a run wrote to disk."""
