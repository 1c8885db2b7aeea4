"""Reports and measurement render from disk: importing them must not load Docker or the lab."""
import subprocess
import sys

from harness.lab import REPO

CHECK = ("import harness.report, harness.measure, harness.signals, sys; "
         "loaded = [m for m in ('python_on_whales', 'harness.lab') if m in sys.modules]; "
         "assert not loaded, loaded")


def test_reports_measurement_and_signals_import_neither_docker_nor_the_lab():
    result = subprocess.run([sys.executable, "-c", CHECK], cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
