"""`make images` skips the build when the images are the ones its last build here made, from the
inputs the checkout holds now; anything else builds."""
import pytest

from harness.lab import images


@pytest.fixture
def host(monkeypatch, tmp_path):
    monkeypatch.setenv("BLACKHOLE_CACHE", str(tmp_path))
    state = {"ids": {"blackhole-lab/client:dev": "sha256:a"}, "keys": {"blackhole-lab/client:dev": "inputs:1"}}
    monkeypatch.setattr(images, "image_names", lambda: ["blackhole-lab/client:dev"])
    monkeypatch.setattr(images.image_inputs, "image_ids", lambda names: dict(state["ids"]))
    monkeypatch.setattr(images, "host_image_keys", lambda: dict(state["keys"]))
    return state


def test_nothing_recorded_builds_and_a_recorded_build_is_up_to_date(host):
    assert not images.built_as_recorded()
    images.record_build()
    assert images.built_as_recorded()


def test_another_image_or_another_input_builds_again(host):
    images.record_build()
    host["ids"] = {"blackhole-lab/client:dev": "sha256:b"}          # another checkout built over it
    assert not images.built_as_recorded()
    host["ids"] = {"blackhole-lab/client:dev": "sha256:a"}
    host["keys"] = {"blackhole-lab/client:dev": "inputs:2"}         # a file of its context changed
    assert not images.built_as_recorded()
    host["keys"] = {"blackhole-lab/client:dev": "inputs:1"}
    host["ids"] = {}                                                # the image was removed
    assert not images.built_as_recorded()
