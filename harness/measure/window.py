"""A model window: when the model says a client errs (or is back), from the earliest to the latest
moment its limits allow, and what it counts (measure/predict.py makes them)."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class Window:
    expected_s: float | None   # None: the model says the client never detects
    earliest_s: float | None   # None: never, as expected_s
    latest_s: float | None
    basis: str                 # why: which limit ends the hang
    # The latest the window lets the first unacknowledged send go out after t_fault (None: the
    # window does not count from a send, as an idle connection's).
    send_by_s: float | None = None

    def bounds(self) -> tuple[float, float, float]:
        """(earliest, expected, latest) of a window that has them; a window of never has none."""
        if self.expected_s is None or self.earliest_s is None or self.latest_s is None:
            raise ValueError(f"a window of never has no bounds ({self.basis})")
        return self.earliest_s, self.expected_s, self.latest_s

    def contains(self, value: float | None, sent_s: float | None = None) -> bool:
        """value: a measured time, rounded to the millisecond as results store them; sent_s: when
        the operation that ended then was sent. A send later than send_by_s (the probe itself was
        late: a busy machine did not run it) moves the window with it, as the clocks that end the
        wait start at that send."""
        earliest, latest = self.earliest_s, self.latest_s
        if self.expected_s is None or earliest is None or latest is None:     # never: all three None
            return value is None
        if value is None:
            return False
        late = self.late_send_s(sent_s)
        return earliest - 0.0005 <= value - late <= latest + 0.0005

    def meets(self, low: float, high: float, sent_s: float | None = None) -> bool:
        """Whether a span [low, high] of measured times (a moment known only that closely) overlaps
        the window, moved with a late send as contains() moves it."""
        earliest, latest = self.earliest_s, self.latest_s
        if self.expected_s is None or earliest is None or latest is None:
            return False
        late = self.late_send_s(sent_s)
        return low - late <= latest + 0.0005 and high - late >= earliest - 0.0005

    def late_send_s(self, sent_s: float | None) -> float:
        """How much later than send_by_s the operation went out (0 when on time or unknown)."""
        return 0.0 if sent_s is None or self.send_by_s is None else max(0.0, sent_s - self.send_by_s)

    def shifted(self, offset: float, basis: str | None = None) -> "Window":
        if self.expected_s is None:
            return self
        earliest, expected, latest = self.bounds()
        return Window(expected + offset, earliest + offset, latest + offset,
                      basis or self.basis, None if self.send_by_s is None else self.send_by_s + offset)
