"""Microsecond ticks for the benchmark scripts, on MicroPython and CPython."""

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter

    def ticks_us():
        """Microseconds from an arbitrary start."""
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        """a - b for tick values."""
        return a - b


__all__ = ["ticks_diff", "ticks_us"]
