"""The rules editor through the headless simulator, by key presses: every
option reachable and changeable, refused combinations explained, a custom
set saved under a name, reused for a new game after a power cycle, and
shown in the help."""

from engine.rules import KEYS, PRESETS, Rules, preset
from firmware import strings
from firmware.screens.rules_edit import RulesEditor, problem, problem_text
from firmware.screens.table import Standings
from simulator.host import Sim
from tests.cpython.simdriver import press
from tools.texts import de as texts_de

BOARDS = ("pico_ssd1306_i2c", "thumby")


def _to_index(sim, index):
    while sim.state()["index"] != index:
        press(sim, "DOWN")


def _to_row(sim, row):
    rows = sim.app.top()._rows()
    _to_index(sim, rows.index(row))


def _open_editor(sim, preset_steps=0):
    """Title -> New game -> rules row (RIGHT preset_steps) -> A: the editor."""
    assert sim.state()["screen"] == "title"
    labels = sim.app.top().labels(sim.app)
    _to_index(sim, labels.index(sim.app.t("new_game")))
    press(sim, "A")
    press(sim, *["RIGHT"] * preset_steps)
    press(sim, "A")
    assert sim.state()["screen"] == "rules_edit"


def _type(sim, word):
    """Type `word` on the Typer (letters A-Z then a-z only)."""
    from firmware.screens.names import ALPHABET

    assert sim.state()["screen"] == "typer"
    for i, ch in enumerate(word):
        if i:
            press(sim, "RIGHT")
        now = sim.app.top().chars[i]
        steps = (ALPHABET.index(ch) - now) % len(ALPHABET)
        press(sim, *["DOWN"] * steps)
    assert sim.state()["text"] == word
    press(sim, "A")


def _set(sim, key, value):
    """Move to option `key` and press RIGHT until it has `value`."""
    _to_index(sim, KEYS.index(key))
    for _ in range(200):
        v = sim.state()["opts"][key]
        if v == (list(value) if isinstance(value, tuple) else value):
            return
        press(sim, "RIGHT")
    raise AssertionError("could not set %s to %r" % (key, value))


def test_every_option_can_be_changed(tmp_path):
    sim = Sim("thumby", str(tmp_path), 1)
    _open_editor(sim)
    start = dict(sim.state()["opts"])
    for i, key in enumerate(KEYS):
        _to_index(sim, i)
        press(sim, "RIGHT")
        changed = sim.state()["opts"][key]
        assert changed != start[key], key
        press(sim, "LEFT")
        assert sim.state()["opts"][key] == start[key], key
    press(sim, "B")
    assert sim.state()["screen"] == "setup"


def test_refused_combinations_are_explained(tmp_path):
    for lang in ("de", "en"):
        sim = Sim("pico_ssd1306_i2c", str(tmp_path / lang), 1)
        sim.app.lang = lang
        _open_editor(sim)
        _set(sim, "dice", 5)  # straight and three pairs need 6 dice
        state = sim.state()
        assert state["problem"] == "straight"
        label = sim.app.top().labels(sim.app)[KEYS.index("straight")]
        assert label.startswith("!")
        hint = strings.text(lang, "bad_six_dice") % strings.text(lang, "opt_straight")
        assert sim.app.top().problem_line(sim.app) == strings.text(
            lang, "bad_six_dice_short") % strings.text(lang, "opt_straight")
        _to_index(sim, len(KEYS))  # "Use these"
        press(sim, "A")
        state = sim.state()
        assert state["screen"] == "message"
        assert state["title"] == strings.text(lang, "rules_bad")
        assert " ".join(state["lines"]) == hint
        press(sim, "B")
        _set(sim, "straight", 0)
        assert sim.state()["problem"] == "three_pairs"
        _set(sim, "three_pairs", 0)
        assert sim.state()["problem"] == ""
        _set(sim, "exact", True)
        assert sim.state()["problem"] == "exact"
        assert sim.app.top().problem_line(sim.app) == strings.text(lang, "bad_exact_short")
        _set(sim, "finish", "exact")
        assert sim.state()["problem"] == ""
        _set(sim, "entry", 1000)
        _to_index(sim, KEYS.index("target"))
        press(sim, *["LEFT"] * 19)  # 10000 -> 500
        assert sim.state()["opts"]["target"] == 500
        assert sim.state()["problem"] == "entry"
        assert sim.app.top().problem_line(sim.app) == strings.text(lang, "bad_entry_short")


