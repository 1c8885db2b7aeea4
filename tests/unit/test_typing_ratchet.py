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


# Every function of the harness is annotated (2026-12-05: the last 435 public ones, the signals', the
# loads', the pools', the model's and the guest's and cluster's, joined those of 2026-12-05), and mypy
# holds every module to it: disallow_untyped_defs is set for all of harness/ and no section turns it off.
def test_every_function_of_the_harness_must_be_annotated():
    config = sections()
    assert config["mypy"].get("disallow_untyped_defs") == "True"
    per_package = [name for name in config.sections() if "disallow_untyped_defs" in config[name] and name != "mypy"]
    assert not per_package, f"mypy.ini sets disallow_untyped_defs per package again: {per_package}"
