"""CircuitPython's clock wraps at 2**29: the wrap tests of tests/both run on it.

In a child process with the fake `supervisor` of tests/cpython/cpy_modules
on the path, firmware.clock takes CircuitPython's branch (tick arithmetic
on the 2**29 period), and the two wrap tests (a whole game, the device's
own timers) run as they are: each starts just before the wrap, which now
lies at 2**29. The child first proves the branch was taken, so a run on
plain integers cannot pass for a wrap test.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FAKES = os.path.join(HERE, "cpy_modules")

PROBE = """
import sys
sys.path.insert(0, %r)
from firmware.clock import ticks_add, ticks_diff
assert ticks_add(0, -200) == (1 << 29) - 200, ticks_add(0, -200)
assert ticks_diff(5, (1 << 29) - 5) == 10
assert ticks_diff((1 << 29) - 5, 5) == -10
import supervisor
from circuitpy import clock
supervisor.NOW[0] = (1 << 29) + 7
assert clock.ticks_ms() == 7
us = clock.ticks_us()  # the benchmarks' clock (firmware.profiling): on the same period
assert 0 <= us < 1 << 29 and 0 <= ticks_diff(clock.ticks_us(), us) < 1000000
print("2**29")
""" % ROOT


SPIN = """
import sys, time
sys.path.insert(0, %r)
import supervisor
from circuitpy import clock
reads = []
def ticks():  # the clock moves a millisecond a read, across the 2**29 wrap
    supervisor.NOW[0] += 1
    reads.append(supervisor.NOW[0])
    return supervisor.NOW[0] & ((1 << 29) - 1)
supervisor.ticks_ms = ticks
slept = []
time.sleep = slept.append
supervisor.NOW[0] = (1 << 29) - 2
clock.sleep_ms(3)  # a poll's wait: the tick polled until 3 ms passed, no sleep
assert slept == [] and reads[-1] - reads[0] == 3, reads
clock.sleep_ms(clock.SPIN_MS)  # a light sleep's slice: slept
assert slept == [clock.SPIN_MS / 1000], slept
print("spun")
""" % ROOT


def test_short_waits_poll_the_tick_and_long_ones_sleep():
    run = _child(["-c", SPIN])
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "spun"


def _child(args):
    env = dict(os.environ, PYTHONPATH=FAKES)
    return subprocess.run([sys.executable] + args, cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_firmware_clock_takes_the_2_29_period_under_circuitpython():
    run = _child(["-c", PROBE])
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "2**29"


def test_the_wrap_tests_pass_on_the_2_29_clock():
    run = _child(["-m", "pytest", "-q", "-p", "no:cacheprovider",
                  "tests/both/test_ticks_wrap.py", "tests/both/test_ticks_wrap_device.py"])
    assert run.returncode == 0, run.stdout + run.stderr
    assert " passed" in run.stdout and "failed" not in run.stdout
