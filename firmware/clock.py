"""Time on the device's millisecond clock, which wraps around.

`time.ticks_ms()` counts up to 2**30 and starts again at 0 (about every
12.4 days; CircuitPython's `supervisor.ticks_ms()` at 2**29, 6.2 days),
so a due time is never compared with `<`: every difference goes through
`ticks_diff` and every sum through `ticks_add`. `Due` wraps the one
pattern the screens need, a moment something is due, with an explicit
"nothing due" state instead of a 0 or -1 that a real tick value could
equal.
"""

try:  # MicroPython: wrap-around safe tick arithmetic
    from time import ticks_add, ticks_diff
except ImportError:
    try:  # CircuitPython: supervisor.ticks_ms() wraps at 2**29 (circuitpy/clock.py)
        import supervisor  # noqa: F401  # pyright: ignore[reportMissingImports]

        _PERIOD = 1 << 29
        _HALF = 1 << 28

        def _ticks_diff(new, old):
            """Return `new - old` in ms on the 2**29 clock (-2**28 .. 2**28-1)."""
            return ((new - old + _HALF) & (_PERIOD - 1)) - _HALF

        def _ticks_add(ticks, delta):
            """Return `ticks + delta` on the 2**29 clock."""
            return (ticks + delta) & (_PERIOD - 1)

    except ImportError:  # CPython: times are plain integers that never wrap

        def _ticks_diff(new, old):
            """Return `new - old` in ms (same argument order as time.ticks_diff)."""
            return new - old

        def _ticks_add(ticks, delta):
            """Return `ticks + delta` (CPython stand-in for time.ticks_add)."""
            return ticks + delta

    # Assigned, not defined, so the stubs' signatures stay the checked ones.
    ticks_diff = _ticks_diff
    ticks_add = _ticks_add


class Due:
    """A moment on the wrapping clock when something is due, or none.

    `set(now, ms)` arms it `ms` after `now`; `reached(now)` is True from
    then on until `clear()`. A Due that is reached should be cleared (or
    set again) by its owner: an armed one left alone for half the clock's
    period (6 days) would read as not reached again."""

    def __init__(self):
        self.at = 0
        self.armed = False

    def set(self, now, ms):
        """Due `ms` milliseconds after `now`."""
        self.at = ticks_add(now, ms)
        self.armed = True

    def clear(self):
        """Nothing due."""
        self.armed = False

    def reached(self, now):
        """True when armed and `now` is at or past the due moment."""
        return self.armed and ticks_diff(now, self.at) >= 0

    def waiting(self, now):
        """True when armed and the due moment is still ahead."""
        return self.armed and ticks_diff(now, self.at) < 0
