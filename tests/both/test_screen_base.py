"""The screens' bases stay loaded when the app releases screen modules.

`App.home()` forgets the modules under firmware.screens. that no screen
on the stack needs (on MicroPython, to free their code). The Screen and
Menu bases live in firmware/screen.py, outside that prefix: releasing
never drops them, and a screen loaded again builds on the very same base
classes as the screens that stayed (here: the title at the bottom).
"""

import sys

import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

from engine.dice import SeededDice  # noqa: E402
from firmware import screen  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


def _app():
    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    return App(canvas, 128, 64, Store(MemFS()), SeededDice(1), None, 0)


def test_releasing_screens_keeps_the_bases():
    app = _app()
    kept = {}
    for name in sys.modules:
        kept[name] = sys.modules[name]
    menu = screen.Menu
    try:
        from firmware.screens.settings import Settings

        app.push(Settings())
        app.home()
        app.release_modules()  # what home() does on MicroPython
        assert "firmware.screens.settings" not in sys.modules
        assert "firmware.screens.title" in sys.modules  # the title is on the stack
        assert sys.modules["firmware.screen"] is screen and screen.Menu is menu
        from firmware.screens.settings import Settings as Again

        assert isinstance(Again(), menu) and isinstance(app.top(), menu)
    finally:
        for name in kept:  # CPython: the other tests go on with the first modules
            sys.modules[name] = kept[name]


def test_kept_texts_go_stale_with_the_stack_and_the_settings():
    """firmware.screen.Kept: the one rule for a screen's kept texts."""
    app = _app()
    kept = screen.Kept()
    assert kept.get(app) is None
    assert kept.keep(app, ["a"]) == ["a"] and kept.get(app) == ["a"]
    app.push(screen.Screen())  # the stack changed
    assert kept.get(app) is None
    kept.keep(app, ["b"])
    app.lang = "en"  # a setting changed (the language)
    assert kept.get(app) is None and app.session.settings["lang"] == "en"
    kept.keep(app, ["c"])
    kept.drop()  # its owner changed what it shows
    assert kept.get(app) is None


def test_a_menu_relabels_after_a_value_change_only():
    app = _app()
    made = []

    class Counted(screen.Menu):
        def labels(self, app):
            made.append(1)
            return ["x", "y", "z"]

    menu = Counted()
    app.push(menu)
    menu.texts(app)
    menu.on_key(app, 2, "press")  # DOWN: a cursor move keeps the labels
    menu.texts(app)
    assert len(made) == 1 and menu.index == 1
    menu.relabel()
    menu.texts(app)
    assert len(made) == 2
