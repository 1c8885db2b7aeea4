"""The one way the lab registers the members of an axis: faults, control planes, database engines,
places to run, signals, connection pools and clients each live in a Registry, by name, in the
order they were added; a second member under a taken name is refused where it is added, naming
both. Faults, control planes and engines are classes that enter theirs when defined (Registered);
the others are listed in their registry's module."""
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, ClassVar, Generic, TypeVar

T = TypeVar("T")


def _name_of(member: Any) -> str:
    return member.name


def _defined_again(taken: Any, member: Any) -> bool:
    """The same class defined once more (its module read again), not another member."""
    return isinstance(taken, type) and isinstance(member, type) and taken.__qualname__ == member.__qualname__


def _where(member: Any) -> str:
    return f"{member.__module__}.{member.__qualname__}" if isinstance(member, type) else repr(member)


class Registry(Mapping[str, T], Generic[T]):
    """{name: member} of one axis (`axis`: what a member is, for errors), in the order added."""

    def __init__(self, axis: str, members: Iterable[T] = (), name: Callable[[T], str] = _name_of) -> None:
        self.axis = axis
        self._name = name
        self._members: dict[str, T] = {}
        for member in members:
            self.add(member)

    def add(self, member: T) -> T:
        name = self._name(member)
        if not name:
            raise TypeError(f"{_where(member)}: a {self.axis} needs a name")
        taken = self._members.get(name)
        if taken is not None and taken is not member and not _defined_again(taken, member):
            raise TypeError(f"{_where(member)}: the {self.axis} name {name!r} is {_where(taken)}'s already")
        self._members[name] = member
        return member

    def __getitem__(self, name: str) -> T:
        try:
            return self._members[name]
        except KeyError:
            raise KeyError(f"no {self.axis} {name!r}: one of {', '.join(self._members)}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def members(self) -> tuple[T, ...]:
        """Every member, in the order added."""
        return tuple(self._members.values())

    def __repr__(self) -> str:
        return f"Registry({self.axis!r}: {', '.join(self._members)})"


class Registered:
    """A subclass with a `name` enters its family's `registry` when its module is imported; each
    family's package imports all of its members."""
    name = ""
    registry: ClassVar[Registry]      # set by each family's base class

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.name:
            cls.registry.add(cls)
