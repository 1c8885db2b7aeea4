"""The guest disk's key per image: what the image is built from, not the id a build handed back."""
import os

from harness.lab.image_inputs import base_images, context_digest, input_key


def test_base_images_are_the_from_lines_that_are_not_stages():
    dockerfile = ("FROM debian:bookworm-slim AS preload\nRUN true\nFROM preload AS more\n"
                  "FROM --platform=linux/amd64 debian:sid-slim\nCOPY --from=more /x /x\n")
    assert base_images(dockerfile) == ["debian:bookworm-slim", "debian:sid-slim"]


def context(tmp_path):
    (tmp_path / "lbctl" / "__pycache__").mkdir(parents=True)
    (tmp_path / "Dockerfile").write_text("FROM debian:bookworm-slim\n")
    (tmp_path / "start").write_text("#!/bin/sh\n")
    os.chmod(tmp_path / "start", 0o755)
    (tmp_path / "lbctl" / "state.py").write_text("X = 1\n")
    return tmp_path


def test_times_owners_and_python_caches_do_not_change_the_digest(tmp_path):
    c = context(tmp_path)
    before = context_digest(c)
    os.utime(c / "start", (1, 1))
    (c / "lbctl" / "__pycache__" / "state.cpython-311.pyc").write_bytes(b"\0")
    (c / "other.pyc").write_bytes(b"\0")
    assert context_digest(c) == before


def test_bytes_names_and_the_executable_bit_do(tmp_path):
    c = context(tmp_path)
    before = context_digest(c)
    os.chmod(c / "start", 0o644)
    assert context_digest(c) != before
    os.chmod(c / "start", 0o755)
    (c / "lbctl" / "state.py").write_text("X = 2\n")
    assert context_digest(c) != before


def test_a_new_base_image_or_build_argument_changes_the_key(tmp_path):
    c = context(tmp_path)
    key = input_key(c, {"debian:bookworm-slim": "sha256:aa"}, {"HOST_EXTRA_CA": ""})
    assert key == input_key(c, {"debian:bookworm-slim": "sha256:aa"}, {"HOST_EXTRA_CA": ""})
    assert key != input_key(c, {"debian:bookworm-slim": "sha256:bb"}, {"HOST_EXTRA_CA": ""})
    assert key != input_key(c, {"debian:bookworm-slim": "sha256:aa"}, {"HOST_EXTRA_CA": "PEM"})
