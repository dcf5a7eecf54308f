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


def test_a_frozen_game_preloads_its_modules_and_keeps_them():
    """With the game frozen into the firmware there are no names to intern:
    the warm-up loads the preload() modules a poll at a time, and going home
    or `forget` keep them (their code is in flash; loading one again would
    cost milliseconds)."""
    assert not app_mod.frozen()  # these tests run the game from its files
    assert app_mod.frozen("firmware/no_such_module.py")  # a frozen module's __file__
    assert not app_mod.in_rom()
    assert app_mod.in_rom("/rom/firmware/app.mpy")  # imported from a ROMFS partition
    assert not app_mod.in_rom("/firmware/app.mpy")
    board, dev = _start()
    app = dev.app
    assert not app.in_flash
    if not MICROPYTHON:
        app.warm_up()
        assert app.warming is None  # CPython keeps every module: nothing to warm up
        return
    app.in_flash = True  # as in a firmware with the game frozen in
    name = "firmware.screens.settings"  # one the title opens
    sys.modules.pop(name, None)
    before = [k for k in sys.modules]
    app.warm_up()
    assert app.warming == app_mod.preload()
    assert app_mod.preload().index(name) < 8  # among the first: what the title opens
    # Two of them: the Unix port's heap holds every module's code and names
    # (a chip's frozen firmware keeps them in flash), and the tests after
    # this one need it.
    app.warming = [name, "firmware.screens.stats_menu"]
    try:
        app.warm_step()
        assert name in sys.modules and app.warming == ["firmware.screens.stats_menu"]
        app.warm_step()
        assert app.warming is None
        app.forget((name,))
        app.home()
        assert name in sys.modules  # kept
    finally:  # give the heap back to the tests after this one
        app.in_flash = False
        app.forget([k for k in sys.modules if k not in before])


def _pass_with(dev, board, key):
    """A quick tap of `key`: one loop pass pressed (caught by its pin
    interrupt), two let go (each pass may take a warm step)."""
    pin = board.BUTTONS[key]
    machine.press(pin)
    dev.loop(1, guard=True)
    machine.release(pin)
    dev.loop(2, guard=True)


def test_presses_at_every_step_of_the_warm_up_break_nothing():
    """From every step of the warm-up on, a tap every three passes (into New
    game and back, the cursor): each is answered, the warm-up ends, no
    failure. (CPython has no warm-up: the presses are answered all the same.)"""
    keys = ("A", "B", "DOWN", "UP", "A", "DOWN", "B")
    for k in range(len(app_mod.WARM) + 1):
        board, dev = _start()
        dev.loop(1, guard=True)  # the title, the first warm step
        dev.loop(k, guard=True)  # k more quiet steps
        names = []
        for key in keys:
            _pass_with(dev, board, key)
            assert dev.fault is None and dev.app is not None, (k, key)
            names.append(dev.app.top().name)
        assert names == ["setup", "title", "title", "title", "setup", "setup", "title"], names
        assert dev.app.top().name == "title", (k, dev.app.top().name)
        n = dev.loop(2 * len(app_mod.WARM), lambda d: d.app.warming is None, guard=True)
        assert dev.fault is None and dev.app.warming is None and dev.app.pool_room is None, k
        assert n <= len(app_mod.WARM), (k, n)


def test_a_warm_step_short_of_room_gets_the_room_kept_for_it():
    """A warm step whose qstr pool finds no run long enough (MemoryError)
    lets go of the room kept since warm_up and goes again; with no room
    left the MemoryError is the app's (the supervisor's path)."""
    from firmware import qstr_warmup

    board, dev = _start()
    app = dev.app
    app.warming = ["engine.scoring", "engine.game"]
    app.pool_room = bytearray(64)
    tried = []

    def short_of_room(name):  # the heap has no long run while the room is held
        tried.append((name, app.pool_room is not None))
        if app.pool_room is not None:
            raise MemoryError("memory allocation failed, allocating 1280 bytes")
        return True

    real = qstr_warmup.intern_module
    qstr_warmup.intern_module = short_of_room
    try:
        app.warm_step()
        assert tried == [("engine.scoring", True), ("engine.scoring", False)]
        assert app.warming == ["engine.game"] and app.pool_room is None
        app.warming = ["engine.game", "engine.levels"]
        app.pool_room = None

        def none_left(name):
            raise MemoryError("memory allocation failed, allocating 1280 bytes")

        qstr_warmup.intern_module = none_left
        try:
            app.warm_step()
        except MemoryError:
            pass
        else:
            raise AssertionError("a MemoryError with no room left was swallowed")
    finally:
        qstr_warmup.intern_module = real
