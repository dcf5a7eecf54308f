"""firmware.watchdog on the fake machine: the device loop feeds the
hardware watchdog every pass, Ctrl-C stops it (so mpremote and the REPL
keep working), an opt-out file keeps it off, and the boot after a reset
by its timer logs it (a machine.reset() is no watchdog entry). Runs
under CPython and the MicroPython Unix port."""

# isort: off
from tests.both.helpers import device_rig, tap  # (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
# isort: on

from engine.dice import SeededDice  # noqa: E402
from firmware import device, recovery, watchdog  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


def _boot(fs, then=None):
    """Fresh fakes (reset_fakes), `then()` on them (the registers a reset
    left), then the device started on `fs`."""
    board, model, clock = device_rig()
    if then is not None:
        then()
    dev = device.start(board, machine, clock, dice=SeededDice(5), store=Store(fs), tables=None)
    return board, dev


def test_the_loop_feeds_the_watchdog_every_pass_and_long_work_too():
    board, dev = _boot(MemFS())
    assert len(machine.wdts) == 1 and machine.watchdog_running()
    wdt = machine.wdts[0]
    assert wdt.timeout == watchdog.TIMEOUT_MS <= 8388  # the RP2040's longest
    dev.loop(20, guard=True)
    assert wdt.feeds == 20
    tap(dev, board, "A")  # into New game: a frame in the middle of the step (App.busy)
    assert wdt.feeds > 28
    fed = wdt.feeds
    dev.app.busy()
    assert wdt.feeds == fed + 1


def test_ctrl_c_stops_the_watchdog_and_ends_the_loop():
    board, dev = _boot(MemFS())

    def ctrl_c(d):
        if d.steps == 5:
            raise KeyboardInterrupt
        return False

    try:
        dev.loop(50, ctrl_c, guard=True)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("Ctrl-C did not end the loop")
    assert dev.steps == 5 and not machine.watchdog_running()


def test_the_opt_out_file_keeps_the_watchdog_off():
    from tests.both.helpers import rmtree, tmpdir

    machine.reset_fakes()
    folder = tmpdir()
    try:
        flag = folder + "/nowdt"
        with open(flag, "w") as f:
            f.write("")
        assert watchdog.start(machine, None, flag) is None and not machine.wdts
        assert watchdog.start(machine, None, folder + "/none") is not None
    finally:
        rmtree(folder)


def test_a_watchdog_reset_is_logged_at_the_next_boot_a_machine_reset_is_not():
    fs = MemFS()
    board, dev = _boot(fs)
    dev.loop(5, guard=True)
    board, dev = _boot(fs, machine.watchdog_fires)  # the loop hung: the timer reset the chip
    log = fs.read(recovery.LOG)
    assert log == watchdog.WATCHDOG_ENTRY
    assert dev.fault is None and dev.app.top().name == "title" and machine.watchdog_running()
    # the last resort's reset (or mpremote's): logged by whoever asked for it
    board, dev = _boot(fs, machine.reset)
    assert fs.read(recovery.LOG) == log


def test_a_port_without_a_watchdog_runs_without_one():
    class NoWdt:
        pass

    assert watchdog.start(NoWdt(), MemFS()) is None
    assert not watchdog.hang_reset(NoWdt())
