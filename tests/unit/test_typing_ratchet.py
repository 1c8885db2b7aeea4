"""mypy.ini turns no checking off for any module of the harness: check_untyped_defs holds everywhere
(its list of exempt modules, 53 when made on 2026-12-04, was emptied on 2026-12-05), and no
section ignores errors. Only third-party modules without type information may be ignored on import.
make lint's mypy run is what proves every module clean."""
import configparser
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LOOSENING = {"check_untyped_defs": "False", "ignore_errors": "True", "follow_imports": "skip",
             "disallow_untyped_defs": "False"}


def sections():
    config = configparser.ConfigParser()
    config.read(REPO / "mypy.ini")
    return config


def test_no_module_of_the_harness_is_checked_less():
    config = sections()
    assert config["mypy"].get("check_untyped_defs") == "True" and config["mypy"].get("files") == "harness"
    loosened = {(name, key) for name in config.sections() for key, value in LOOSENING.items()
                if config[name].get(key) == value}
    assert not loosened, f"mypy.ini loosens {sorted(loosened)}"


def test_only_third_party_modules_are_ignored_on_import():
    config = sections()
    ignored = [name.removeprefix("mypy-") for name in config.sections()
               if config[name].get("ignore_missing_imports") == "True"]
    assert ignored and not [name for name in ignored if name.startswith("harness")], ignored


# 2026-12-05: harness/director's 15 functions annotated, then harness/faults' 130 (its lab a protocol,
# FaultsLab), then harness/control's 150 (PlanesLab), store.py's 37, harness/databases' 28 (RunsCommands:
# lab_commands.py, the one face of a command run in the lab); later that day (stop 76) the report, the
# scenario's parser, a run's phases, the command line, the answers, the replay, the workshop, the importers,
# the settings, the benchmarks, the top-level modules and the lab's own core (base, compose, engine, nodes)
ANNOTATED_WHEN_MADE = {"harness.director.*", "harness.faults.*", "harness.control.*", "harness.store",
                       "harness.databases.*", "harness.lab_commands", "harness.measure.kernel_model",
                       "harness.measure.syn_model", "harness.measure.sample_blocks",
                       "harness.measure.director_table", "harness.measure.director_flows",
                       "harness.measure.sysbench_log", "harness.measure.wrk_log", "harness.measure.health_checks",
                       "harness.measure.haproxy_log", "harness.measure.effects", "harness.measure.ss_log",
                       "harness.measure.probe_log", "harness.measure.recovery", "harness.measure.sysctl_knobs",
                       "harness.measure.run_phases", "harness.measure.dns_model", "harness.measure.host_monitor",
                       "harness.imports.driver_import", "harness.imports.driver_url", "harness.imports.driver_files",
                       "harness.imports.hikari_pool", "harness.imports.jvm_names", "harness.imports.sysctl_dump",
                       "harness.imports.timeline", "harness.imports.timeline_clock", "harness.imports.timeline_log",
                       "harness.imports.said", "harness.imports.haproxy_values", "harness.imports.sniff",
                       "harness.report.*", "harness.scenario.*", "harness.bench.*", "harness.run.*", "harness.cli.*",
                       "harness.__main__", "harness.abilities", "harness.compare_runs", "harness.errors",
                       "harness.interrupts", "harness.kernel_matrix", "harness.pipeline", "harness.plan",
                       "harness.plane_comparison", "harness.polling", "harness.registered", "harness.soak",
                       "harness.topology", "harness.answer.*", "harness.settings.*", "harness.replay.*",
                       "harness.workshop.*", "harness.imports.*", "harness.measure.baseline",
                       "harness.measure.comparison", "harness.measure.kernel_facts", "harness.lab",
                       "harness.lab.base", "harness.lab.compose", "harness.lab.engine", "harness.lab.nodes",
                       "harness.lab.registry", "harness.lab.places", "harness.lab.container_states",
                       "harness.lab.stuck", "harness.lab.images", "harness.lab.cleanup", "harness.lab.compose_files",
                       "harness.lab.netns_cells", "harness.lab.bounded_run", "harness.lab.compose_down",
                       "harness.lab.datapath", "harness.lab.docker_lists", "harness.lab.health_check_loop",
                       "harness.lab.engine_api", "harness.lab.safe_removal", "harness.lab.image_inputs",
                       "harness.lab.shell_kernel", "harness.measure.*", "harness.load.*", "harness.pools.*",
                       "harness.signals.*"}


def test_the_packages_whose_every_function_is_annotated_only_grow():
    config = sections()
    annotated = {module for name in config.sections() if config[name].get("disallow_untyped_defs") == "True"
                 for module in name.removeprefix("mypy-").split(",")}
    dropped = [name for name in ANNOTATED_WHEN_MADE if not covered(name, annotated)]
    assert not dropped, f"mypy.ini no longer holds {sorted(dropped)} to it"


def covered(module, listed):
    """Whether mypy.ini's sections hold a module (or a package's every module: 'harness.measure.*')
    to annotations: listed by its own name, or by a package's pattern above it."""
    parts = module.removesuffix(".*").split(".")
    return module in listed or any(".".join(parts[:i]) + ".*" in listed for i in range(1, len(parts)))


def test_a_package_pattern_covers_its_modules_and_only_them():
    assert covered("harness.measure.predict", {"harness.measure.*"})
    assert covered("harness.measure.*", {"harness.measure.*"})
    assert not covered("harness.measure.predict", {"harness.measure", "harness.lab.*"})
