"""The lab inside a QEMU guest booting a packaged Debian kernel (KERNEL=6.1, 6.12, ...).
See engine.py for the lifecycle, disk.py for what the guest is made of."""
from .engine import GuestEngine

__all__ = ["GuestEngine"]
