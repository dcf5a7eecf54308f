"""A fake of CircuitPython's `supervisor` for tests run in a child process
with this folder on the path (tests/cpython/test_circuitpy_clock.py):
`ticks_ms()` is a virtual clock on the 2**29 period, set with `NOW`."""

NOW = [0]


def ticks_ms():
    """The virtual clock, wrapped at 2**29 as CircuitPython's."""
    return NOW[0] & ((1 << 29) - 1)
