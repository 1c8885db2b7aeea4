"""The client programs a run starts in each cell: the probe and sysbench (command lines only)."""
