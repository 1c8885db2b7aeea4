"""env.json's version lines kept by image id: only an image named by its content keys a line."""
import json

from harness.run import version_cache


def test_a_line_is_kept_by_image_id_and_command_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("BLACKHOLE_CACHE", str(tmp_path))
    assert version_cache.known() == {}
    nft = version_cache.key("sha256:5f03", ["nft", "--version"])
    version_cache.keep({nft: "nftables v1.0.6 (Lester Gooch #5)"})
    version_cache.keep({version_cache.key("sha256:5f03", ["mariadbd", "--version"]): "mariadbd  Ver 10.11.19"})
    assert version_cache.known()[nft] == "nftables v1.0.6 (Lester Gooch #5)"
    assert len(version_cache.known()) == 2
    assert version_cache.key("sha256:5f03", ["nft", "-v"]) not in version_cache.known()


def test_a_tag_or_an_unknown_image_keys_nothing():
    assert version_cache.key("blackhole-lab/mysql:dev", ["mariadbd", "--version"]) is None
    assert version_cache.key(None, ["nft", "--version"]) is None


def test_an_unreadable_file_is_as_good_as_none(tmp_path, monkeypatch):
    monkeypatch.setenv("BLACKHOLE_CACHE", str(tmp_path))
    (tmp_path / version_cache.FILE_NAME).write_text("{not json")
    assert version_cache.known() == {}
    (tmp_path / version_cache.FILE_NAME).write_text(json.dumps(["a list"]))
    assert version_cache.known() == {}
