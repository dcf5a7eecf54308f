"""The device loop waits for its next poll in slices and stops waiting as
soon as a pin interrupt caught a press, so a press reaches the app within
a millisecond instead of half a poll interval on average."""

# isort: off
from tests.both.helpers import device_rig  # (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
# isort: on

from engine.dice import SeededDice  # noqa: E402
from firmware import buttons, device  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


def test_a_caught_press_ends_the_wait_for_the_next_poll():
    board, model, clock = device_rig()
    dev = device.start(board, machine, clock, dice=SeededDice(5), store=Store(MemFS()),
                       tables=None)
    dev.loop(5)
    slept = clock.slept
    dev.settle(clock.ticks_ms())  # nothing caught: the whole poll interval
    assert clock.slept - slept == device.POLL_MS
    slept = clock.slept
    dev.keys.caught = buttons.A  # what the pin interrupt of A does
    dev.settle(clock.ticks_ms())
    assert clock.slept == slept  # no wait: the next pass reads it at once
    dev.loop(1)
    assert dev.keys.caught == 0  # read (and answered) by that pass
