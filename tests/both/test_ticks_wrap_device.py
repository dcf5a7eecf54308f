"""The clock wraps: the device's own timers over days and across the wrap.

The dim and sleep times and the re-crash window of firmware.supervisor must
hold over days: `ticks_diff` tells differences only up to half the clock's
period (about 6.2 days), so no timer may wait on a raw tick value, nor on
a "never" that a real idle time could reach. (The screens' timers across
the wrap: tests/both/test_ticks_wrap.py.)
"""

# isort: off
from tests.both.helpers import device_rig, tap  # (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
# isort: on

from engine.dice import SeededDice  # noqa: E402
from firmware import device, recovery  # noqa: E402
from firmware.clock import ticks_add  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402

DAY_MS = 24 * 3600 * 1000


def _device(start):
    """A device on the fake machine whose clock is at tick `start`."""
    board, model, clock = device_rig()
    clock.now = start
    dev = device.start(board, machine, clock, dice=SeededDice(5), store=Store(MemFS()),
                       tables=None)
    dev.loop(3, guard=True)
    return board, model, clock, dev


def _later(clock, ms):
    """Let `ms` pass on the wrapping clock (the fake's own `advance` does not wrap)."""
    clock.now = ticks_add(clock.now, ms)


def test_sleep_off_stays_awake_for_weeks_across_the_wrap():
    board, model, clock, dev = _device(ticks_add(0, -2 * DAY_MS))
    settings = dev.app.session.settings
    settings["sleep"] = 0  # never sleep (the settings screen's "off")
    dev.apply_settings()
    assert dev.sleep_after is None and dev.dim_after == device.DIM_MS
    for _ in range(4 * 21):  # three weeks in steps of six hours, across the wrap
        _later(clock, DAY_MS // 4)
        dev.loop(2, guard=True)
        assert not dev.asleep and dev.dimmed
    tap(dev, board, "DOWN")  # a press still brightens and counts...
    assert not dev.dimmed and dev.app.state()["index"] == 1
    dev.loop(device.DIM_MS // device.POLL_MS + 2, guard=True)
    assert dev.dimmed and not dev.asleep  # ...and the dim time runs again from it


def _fault(dev):
    from tests.both.test_recovery import Faulty

    dev.app.push(Faulty(KeyError("boom")))
    dev.loop(3, guard=True)


def test_a_failure_days_after_a_restart_restarts_again():
    board, model, clock, dev = _device(ticks_add(0, -3000))
    dev.app.session.settings["sleep"] = 0
    dev.apply_settings()
    _fault(dev)
    assert dev.fault == recovery.RESTART
    tap(dev, board, "A")  # restart, 3 s before the wrap
    assert dev.fault is None and dev.recrash.armed
    _later(clock, 5000)
    _fault(dev)  # 5 s later, across the wrap: it came back at once
    assert dev.fault == recovery.STOP
    board, model, clock, dev = _device(ticks_add(0, -DAY_MS))
    dev.app.session.settings["sleep"] = 0
    dev.apply_settings()
    _fault(dev)
    tap(dev, board, "A")
    dev.loop(recovery.RECRASH_MS // device.POLL_MS + 2, guard=True)
    assert not dev.recrash.armed  # passed: cleared by the loop
    for _ in range(8):  # a week later, past the wrap and half the clock's period
        _later(clock, DAY_MS)
        dev.loop(1, guard=True)
    _fault(dev)
    assert dev.fault == recovery.RESTART  # not taken for a crash loop


def test_a_failure_after_a_sleep_long_after_a_restart_restarts_again():
    board, model, clock, dev = _device(1000)
    dev.sleep_after = 400
    _fault(dev)
    tap(dev, board, "A")
    dev.loop(600 // device.POLL_MS, guard=True)
    assert dev.asleep and not dev.recrash.armed  # asleep within the re-crash time
    _later(clock, 7 * DAY_MS)  # a week in the drawer
    tap(dev, board, "A")  # wakes (the waking press is swallowed)
    assert not dev.asleep
    _fault(dev)
    assert dev.fault == recovery.RESTART
