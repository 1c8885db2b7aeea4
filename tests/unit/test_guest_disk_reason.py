"""Why a guest disk is rebuilt (harness/lab/guest/disk.py), said when it is."""
from harness.lab.guest.disk import rebuild_reason


def test_a_disk_rebuild_says_which_images_changed():
    last = {"rootfs": "r1", "images": {"director": "sha256:a", "client": "sha256:b"}}
    assert rebuild_reason(last, "r1", {"director": "sha256:c", "client": "sha256:b"}) == "images changed: director"
    assert rebuild_reason(last, "r2", last["images"]).startswith("the guest's root tree recipe changed")
    assert rebuild_reason(last, "r1", last["images"]) == "the code that loads images into it changed"


def test_a_disk_with_a_cluster_nodes_images_is_another_disk_and_says_so():
    last = {"rootfs": "r1", "images": {"client": "k1"}}
    node = {"blackhole-lab/pause:1": "p1"}
    assert rebuild_reason(last, "r1", last["images"], node) == "a cluster node's programs and images: not in the last disk"
    assert rebuild_reason({**last, "node_images": node}, "r1", last["images"]).endswith("this one does not")
    assert rebuild_reason({**last, "node_images": node}, "r1", last["images"], {"program:kubelet": "1-2", **node}) == \
        "a cluster node's programs or images changed: program:kubelet"
    assert rebuild_reason({**last, "node_images": node}, "r1", last["images"], node) == \
        "the code that loads images into it changed"
