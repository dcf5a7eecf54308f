"""A menu's value change makes only what changed, under CPython and the
MicroPython Unix port (issue 30, point 3): the rules editor's rows are
kept by option, value and mark; a setting no text depends on keeps the
app's texts."""

import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

from engine.dice import SeededDice  # noqa: E402
from engine.rules import preset  # noqa: E402
from firmware import buttons  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


def _app():
    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    return App(canvas, 128, 64, Store(MemFS()), SeededDice(1), None, 0)


def test_a_rules_change_makes_its_row_again():
    from firmware.screens.rules_edit import ROWS, RulesEditor

    app = _app()
    editor = RulesEditor(preset("zehntausend"), lambda *a: None)
    app.push(editor)
    made = []
    real = editor._row_text

    def counting(app, key, value, mark):
        made.append(key)
        return real(app, key, value, mark)

    editor._row_text = counting
    first = editor.labels(app)
    assert sorted(made) == sorted(ROWS)
    del made[:]
    editor.index = ROWS.index("three_pairs")
    editor.on_key(app, buttons.RIGHT, "press")
    labels = editor.labels(app)
    assert made == ["three_pairs"]
    assert labels != first and labels[editor.index] != first[editor.index]
    other = RulesEditor(preset("zehntausend"), lambda *a: None)
    other.opts = dict(editor.opts)
    assert other.labels(app) == labels  # the kept rows are what making them gives


def test_contrast_keeps_the_texts_and_the_language_does_not():
    from firmware.screens.settings import Settings

    app = _app()
    app.push(Settings())
    settings = app.top()
    rows = settings._rows(app)
    version = app.version
    settings.index = rows.index("contrast")
    settings.on_key(app, buttons.RIGHT, "press")
    assert app.version == version and app.settings_version == 1
    settings.index = rows.index("lang")
    settings.on_key(app, buttons.RIGHT, "press")
    assert app.version == version + 1 and app.settings_version == 2


def test_a_rules_change_shows_before_the_engine_checks_it():
    """The new value goes to the panel (App.flush) before `problem` makes a
    Rules to check the set; a refused set still gets its mark after."""
    from firmware.screens import rules_edit
    from firmware.screens.rules_edit import ROWS, RulesEditor

    app = _app()
    shown = []
    app.show_now = lambda: shown.append(1)
    editor = RulesEditor(preset("zehntausend"), lambda *a: None)
    app.push(editor)
    editor.labels(app)
    checks = []
    real = rules_edit.problem

    def checking(opts):
        checks.append(len(shown))
        return real(opts)

    rules_edit.problem = checking
    try:
        editor.index = ROWS.index("three_pairs")
        editor.on_key(app, buttons.RIGHT, "press")
        assert checks == [1]  # one frame was on the panel when the set was checked
        assert editor.found is None
    finally:
        rules_edit.problem = real


def test_the_editor_makes_only_the_rows_it_shows():
    """Its first frame makes the rows the list shows, not all 20 (Ui.menu
    reads them from RulesEditor.texts as it draws)."""
    from firmware.screens.rules_edit import ROWS, RulesEditor

    app = _app()
    editor = RulesEditor(preset("zehntausend"), lambda *a: None)
    app.push(editor)
    made = []
    real = editor._row_text

    def counting(app, key, value, mark):
        made.append(key)
        return real(app, key, value, mark)

    editor._row_text = counting
    editor.draw(app, app.canvas)
    shown = app.ui.scroll(0)[1]
    assert made == list(ROWS[:shown])
    rows = editor.texts(app)
    assert len(rows) == len(ROWS) + 2 and rows[-1] == app.t("rules_use")
    assert rows[len(ROWS)] == app.t("rules_save")
    editor.on_key(app, buttons.UP, "press")  # round to "use": the list shows the last rows
    editor.draw(app, app.canvas)
    assert editor.index == len(rows) - 1 and len(made) == 2 * shown - 2  # (two are actions)
