"""The device clock on CircuitPython: `supervisor.ticks_ms`, which wraps at 2**29.

CircuitPython's `time` has no `ticks_ms`; `supervisor.ticks_ms()` counts
milliseconds up to 2**29 and starts again at 0 (about every 6.2 days, and
it starts 2**29 - 65 s before its first wrap on purpose, so code that
mishandles the wrap fails within a minute of boot). firmware.clock does the
tick arithmetic on that period when `supervisor` is importable; this is
the clock object firmware.device.Device asks for `ticks_ms` and
`sleep_ms`.
"""

import time

import supervisor


def ticks_ms():
    """Milliseconds on the wrapping 2**29 clock."""
    return supervisor.ticks_ms()


def ticks_us():
    """Microseconds on a clock that wraps at 2**29 as ticks_ms's does (for
    firmware.clock.ticks_diff), from `time.monotonic_ns()`: a long integer
    each call, so for benchmarks only (firmware.profiling times the phases
    of a pass with it; a device that is not benchmarked never calls it)."""
    return (time.monotonic_ns() // 1000) & ((1 << 29) - 1)


def sleep_ms(ms):
    """Wait `ms` milliseconds."""
    time.sleep(ms / 1000)

