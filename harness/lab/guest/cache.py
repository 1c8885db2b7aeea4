"""Where guest artifacts are kept between runs (kernels, initramfs, disks): outside the
checkout, so clones share them. BLACKHOLE_CACHE moves it."""
import os
from pathlib import Path


def cache_dir(*parts):
    root = Path(os.environ.get("BLACKHOLE_CACHE") or Path.home() / ".cache" / "blackhole-lab")
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path
