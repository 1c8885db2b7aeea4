"""A value given to make never reaches a shell as a command: the Makefile names a knob in a recipe
only as "$$NAME" (the shell's quoted expansion of the environment make exports it in) or leaves it
to the harness to read from its environment, and a $(shell ...) reads no knob. Held twice: by
reading the Makefile, and by giving make values and names built to run a command if a shell ever
read them (quotes, semicolons, $( ), backticks, newlines), then looking for what they would have
made."""
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests import make_env

REPO = Path(__file__).resolve().parents[2]
# Make's own variables a recipe may paste: fixed by the Makefile (override), never a user's.
PASTED = {"PY", "VENV"}


def recipe_lines():
    return [line for line in (REPO / "Makefile").read_text().splitlines() if line.startswith("\t")]


def test_no_recipe_pastes_a_value_and_no_shell_call_reads_one():
    pasted = {name for line in recipe_lines() for name in re.findall(r"(?<!\$)\$[({]([^)}\s,]+)", line)}
    assert pasted <= PASTED, f"recipes paste {sorted(pasted - PASTED)} into a shell command"
    text = (REPO / "Makefile").read_text()
    for call in re.findall(r"\$\(shell ([^\n]*)\)", text):
        assert "$(" not in call.replace("$$(", ""), f"$(shell {call}) reads a make variable"
    for name in PASTED:
        assert re.search(rf"^override {name} :=", text, re.M), f"{name} may be set from make's command line"


def payloads(marker):
    """Values that, read by a shell, would create `marker`."""
    return [f"1';touch {marker};'", f'1";touch {marker};"', f"$(touch {marker})", f"`touch {marker}`",
            f"1\ntouch {marker}", f"1 && touch {marker} #"]


def make(*words, **env):
    return subprocess.run(["make", "-s", "--no-print-directory", "-C", str(REPO), *words], capture_output=True,
                          text=True, timeout=120, env=make_env.environment(**env))


@pytest.fixture()
def marker(tmp_path):
    path = tmp_path / "ran"
    yield path
    assert not path.exists(), "a value given to make ran as a command"


@pytest.mark.parametrize("goal, knob", [
    ("explain", "socketTimeout"), ("explain", "K"), ("explain", "HAPROXY"), ("plan", "scenario"),
    ("report", "RUN"), ("compare", "RUNS"), ("exercise", "N"), ("help", "scenario"),
])
def test_a_value_is_never_a_command(marker, goal, knob):
    """(make itself expands $(...) in a value as a variable of its own: empty, never run.)"""
    for value in payloads(marker):
        extra = ("CLIENT=jdbc",) if knob == "socketTimeout" else ()
        make(goal, *extra, f"{knob}={value}")
        assert not marker.exists(), f"make {goal} {knob}={value!r} ran a command"
    done = make(goal, *extra, f"{knob}=1';touch {marker};'")
    assert done.returncode == 2 and "blackhole:" in done.stderr, done.stderr     # refused by the lab, not the shell


def test_a_folder_or_file_named_like_a_command_is_only_a_name(marker, tmp_path):
    """Values the edge check accepts (an existing folder, a scenario file) reach the harness whole.
    (The makes, independent of each other, run four at a time.)"""
    asked = []
    for n, value in enumerate(payloads("$BH_MARK")):
        folder = tmp_path / f"f{n}" / value.replace("\n", "_")
        folder.mkdir(parents=True)
        (folder.parent / "s.yaml").write_text("nothing: here\n")
        named = str(folder).replace("$", "$$")          # make reads $ in a value as its own; $$ is one $
        asked += [("explain", f"FROM={named}"), ("plan", f"FROM={named}"), ("report", f"RUN={named}"),
                  ("plan", f"scenario={folder.parent / 's.yaml'}")]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda words: make(*words, BH_MARK=str(marker)), asked))
    for words, done in zip(asked, answers):
        assert done.returncode == 2 and "blackhole:" in done.stderr, (words, done.stderr)


def test_a_name_built_like_a_command_is_refused_as_no_knob(marker):
    for value in payloads(marker):
        name = re.sub(r"[\s=:#]", "_", value)
        done = make("explain", f"{name}=1")
        refused = "not a knob" in done.stderr or "empty variable name" in done.stderr      # the lab's or make's
        assert done.returncode == 2 and refused, done.stderr


def test_explain_takes_K_split_as_words_with_quotes_kept():
    done = make("explain", 'K=TCP_RETRIES2=5 HAPROXY="inter=2 fall=3 timeout_server=10"')
    assert done.returncode == 0, done.stderr
    assert "timeout server 10 s" in done.stdout.splitlines()[0]
