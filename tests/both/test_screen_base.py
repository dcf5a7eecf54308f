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
