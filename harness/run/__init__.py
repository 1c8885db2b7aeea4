"""Running a scenario against a lab: the failover runner (failover.py), the burst runner
(burst.py), the live view. A runner returns its store.RunDir; reports are drawn from that
directory afterwards (harness/pipeline.py puts the two together)."""
