"""blackhole-lab harness: brings the lab up, drives faults and load, measures recovery."""
