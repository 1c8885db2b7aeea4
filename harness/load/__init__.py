"""The client programs a run starts in each cell: command lines only (their output's parsers
are in harness/measure/)."""
