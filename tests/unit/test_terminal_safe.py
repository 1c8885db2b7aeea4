"""Bytes of an operator's file never act on the terminal: `make explain FROM=` prints them escaped."""
import subprocess
import sys
from pathlib import Path

from harness.cli.terminal_safe import escaped

REPO = Path(__file__).resolve().parents[2]


def test_control_bytes_are_printed_as_escapes_and_text_is_left_as_it_is():
    assert escaped("a\x1b[2Jb\rc\x07\x9b\td\ne é") == "a\\x1b[2Jb\\x0dc\\x07\\x9b\td\ne é"


def test_explain_escapes_what_it_prints_of_a_file(tmp_path):
    (tmp_path / "haproxy.cfg").write_text("backend db\n  hash\x1b[2J-type consistent\x07\n  timeout server 5s\n"
                                          "  server a 10.0.0.1:3306 check\n  server b 10.0.0.2:3306 backup\n")
    shown = subprocess.run([sys.executable, "-m", "harness", "explain", f"FROM={tmp_path}"], cwd=REPO,
                           capture_output=True, text=True, timeout=120)
    assert shown.returncode == 2, shown.stderr            # not one of HAProxy's keywords: refused at its line
    assert "haproxy.cfg:2: hash\\x1b[2J-type consistent\\x07: not a keyword" in shown.stderr
    assert "\x1b" not in shown.stdout + shown.stderr and "\x07" not in shown.stdout + shown.stderr
