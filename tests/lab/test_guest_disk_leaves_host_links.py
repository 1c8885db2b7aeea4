"""Building a guest disk loads the lab's images with a throwaway dockerd of its own. That dockerd
must not touch the host's network: one started with `--bridge=none` on the host's links deletes
the host's `docker0`, and every `docker run` on the default bridge then fails until the host's
dockerd restarts. This runs the real loading step with a real image and looks at the host after."""
import json
import subprocess
import tempfile
from pathlib import Path

from harness.lab.guest import disk
from tests.host_state import BASE_IMAGE, host_links, run_on_default_bridge


def test_loading_images_into_a_guest_tree_leaves_the_host_links_alone():
    links_before, run_before = host_links(), run_on_default_bridge()
    assert run_before[0] == 0, f"docker run on the default bridge fails before the test: {run_before[1]}"
    assert "docker0" in links_before
    with tempfile.TemporaryDirectory(prefix="blackhole-disk-test-") as tmp:
        tmp = Path(tmp)
        tar = tmp / "images.tar"
        subprocess.run(["docker", "save", "-o", str(tar), BASE_IMAGE], check=True, timeout=300)
        data_root = tmp / "root" / "var" / "lib" / "docker"
        disk._load_images(data_root, tar, tmp)
        repositories = json.loads((data_root / "image" / "overlay2" / "repositories.json").read_text())
        assert BASE_IMAGE.split(":")[0] in repositories["Repositories"], "the image did not land in the guest tree"
    assert host_links() == links_before
    assert run_on_default_bridge() == run_before
