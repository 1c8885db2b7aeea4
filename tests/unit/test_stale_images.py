"""A guest's disk is keyed by the checkout's files; images built from other files are refused
before they are saved into a disk under a key that does not describe them."""
import json

import pytest

from harness.errors import LabError
from harness.lab import images


@pytest.fixture
def record(tmp_path, monkeypatch):
    path = tmp_path / "built.json"
    monkeypatch.setattr(images, "_built_record", lambda: path)
    monkeypatch.setattr(images, "host_image_keys", lambda: {"blackhole-lab/client:dev": "inputs:new",
                                                           "blackhole-lab/web:dev": "inputs:same"})
    saved = []
    monkeypatch.setattr(images.subprocess, "run", lambda argv, **kw: saved.append(argv))
    return path, saved


def test_images_built_from_older_files_are_not_saved_for_a_disk(record):
    path, saved = record
    path.write_text(json.dumps({"keys": {"blackhole-lab/client:dev": "inputs:old", "blackhole-lab/web:dev": "inputs:same"}}))
    with pytest.raises(LabError, match=r"blackhole-lab/client:dev was built from other files .*make images"):
        images.save_host_images("out.tar")
    assert saved == []


def test_no_record_of_a_build_is_refused_too(record):
    path, saved = record
    with pytest.raises(LabError, match="make images"):
        images.save_host_images("out.tar")
    assert saved == []


def test_images_built_from_the_checkouts_files_are_saved(record):
    path, saved = record
    path.write_text(json.dumps({"keys": {"blackhole-lab/client:dev": "inputs:new", "blackhole-lab/web:dev": "inputs:same"}}))
    images.save_host_images("out.tar")
    assert saved[0][:3] == ["docker", "save", "-o"]
