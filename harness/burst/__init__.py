"""backlog-overflow: bursts of new connections against slow upstreams with small or large
listen backlogs (seeds 001 and 004). A scenario with a `burst:` section runs here instead
of the failover runner."""
