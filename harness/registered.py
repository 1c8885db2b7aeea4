"""Members that register themselves: a fault, a control plane, a database engine."""
from typing import ClassVar


class Registered:
    """A subclass with a `name` enters its family's `registry` ({name: class}) when its module is
    imported; each family's package imports all of its members. A second member of a family under
    a name already taken is refused at import (it would replace the first without a word)."""
    name = ""
    registry: ClassVar[dict]      # set by each family's base class

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            taken = cls.registry.get(cls.name)
            if taken is not None and taken.__qualname__ != cls.__qualname__:
                raise TypeError(f"{cls.__module__}.{cls.__qualname__}: the name {cls.name!r} is "
                                f"{taken.__module__}.{taken.__qualname__}'s already")
            cls.registry[cls.name] = cls
