"""Members that register themselves: a fault, a control plane, a database engine."""
from typing import ClassVar


class Registered:
    """A subclass with a `name` enters its family's `registry` ({name: class}) when its module is
    imported; each family's package imports all of its members."""
    name = ""
    registry: ClassVar[dict]      # set by each family's base class

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            cls.registry[cls.name] = cls
