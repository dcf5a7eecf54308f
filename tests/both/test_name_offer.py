"""The letter grid's offer of a whole name (issue 34, point 3), under
CPython and the MicroPython Unix port: the likeliest name that begins with
what is typed, LEFT/RIGHT on it for the others, A takes it; drawn on the
128x64 panel without error. (tests/cpython/test_table_third.py drives it
by key presses through the simulator on both layouts.)"""

import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

from engine.dice import SeededDice  # noqa: E402
from firmware import buttons  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.first_names import complete  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


def _app():
    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    return App(canvas, 128, 64, Store(MemFS()), SeededDice(1), None, 0)


def test_complete_offers_the_names_used_before_first_then_the_list():
    assert complete("", ["Zoe"], []) == ""
    assert complete("Z", ["Zoe"], []) == "Zoe"
    assert complete("An", [], []) == "Anna"
    assert complete("An", [], ["Anna"]) == "Anja"
    assert complete("An", ["Anton", "Anna"], []) == "Anton"
    assert complete("An", ["Anton", "Anna"], [], "Anton", 1) == "Anna"
    assert complete("An", ["Anton", "Anna"], [], "Anna", 1) == "Anja"  # Anna once
    assert complete("An", ["Anton"], [], "Anton", -1) == "Andreas"  # round the ends
    assert complete("Anna", [], []) == ""
    assert complete("Xy", [], []) == ""


def test_typing_a_letter_offers_a_name_and_a_takes_it():
    from firmware.screens.typer import Typer, grid_rows

    app = _app()
    got = []
    typer = Typer([], lambda app, name: got.append(name), ["Zoe"])
    app.push(typer)
    rows = grid_rows(13)
    typer.row, typer.col = 1, 12  # the Z
    typer.on_key(app, buttons.A, "press")
    assert typer.typed == "Z" and typer.suggestion == "Zoe"
    assert typer.row == len(rows)  # the cursor on the offer (a name used before)
    app.top().draw(app, app.canvas)
    typer.on_key(app, buttons.RIGHT, "press")
    assert typer.suggestion == "Zoe"  # the only Z name: round the ends to itself
    typer.on_key(app, buttons.B, "press")
    assert typer.typed == "" and typer.suggestion == "" and typer.row < len(rows)
    typer.row, typer.col = 1, 12
    typer.on_key(app, buttons.A, "press")
    typer.on_key(app, buttons.A, "press")
    assert got == ["Zoe"]


def test_the_letter_grid_and_the_first_names_leave_the_heap_with_it():
    """firmware.screens.names stays loaded (the device warms it up); the
    grid's module and the first names are forgotten once no Typer is on
    the stack (App.release_modules, as going home does on the chip; the
    play and solving screens trim only while they are on top)."""
    import sys

    from firmware.screens.typer import Typer

    saved = dict(sys.modules)
    try:
        app = _app()
        typer = Typer([], lambda app, name: None, [])
        app.push(typer)  # (its first guess loads the first names)
        assert "firmware.screens.typer" in sys.modules and "firmware.first_names" in sys.modules
        app.pop()
        app.release_modules()
        assert "firmware.screens.typer" not in sys.modules
        assert "firmware.first_names" not in sys.modules
    finally:
        sys.modules.update(saved)
