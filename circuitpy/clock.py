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


SPIN_MS = 10  # shorter waits poll the tick instead of sleeping (see sleep_ms)


def sleep_ms(ms):
    """Wait `ms` milliseconds. A wait shorter than SPIN_MS (the device loop
    waits for its next poll in 1 ms slices) polls `supervisor.ticks_ms()`:
    on the emulated Pico, CircuitPython 10.1.4's `time.sleep(0.001)` in that
    loop stopped returning for good after about a second (the core asleep,
    waiting for an interrupt that did not come), and the game no longer
    read its keys. Sleeping saves little over a few milliseconds; longer
    waits (the idle light sleep's 50 ms) still sleep."""
    if ms >= SPIN_MS:
        time.sleep(ms / 1000)
        return
    start = supervisor.ticks_ms()
    while ((supervisor.ticks_ms() - start) & ((1 << 29) - 1)) < ms:
        pass

