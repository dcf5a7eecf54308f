"""firmware.supervisor and firmware.recovery on the fake machine: a fault
injected into a screen is logged, told in the player's language, and a
press plays on from the last save; a fault that comes back at once stays
on its message. Runs under CPython and the MicroPython Unix port."""

# isort: off
from tests.both.helpers import device_rig, tap  # (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
# isort: on


from engine.dice import SeededDice  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import preset  # noqa: E402
from firmware import device, recovery  # noqa: E402
from firmware.screen import Screen  # noqa: E402
from firmware.screens.play import Play  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


class Faulty(Screen):
    """A screen whose drawing fails (`error` raised) the first `times` times."""

    name = "faulty"

    def __init__(self, error, times=1):
        self.error = error
        self.times = times

    def draw(self, app, canvas):
        if self.times:
            self.times -= 1
            raise self.error


def _rig(board_name="pico_ssd1306_i2c"):
    board, model, clock = device_rig(board_name)
    fs = MemFS()
    dev = device.start(board, machine, clock, dice=SeededDice(5), store=Store(fs), tables=None)
    dev.loop(3, guard=True)
    return board, model, clock, dev, fs


def _text(model):
    """The lit rows of the panel as a crude fingerprint (the message differs
    from any app screen)."""
    return sum(1 for y in range(64) for x in range(128) if model.pixel(x, y))


def test_a_fault_is_logged_shown_and_a_press_plays_on_from_the_last_save():
    board, model, clock, dev, fs = _rig()
    app = dev.app
    game = Game(preset("zehntausend"), [("Anna", ""), ("Ben", "")], app.dice)
    app.session.save_game(game)
    app.push(Faulty(ZeroDivisionError("boom")))
    dev.loop(3, guard=True)
    assert dev.app is None and dev.fault == recovery.RESTART
    log = fs.read(recovery.LOG).decode()
    assert "ZeroDivisionError" in log and "boom" in log and "draw" in log
    assert model.on and _text(model) > 0
    assert model.shows(dev.display.buffer)
    dev.loop(50, guard=True)
    assert dev.fault == recovery.RESTART  # waits for a press
    tap(dev, board, "A")
    assert dev.fault is None
    assert dev.app.top().name in ("play", "handover")  # the saved game, resumed
    assert isinstance(dev.app.stack[1], Play)
    assert dev.app.stack[1].game.seats[0].name == "Anna"


def test_a_fault_right_after_a_restart_stays_on_its_message():
    board, model, clock, dev, fs = _rig()
    dev.app.push(Faulty(ValueError("first")))
    dev.loop(3, guard=True)
    tap(dev, board, "B")
    assert dev.fault is None and dev.app.top().name == "title"  # no saved game
    dev.app.push(Faulty(ValueError("second")))
    dev.loop(3, guard=True)
    assert dev.fault == recovery.STOP
    lit = _text(model)
    tap(dev, board, "A")
    assert dev.fault == recovery.STOP and dev.app is None and _text(model) == lit
    log = fs.read(recovery.LOG).decode()
    assert log.count("--- ") == 2 and "first" in log and "second" in log


def test_a_later_fault_restarts_again():
    board, model, clock, dev, fs = _rig()
    dev.app.push(Faulty(KeyError("x")))
    dev.loop(3, guard=True)
    tap(dev, board, "A")
    clock.advance(recovery.RECRASH_MS + 1)
    dev.app.push(Faulty(KeyError("y")))
    dev.loop(3, guard=True)
    assert dev.fault == recovery.RESTART


def test_memory_error_is_survived_and_the_log_stays_bounded():
    board, model, clock, dev, fs = _rig()
    limit = recovery.LOG_LIMIT
    recovery.LOG_LIMIT = 600  # small files: the capped test heap is no chip
    try:
        fs.write(recovery.LOG, b"x" * 590)
        dev.app.push(Faulty(MemoryError("memory allocation failed")))
        dev.loop(3, guard=True)
        assert dev.fault == recovery.RESTART
        older = fs.read(recovery.LOG + ".1")  # the full log moved aside
        assert older.startswith(b"xxxx") and b"MemoryError" in older
        assert not fs.exists(recovery.LOG)
        tap(dev, board, "A")
        clock.advance(recovery.RECRASH_MS + 1)
        fs.write(recovery.LOG, b"y" * 590)  # full again
        dev.app.push(Faulty(MemoryError("again")))
        dev.loop(3, guard=True)
        older = fs.read(recovery.LOG + ".1")  # replaced: the x's are gone
        assert older.startswith(b"yyyy") and b"again" in older, older[-200:]
        assert not fs.exists(recovery.LOG)
    finally:
        recovery.LOG_LIMIT = limit


def test_the_message_speaks_the_players_language_and_fits_both_screens():
    from firmware import font

    for lang in ("de", "en"):
        for again in (False, True):
            lines = recovery.lines(lang, again)
            assert 2 <= len(lines) <= 4
            for f, width in ((font.REGULAR, 128), (font.SMALL, 72)):
                for line in lines:
                    assert f.width(line) <= width, (lang, line, width)
    assert recovery.lines("de", False)[0].startswith("Ein Fehler")
    assert recovery.lines("en", False)[0].startswith("Something")
    board, model, clock, dev, fs = _rig("thumby")  # 72x40: the message on the small font
    dev.app.session.settings["lang"] = "en"
    dev.app.lang = "en"
    dev.app.push(Faulty(ValueError("v")))
    dev.loop(3, guard=True)
    assert dev.fault == recovery.RESTART and model.shows(dev.display.buffer)


