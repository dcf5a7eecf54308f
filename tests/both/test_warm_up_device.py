"""The warm-up after boot (firmware.app.App.warm_up, firmware.qstr_warmup):
on MicroPython it takes one WARM module a poll and gives way to a press;
elsewhere there is none. Runs under CPython and MicroPython."""

# isort: off
from tests.both.helpers import device_rig  # (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
# isort: on

import sys  # noqa: E402

from engine.dice import SeededDice  # noqa: E402
from firmware import app as app_mod  # noqa: E402
from firmware import device  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402

MICROPYTHON = sys.implementation.name == "micropython"


def _start():
    board, model, clock = device_rig()
    dev = device.start(board, machine, clock, dice=SeededDice(5), store=Store(MemFS()),
                       tables=None)
    return board, dev


def _cursor_frame_shown(dev):
    return dev.shows >= 2  # the title, then the moved cursor


def test_the_warm_up_takes_one_module_a_poll_and_gives_way_to_a_press():
    board, dev = _start()
    dev.loop(1)  # the title is on the panel
    if not MICROPYTHON:
        assert dev.app.warming is None  # CPython keeps every module: nothing to warm up
        return
    assert dev.app.warming == list(app_mod.WARM)[1:]  # the first one went in that pass
    dev.loop(2)
    assert len(dev.app.warming) == len(app_mod.WARM) - 3
    pin = board.BUTTONS["DOWN"]
    machine.press(pin)
    dev.loop(1)  # the press is answered in the pass that reads it, a module after it
    assert dev.app.state()["index"] == 1 and _cursor_frame_shown(dev)
    assert len(dev.app.warming) == len(app_mod.WARM) - 4
    machine.release(pin)
    dev.loop(3)
    assert dev.app.top().name == "title" and dev.app.state()["index"] == 1
    dev.loop(len(app_mod.WARM))
    assert dev.app.warming is None
    for name in app_mod.WARM:  # their names are in; their code is not on the heap
        if name not in ("engine.rules", "engine.levels"):  # (the title needs these two)
            assert name not in sys.modules, name
    assert "firmware.qstr_warmup" not in sys.modules
    import engine

    if getattr(engine, "__file__", "").endswith(".mpy"):  # compiled, as on the device
        from firmware.qstr_warmup import intern_module

        assert intern_module("engine.master")  # read from its file, not imported
        assert "engine.master" not in sys.modules
        assert not intern_module("engine.no_such_module")


def test_forget_lets_go_of_loaded_modules_on_micropython_only():
    board, dev = _start()
    import engine.view  # noqa: F401  (loaded now)

    dev.app.forget(("engine.view", "engine.no_such_module"))
    assert ("engine.view" in sys.modules) == (not MICROPYTHON)  # CPython keeps every module


def test_a_frozen_game_has_nothing_to_warm_up():
    assert not app_mod.frozen()  # these tests run the game from its files
    assert app_mod.frozen("firmware/no_such_module.py")  # a frozen module's __file__
    board, dev = _start()
    real = app_mod.frozen
    app_mod.frozen = lambda path=None: True
    try:
        dev.app.warm_up()
    finally:
        app_mod.frozen = real
    assert dev.app.warming is None
