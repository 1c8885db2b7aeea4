"""Members that register themselves: a fault, a control plane, a database engine."""


class Registered:
    """A subclass with a `name` enters its family's `registry` ({name: class}) when its module is
    imported; each family's package imports all of its members."""
    name = ""
    registry: dict = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if cls.name:
            cls.registry[cls.name] = cls
