"""The build contexts' modes are git's, whatever umask made the checkout: BuildKit's COPY cache
key holds them, and a clone under umask 002 built other image ids (and another guest disk)."""
import os
import stat

from harness.lab.images import settle_modes


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def test_group_writable_files_and_folders_get_the_modes_a_022_checkout_has(tmp_path):
    context = tmp_path / "images" / "director"
    (context / "lbctl").mkdir(parents=True)
    script, source = context / "director-start", context / "lbctl" / "state.py"
    script.write_text("#!/bin/sh\n")
    source.write_text("")
    os.chmod(script, 0o775)
    os.chmod(source, 0o664)
    os.chmod(context / "lbctl", 0o775)
    (context / "link").symlink_to("director-start")
    settle_modes(tmp_path / "images")
    assert (mode(script), mode(source), mode(context / "lbctl"), mode(context)) == (0o755, 0o644, 0o755, 0o755)
    assert os.path.islink(context / "link")
