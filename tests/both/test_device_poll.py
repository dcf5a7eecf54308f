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


def test_the_garbage_is_collected_once_the_screen_is_still():
    """After a frame the device collects once the screen has been still
    (no frame, no button change) for STILL_MS, and not again until the next
    frame; a press caught meanwhile comes first."""
    board, model, clock = device_rig()
    dev = device.start(board, machine, clock, dice=SeededDice(5), store=Store(MemFS()),
                       tables=None)
    calls = []
    dev.collect = lambda: calls.append(clock.ticks_ms())
    dev.loop(3)  # the title's first frame
    assert dev.shows == 1
    for _ in range(200):  # (MicroPython: the warm-up first, which collects itself)
        if dev.app.warming is None:
            break
        dev.loop(1)
    assert dev.app.warming is None
    del calls[:]
    dev.shown()  # as if the title had just gone out
    start = dev.shown_at
    dev.loop(device.STILL_MS // device.POLL_MS + 3)
    assert len(calls) == 1 and device.STILL_MS <= calls[0] - start <= device.STILL_MS + 2 * (
        device.POLL_MS + 1)
    dev.loop(100)  # still: no more
    assert len(calls) == 1
    machine.press(board.BUTTONS["DOWN"])  # a cursor move: a frame
    dev.loop(2)
    machine.release(board.BUTTONS["DOWN"])
    assert dev.shows == 2 and not dev.collected
    dev.loop(device.STILL_MS // device.POLL_MS + 3)
    assert len(calls) == 2 and calls[1] - dev.active_at >= device.STILL_MS
    dev.shown()  # a frame, and a press caught before the screen was still long enough
    dev.keys.caught = buttons.A
    dev.settle(clock.ticks_ms() + device.STILL_MS)
    assert len(calls) == 2
