"""The environment a test's own `make` runs in: the test's, less what the `make test` above it
passes down (MAKEFLAGS carries that make's command-line variables, which the child would take as
given to it, and its edge check would refuse those the child's goal does not use)."""
import os

PARENT_MAKE = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "GNUMAKEFLAGS")


def environment(**extra):
    return {**{k: v for k, v in os.environ.items() if k not in PARENT_MAKE}, **extra}
