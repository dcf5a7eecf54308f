"""What a menu's value change works out again, through the headless
simulator: only what changed (issue 30, point 3: every menu within a frame
on the chip, where each text, fit and Rules made costs a millisecond)."""

import pytest

from simulator.host import Sim
from tests.cpython.simdriver import press


def test_the_new_game_form_makes_the_plan_rules_once_a_rules_choice(tmp_path):
    """A seat count or target change keeps the rules choice: the start row's
    solve estimate is not worked out again (two Rules and an encoding a
    redraw); a new choice works it out, and the row says what it did."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    press(sim, "A")  # New game: a person and a Profi (a plan player)
    form = sim.app.top()
    assert form.name == "setup" and [k for _, k in form.seats] == ["", "profi"]
    made = []
    real = form._rules

    def counting(app):
        made.append(form._choice())
        return real(app)

    form._rules = counting
    press(sim, "DOWN", "RIGHT", "RIGHT", "LEFT")  # the target row: three changes
    press(sim, "DOWN", "RIGHT", "LEFT")  # the seat count: a seat more, and less
    assert made == []
    start = form.labels(sim.app)[-1]
    press(sim, "UP", "UP", "RIGHT")  # the rules row: the next preset
    assert made == [1, 1]  # the preset's target (Setup.change), then the estimate
    assert form.labels(sim.app)[-1] == start == sim.app.t("start_game")  # presets: shipped plans
    press(sim, "LEFT")
    assert made == [1, 1, 0, 0]


def _open(sim, key):
    """Title -> the entry `key` (A)."""
    labels = sim.app.top().labels(sim.app)
    target = labels.index(sim.app.t(key))
    while sim.state()["index"] != target:
        press(sim, "DOWN")
    press(sim, "A")


def test_a_setting_no_text_depends_on_keeps_the_texts(tmp_path):
    """Contrast, sleep, dice: applied by the device (settings_version), the
    texts kept (version stays); the language makes them all again."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    app = sim.app
    _open(sim, "settings_title")
    rows = app.top()._rows(app)
    for row in ("contrast", "sleep", "dice"):
        while rows[sim.state()["index"]] != row:
            press(sim, "DOWN")
        version, applied = app.version, app.settings_version
        label = app.top().labels(app)[sim.state()["index"]]
        press(sim, "RIGHT")
        assert app.settings_version == applied + 1 and app.version == version, row
        assert app.top().labels(app)[sim.state()["index"]] != label  # the new value shows
    while rows[sim.state()["index"]] != "lang":
        press(sim, "UP")
    version, title = app.version, app.top().title(app)
    press(sim, "RIGHT")
    assert app.version == version + 1 and app.top().title(app) != title


def test_a_new_pad_shows_before_it_is_saved(tmp_path):
    """Starting a score pad saves it, the names and the settings (about 140 ms
    of flash on the chip): the pad is on the panel first."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    app = sim.app
    shown = []
    app.show_now = lambda: shown.append(app.top().name)
    saves = []
    session = app.session
    real = session.save_pad

    def save_pad(pad):
        saves.append(list(shown))
        return real(pad)

    session.save_pad = save_pad
    _open(sim, "pad_title")
    assert sim.state()["screen"] == "pad_setup"
    form = app.top()
    while sim.state()["index"] != len(form.labels(app)) - 1:
        press(sim, "UP")
    del shown[:]
    press(sim, "A")
    assert sim.state()["screen"] == "pad"
    assert saves == [["pad"]]  # the pad was on the panel when it was saved
    assert session.has_pad()


def _whole_frame(sim):
    """The top screen drawn whole on a fresh canvas (its kept frame left as
    it was): what the panel must show."""
    import framebuf

    from firmware.canvas import Canvas

    app = sim.app
    assert app is not None
    screen = app.top()
    kept = dict(screen.__dict__)
    buf = bytearray(len(sim.buf))
    screen._drawn_at = -2  # not the frame it drew last: a whole draw
    screen.draw(app, Canvas(buf, app.width, app.height, framebuf.MONO_VLSB))
    screen.__dict__.clear()
    screen.__dict__.update(kept)
    return bytes(buf)


@pytest.mark.parametrize("board", ["pico_ssd1306_i2c", "thumby"])
def test_a_cursor_move_redraws_two_rows_and_shows_the_whole_menu(tmp_path, board):
    """A cursor move that scrolls nothing draws only the two rows whose
    highlight moved and the hint (Menu.draw): the frame equals the menu
    drawn whole after every move, up and down, scrolling or not, in the
    new-game form, the rules editor, the title and the settings, on both
    layouts."""
    sim = Sim(board, str(tmp_path), seed=1)
    app = sim.app
    assert app is not None
    partial = []
    real_row = app.ui.menu_row

    def counting(*args):
        partial.append(app.top().name)
        return real_row(*args)

    app.ui.menu_row = counting  # pyright: ignore[reportAttributeAccessIssue]  (a counting stand-in)

    def walk(name, count):
        assert app.top().name == name
        for key in ["DOWN"] * count + ["UP"] * count + ["UP", "DOWN"]:
            press(sim, key)
            assert bytes(sim.buf) == _whole_frame(sim), (name, key, app.top().index)

    walk("title", len(app.top().labels(app)) + 1)
    _open(sim, "settings_title")
    walk("settings", len(app.top().labels(app)) + 1)
    press(sim, "B")
    _open(sim, "new_game")
    walk("setup", len(app.top().labels(app)) + 1)
    while app.top().index != 0:
        press(sim, "UP")
    press(sim, "A")  # the rules row: the editor
    walk("rules_edit", len(app.top().labels(app)) + 1)
    assert {"title", "settings", "setup", "rules_edit"} <= set(partial)
