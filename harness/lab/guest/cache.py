"""Where guest artifacts are kept between runs (kernels, initramfs, disks): outside the
checkout, so clones share them. BLACKHOLE_CACHE moves it."""
from pathlib import Path

from ...settings import machine


def cache_dir(*parts: str) -> Path:
    root = machine.cache_root()
    path = root.joinpath(*parts)
    path.mkdir(parents=True, exist_ok=True)
    return path
