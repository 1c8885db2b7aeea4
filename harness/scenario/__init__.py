"""scenarios/<id>.yaml -> validated, frozen objects. No side effects.

Every error names the file and the field, e.g.
  scenarios/x.yaml: steps[1].nodest: must be one of drop, reset, not 'boom'
"""
from .burst import BurstScenario
from .files import (OVERRIDES, SCENARIO_DIR, available, describe_all, load, load_raw, of_run, parse_definition,
                    scenario_path, source_name)
from .knobs import KERNEL_DEFAULTS, SYSCTL_KNOBS
from .model import Cell, Scenario, Step, client_service
from .parser import parse
from .reader import ScenarioError, parse_duration

__all__ = ["BurstScenario", "Cell", "KERNEL_DEFAULTS", "OVERRIDES", "SCENARIO_DIR", "SYSCTL_KNOBS", "Scenario",
           "ScenarioError", "Step", "available", "client_service", "describe_all", "load", "load_raw", "of_run", "parse",
           "parse_definition", "parse_duration", "scenario_path", "source_name"]
