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