def test_an_error_of_the_hook_is_not_swallowed():
    board, model, clock, dev, fs = _rig()

    def hook(d):
        raise AssertionError("the test's own failure")

    try:
        dev.loop(3, hook, guard=True)
    except AssertionError:
        return
    raise AssertionError("the hook's error was swallowed")


def _slots():
    """The two lists _fragment fills: made before the rig, while the heap
    still has a run of 12 KB for each (after it, a capped heap may not)."""
    import gc

    gc.collect()
    return [None] * 1500, [None] * 1500


def _fragment(slots):
    """Fill the heap (MicroPython) with blocks and let go of every other
    one: the free heap is then runs of a few hundred bytes, none of 1 KB
    (checked). Returns what holds it so; the caller drops it."""
    import gc

    gc.collect()
    big, small = slots
    n = 0
    try:
        while n < len(big):
            big[n] = bytearray(200)
            n += 1
    except MemoryError:
        pass
    m = 0
    try:  # the ends of runs too short for 200 bytes
        while m < len(small):
            small[m] = bytearray(8)
            m += 1
    except MemoryError:
        pass
    for i in range(0, n, 2):  # free runs of ~200 bytes between kept ones
        big[i] = None
    gc.collect()
    try:
        bytearray(1024)
    except MemoryError:
        return (big, small)
    raise AssertionError("the heap still has a free kilobyte: the rig proves nothing")


def test_the_failure_path_works_on_a_heap_with_no_free_kilobyte():
    import sys

    slots = _slots() if sys.implementation.name == "micropython" else None
    board, model, clock, dev, fs = _rig()
    if sys.implementation.name != "micropython":
        assert dev.spare is not None and len(dev.spare) == recovery.RESERVE
        return  # (CPython's heap is not the chip's: the path itself is tested above)
    app = dev.app  # held here: letting go of the app frees nothing of the heap
    app.push(Faulty(MemoryError("memory allocation failed, allocating 1280 bytes")))
    hold = _fragment(slots)
    slots = None  # noqa: F841  (held by `hold` now)
    dev.loop(3, guard=True)
    failed_then = (dev.fault, dev.app is None, len(machine.resets))
    hold = None  # noqa: F841  (the heap comes back for the restart)
    app = None  # noqa: F841
    assert failed_then == (recovery.RESTART, True, 0), failed_then
    log = fs.read(recovery.LOG).decode()
    assert "MemoryError" in log and "1280" in log, log
    assert model.shows(dev.display.buffer) and _text(model) > 0
    tap(dev, board, "A")
    assert dev.fault is None and dev.app.top().name == "title" and dev.spare is not None


def test_a_failure_while_a_failure_is_handled_resets_and_the_next_boot_resumes():
    board, model, clock, dev, fs = _rig()
    app = dev.app
    game = Game(preset("zehntausend"), [("Anna", ""), ("Ben", "")], app.dice)
    app.session.save_game(game)
    app.push(Faulty(ValueError("first")))
    show = recovery.show

    def broken_show(display, width, lang, again):
        raise MemoryError("memory allocation failed, allocating 1280 bytes")

    recovery.show = broken_show
    try:
        steps = dev.loop(10, guard=True)
    finally:
        recovery.show = show
    assert len(machine.resets) == 1 and steps < 10  # reset, and the loop stopped there
    log = fs.read(recovery.LOG).decode()
    assert log.count("--- ") == 2, log  # the failure, then the reset, both counted
    assert "ms ValueError" in log and "first" in log
    head = log[log.rindex("--- "):]
    assert head.split("\n")[0].endswith(" ms " + recovery.RESET), head
    assert "MemoryError while handling a failure" in head and "broken_show" in head, head
    # the next boot, on the same flash, resumes the saved game as after a power cut
    board, model, clock = device_rig()
    dev = device.start(board, machine, clock, dice=SeededDice(5), store=Store(fs), tables=None)
    dev.loop(3, guard=True)
    assert dev.fault is None and dev.app.top().name == "title"
    assert dev.app.state()["index"] == 0  # on "Weiter": the saved game
    tap(dev, board, "A")
    assert dev.app.top().name in ("play", "handover")
    assert isinstance(dev.app.stack[1], Play) and dev.app.stack[1].game.seats[0].name == "Anna"


def test_the_last_resort_logs_a_fixed_line_when_the_traceback_does_not_fit():
    fs = MemFS()

    class Unprintable(Exception):
        pass

    real = recovery.traceback_text

    def no_room(error):
        raise MemoryError()

    recovery.traceback_text = no_room
    try:
        recovery.log_reset(fs, Unprintable("x"), 5)
    finally:
        recovery.traceback_text = real
    assert fs.read(recovery.LOG) == recovery.RESET_ENTRY