def test_problem_texts():
    class App:
        lang = "de"

        def t(self, key):
            return strings.text(self.lang, key)

    opts = preset("zehntausend").to_dict()
    opts["n_of_kind"] = "five_flat"
    found = problem(opts)
    assert found[0] == "n_of_kind"
    assert problem_text(App(), found) == texts_de.TEXTS["bad_five_flat"]
    assert problem(preset("fuenf").to_dict()) is None


def test_custom_set_saved_reused_and_shown_in_help(tmp_path):
    for board in BOARDS:
        data = str(tmp_path / board)
        sim = Sim(board, data, 2)
        _open_editor(sim, PRESETS.index("fuenf"))  # start from "Fünf Würfel"
        assert sim.state()["opts"]["dice"] == 5
        _set(sim, "penalty", 500)
        _to_index(sim, KEYS.index("target"))
        press(sim, *["LEFT"] * 10)  # 10000 -> 5000
        expect = preset("fuenf").replace(penalty=500, target=5000)
        _to_index(sim, len(KEYS) + 1)  # "Save as…"
        press(sim, "A")
        _type(sim, "Haus")
        state = sim.state()
        assert state["screen"] == "message" and state["lines"] == ["Haus"]
        press(sim, "A")
        assert sim.state()["name"] == "Haus"
        assert sim.app.session.rulesets() == [["Haus", expect.encode()]]
        _to_index(sim, len(KEYS))  # "Use these"
        press(sim, "A")
        state = sim.state()
        assert state["screen"] == "setup" and state["target"] == 5000
        assert sim.app.top().labels(sim.app)[0].endswith("Haus")
        _to_row(sim, "start")
        press(sim, "A")
        play = [s for s in sim.app.stack if s.name == "play"][0]
        assert play.game.rules == expect

        # Power cycle; the form starts from the last table: the saved set,
        # the row after the presets.
        again = Sim(board, data, 3)
        labels = again.app.top().labels(again.app)
        _to_index(again, labels.index(again.app.t("new_game")))
        press(again, "A")
        assert again.app.top().preset == len(PRESETS)
        assert again.app.top().labels(again.app)[0].endswith("Haus")
        assert again.state()["target"] == 5000
        _to_row(again, "start")
        press(again, "A")
        assert again.state()["screen"] == "confirm"  # the first game is still running
        press(again, "A")
        play = [s for s in again.app.stack if s.name == "play"][0]
        assert play.game.rules == expect

        # The help shows it: from the title (after the presets) ...
        third = Sim(board, data, 4)
        labels = third.app.top().labels(third.app)
        _to_index(third, labels.index(third.app.t("help")))
        press(third, "A")
        press(third, *["RIGHT"] * len(PRESETS))
        assert third.state()["set"] == "Haus"
        assert third.state()["rules"] == expect.encode()
        _to_index(third, 3)  # "These rules"
        press(third, "A")
        text = " ".join(third.app.top().lines(third.app))
        assert (third.app.t("op_dice") % (5, 5000)) in text
        assert (third.app.t("op_penalty") % 500).split()[-2] in text
        press(third, "B", "B")

        # ... and from the game's standings.
        play = [s for s in again.app.stack if s.name == "play"][0]
        if again.state()["screen"] == "handover":
            press(again, "B")
        else:
            again.app.push(Standings(play.game))
        assert again.state()["screen"] == "standings"
        labels = again.app.top().labels(again.app)
        _to_index(again, labels.index(again.app.t("help")))
        press(again, "A")
        assert again.state()["screen"] == "help"
        assert again.state()["rules"] == expect.encode()
        press(again, "RIGHT")  # fixed to the game's rules
        assert again.state()["rules"] == expect.encode()


def test_delete_a_saved_set(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 2)
    sim.app.session.save_ruleset("Alt", preset("kneipe").replace(penalty=1000))
    _open_editor(sim, len(PRESETS))
    assert sim.state()["name"] == "Alt"
    rows = len(sim.app.top().labels(sim.app))
    _to_index(sim, rows - 1)  # "Delete"
    press(sim, "A")
    assert sim.app.session.rulesets() == []
    assert sim.state()["name"] is None


def test_editor_starts_from_any_preset():
    for key in PRESETS:
        editor = RulesEditor(preset(key), None)
        assert Rules(**editor.opts) == preset(key)
