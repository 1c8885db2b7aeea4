"""Why a guest disk is rebuilt (harness/lab/guest/disk.py), said when it is."""
from harness.lab.guest.disk import rebuild_reason


def test_a_disk_rebuild_says_which_images_changed():
    last = {"rootfs": "r1", "images": {"director": "sha256:a", "client": "sha256:b"}}
    assert rebuild_reason(last, "r1", {"director": "sha256:c", "client": "sha256:b"}) == "images changed: director"
    assert rebuild_reason(last, "r2", last["images"]).startswith("the guest's root tree recipe changed")
    assert rebuild_reason(last, "r1", last["images"]) == "the code that loads images into it changed"
