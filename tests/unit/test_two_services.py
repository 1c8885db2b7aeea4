"""An operator's folder as they have it (examples/incident-two-services: `sysctl-a.txt`, `client.txt`
with a Java service under HikariCP and a Go one, `lb.conf`, an ISO-timed `incident.yaml`): every
file known by its content, one answer per service, one replay cell per service."""
import subprocess
import sys
from pathlib import Path

import pytest

from harness import imports
from harness.errors import InvalidInput
from harness.imports import driver_url
from harness.replay import build

REPO = Path(__file__).resolve().parents[2]
FOLDER = REPO / "examples" / "incident-two-services"


def test_each_file_is_known_by_its_content_and_each_service_is_its_own_driver():
    incident = imports.from_dir(str(FOLDER))
    assert [(d.source.rpartition("/")[2], d.client) for d in incident.drivers] == [("client.txt:2", "hikari"),
                                                                                    ("client.txt:6", "go")]
    hikari, go = (dict(d.settings) for d in incident.drivers)
    assert hikari["socketTimeout"] == 0 and hikari["maximumPoolSize"] == 10 and hikari["connectionTimeout"] == 30000
    assert go == {"readTimeout": "0", "timeout": "5s"}
    assert {reader for _, reader, _ in incident.known_as} == {"driver.url", "keepalived.conf", "sysctl.txt"}
    assert incident.incident_times is not None and incident.keepalived is not None


def test_explain_answers_for_each_service_with_the_timeline_beside_it():
    shown = subprocess.run([sys.executable, "-m", "harness", "explain", f"FROM={FOLDER}"], cwd=REPO,
                           capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    first, second = shown.stdout.splitlines()[:2]
    assert first.startswith(f"{FOLDER}/client.txt:2 (hikari): Answer:")
    assert second.startswith(f"{FOLDER}/client.txt:6 (go): Answer:")
    assert shown.stdout.count("Your incident: the application's first error 937 s after the death") == 2


def test_the_replay_runs_a_cell_for_each_service():
    planned = build.plan(imports.from_dir(str(FOLDER)))
    cells = {cell["name"]: cell for cell in planned.definition["cells"]}
    assert cells["yours"]["client"] == "hikari" and cells["yours-l6"]["client"] == "go"
    assert cells["yours-l6"]["go"] == {"readTimeout": "0", "timeout": "5s"}
    assert any(line.startswith("yours-l6: ") for line in planned.lines)


@pytest.mark.parametrize(("text", "says"), [
    ("maximumPoolSize=10\njdbc:mysql://db/app\n", "x.txt:1: 'maximumPoolSize=10': not a JDBC URL"),
    ("u@tcp(db:3306)/app\nmaximumPoolSize=10\n", "x.txt:2: .*follow the JDBC URL they belong to"),
    ("jdbc:mysql://db/app\nmaximumPoolSze=10\n", "x.txt:2: maximumPoolSze=10: not a setting of HikariCP.*did you mean "
                                                 "maximumPoolSize"),
])
def test_a_line_of_a_connection_strings_file_that_belongs_to_no_driver_is_refused_at_its_line(text, says):
    with pytest.raises(InvalidInput, match=says):
        driver_url.parse_all(text, "x.txt")


def test_a_parameter_given_twice_in_one_connection_string_is_refused_naming_both():
    with pytest.raises(InvalidInput, match=r"x.txt:1: socketTimeout given twice \(socketTimeout=3000, then "
                                           r"socketTimeout=0\)"):
        driver_url.parse_all("jdbc:mysql://db/app?socketTimeout=3000&socketTimeout=0\n", "x.txt")
