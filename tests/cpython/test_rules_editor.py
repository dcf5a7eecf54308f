"""The rules editor through the headless simulator, by key presses: every
option reachable and changeable, linked options changed along and named,
B asking only about unsaved changes, a custom set saved under a name,
reused for a new game after a power cycle, and shown in the help."""

from engine.rules import PRESETS, Rules, preset
from firmware import strings
from firmware.app import App as FullApp
from firmware.screens.rules_edit import ROWS, RulesEditor, problem, problem_text
from firmware.screens.standings import Standings
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
    """Type `word` on the Typer and take it (simdriver.type_name)."""
    from tests.cpython.simdriver import type_name

    type_name(sim, word)


def _set(sim, key, value):
    """Move to option `key` and press RIGHT until it has `value`; a page
    naming linked changes is closed with A. Returns the lines of the last
    such page ([] when nothing else changed on the last step)."""
    _to_index(sim, ROWS.index(key))
    told = []
    for _ in range(200):
        v = sim.state()["opts"][key]
        if v == (list(value) if isinstance(value, tuple) else value):
            return told
        told = _step(sim, "RIGHT")
    raise AssertionError("could not set %s to %r" % (key, value))


def _step(sim, key):
    """Press `key` in the editor; close the page of linked changes if one
    opens and return its lines joined by spaces (a line wraps on the
    Thumby), or [] when none opened."""
    press(sim, key)
    state = sim.state()
    if state["screen"] != "rules_linked":
        assert state["screen"] == "rules_edit"
        return []
    assert state["title"] == sim.app.t("rules_linked")
    for line in state["lines"]:
        assert sim.app.ui.width(line) <= sim.app.ui.w, line
    press(sim, "A")
    assert sim.state()["screen"] == "rules_edit"
    return " ".join(state["lines"])


def _valid(sim):
    """The options being edited, checked by the engine."""
    opts = dict(sim.state()["opts"])
    opts["small_straights"] = tuple(opts["small_straights"])
    assert sim.state()["problem"] == ""
    return Rules(**opts)


def test_every_option_can_be_changed(tmp_path):
    sim = Sim("thumby", str(tmp_path), 1)
    _open_editor(sim)
    start = dict(sim.state()["opts"])
    for i, key in enumerate(ROWS):
        _to_index(sim, i)
        _step(sim, "RIGHT")
        changed = sim.state()["opts"][key]
        assert changed != start[key], key
        _valid(sim)
        _step(sim, "LEFT")
        assert sim.state()["opts"] == start, key  # linked options came back too
    assert not sim.state()["changed"]
    press(sim, "B")  # nothing changed: no question
    assert sim.state()["screen"] == "setup"


def _told(lang, *changes):
    """What the page of linked changes says for these (key, value) pairs."""
    class App:
        def t(self, k):
            return strings.text(lang, k)

    from firmware.screens.rules_edit import value_text

    return " ".join("%s: %s" % (strings.text(lang, "opt_" + key), value_text(App(), key, value))
                    for key, value in changes)


def test_linked_options_change_along_and_are_named(tmp_path):
    for board in BOARDS:
        for lang in ("de", "en"):
            sim = Sim(board, str(tmp_path / board / lang), 1)
            sim.app.lang = lang
            _open_editor(sim, PRESETS.index("international"))
            # 5 dice: every six-dice combination goes off, named one per line
            told = _set(sim, "dice", 5)
            assert told == _told(lang, *[(k, 0) for k in
                                         ("straight", "three_pairs", "quad_pair", "two_triplets")])
            assert _valid(sim) == preset("international").replace(
                dice=5, straight=0, three_pairs=0, quad_pair=0, two_triplets=0)
            # straight back to 6 dice: they come back as they were
            assert _step(sim, "LEFT") == _told(lang, ("straight", 1500), ("three_pairs", 1500),
                                               ("quad_pair", 1500), ("two_triplets", 2500))
            assert _valid(sim) == preset("international")
            # five=5000 needs 5 dice; a straight needs 6 and takes five=5000 back
            assert _set(sim, "n_of_kind", "five_flat").startswith(_told(lang, ("dice", 5)))
            _valid(sim)
            assert _set(sim, "straight", 500) == _told(lang, ("dice", 6),
                                                       ("n_of_kind", "double"))
            _valid(sim)
            # exact target and finish "exact" follow each other
            assert _set(sim, "exact", True) == _told(lang, ("finish", "exact"))
            assert _set(sim, "finish", "immediate") == _told(lang, ("exact", False))
            _valid(sim)
            # the lowest target the editor offers holds the highest entry
            _set(sim, "entry", 1000)
            _to_index(sim, ROWS.index("target"))
            assert _step(sim, "RIGHT") == []  # 10000 -> 12000: the common targets
            press(sim, *["LEFT"] * 10)  # -> 1000 (12000 and the ten steps of 1000 below)
            assert _valid(sim).target == 1000 and _valid(sim).entry == 1000


def test_an_entry_above_a_sets_own_target_raises_it(tmp_path):
    """A saved set's own target (500, below the targets the editor offers)
    stays in the target's cycle; an entry above it raises it, and stepping
    the entry straight back brings it back."""
    for lang in ("de", "en"):
        sim = Sim("pico_ssd1306_i2c", str(tmp_path / lang), 1)
        sim.app.lang = lang
        sim.app.session.save_ruleset("Klein", preset("zehntausend").replace(target=500))
        _open_editor(sim, len(PRESETS))  # the saved set after the presets
        assert sim.state()["opts"]["target"] == 500
        _to_index(sim, ROWS.index("entry"))
        press(sim, "RIGHT", "RIGHT", "RIGHT")  # 0 -> 300 -> 350 -> 500
        assert _step(sim, "RIGHT") == _told(lang, ("target", 1000))  # -> 1000
        assert _valid(sim).target == 1000
        assert _step(sim, "LEFT") == _told(lang, ("target", 500))  # straight back
        assert _valid(sim).target == 500 and _valid(sim).entry == 500
        _to_index(sim, ROWS.index("target"))
        assert _step(sim, "RIGHT") == []  # 500 -> 1000, the next common target
        assert _valid(sim).target == 1000


def test_the_linked_page_fits_and_scrolls(tmp_path):
    sim = Sim("thumby", str(tmp_path), 1)
    sim.app.lang = "de"
    _open_editor(sim, PRESETS.index("international"))
    _to_index(sim, ROWS.index("dice"))
    press(sim, "RIGHT")
    state = sim.state()
    assert state["screen"] == "rules_linked" and len(state["lines"]) == 4
    for line in state["lines"]:
        assert sim.app.ui.width(line) <= sim.app.ui.w
    press(sim, "DOWN")  # more lines than the Thumby shows: they scroll
    assert sim.state()["first"] == 1
    press(sim, "B")
    assert sim.state()["screen"] == "rules_edit"


def test_b_asks_only_about_unsaved_changes(tmp_path):
    for board in BOARDS:
        sim = Sim(board, str(tmp_path / board), 1)
        _open_editor(sim)
        _set(sim, "penalty", 500)
        _step(sim, "LEFT")  # changed back: nothing to lose
        press(sim, "B")
        assert sim.state()["screen"] == "setup"
        press(sim, "A")
        _set(sim, "penalty", 500)
        press(sim, "B")
        state = sim.state()
        assert state["screen"] == "rules_unsaved" and state["index"] == 0
        assert sim.app.top().labels(sim.app) == [
            sim.app.t("rules_keep"), sim.app.t("rules_discard"), sim.app.t("rules_use")]
        press(sim, "B")  # B again: still editing, nothing lost
        assert sim.state()["screen"] == "rules_edit"
        assert sim.state()["opts"]["penalty"] == 500
        press(sim, "B", "A")  # keep editing
        assert sim.state()["screen"] == "rules_edit"
        assert sim.state()["opts"]["penalty"] == 500
        press(sim, "B", "DOWN", "A")  # discard
        assert sim.state()["screen"] == "setup"
        assert sim.app.top().labels(sim.app)[0].endswith(strings.text("de", "preset_zehntausend"))
        press(sim, "A")
        assert sim.state()["opts"]["penalty"] == 0
        _set(sim, "penalty", 1000)
        press(sim, "B", "DOWN", "DOWN", "A")  # use them
        assert sim.state()["screen"] == "setup"
        _to_row(sim, "start")
        press(sim, "A")
        play = [s for s in sim.app.stack if s.name == "play"][0]
        assert play.game.rules == preset("zehntausend").replace(penalty=1000)


def test_apply_entry_and_takeover_option_share_no_word(tmp_path):
    import re

    for lang in ("de", "en"):
        sim = Sim("pico_ssd1306_i2c", str(tmp_path / lang), 1)
        sim.app.lang = lang
        _open_editor(sim)
        labels = sim.app.top().labels(sim.app)
        takeover = labels[ROWS.index("takeover")]
        use = labels[sim.app.top()._rows().index("use")]
        assert use == strings.text(lang, "rules_use")

        def words(s):
            return {w.lower() for w in re.split(r"[^\w]+", s) if len(w) > 2}

        assert not words(takeover) & words(use), (takeover, use)
        assert not words(strings.text(lang, "opt_takeover")) & words(
            " ".join(strings.text(lang, k) for k in ("rules_keep", "rules_discard")))


def test_a_set_the_engine_refuses_is_still_explained(tmp_path):
    """The safety net: should the editor ever hold options the engine
    refuses (a dependency `settle` does not know), the option is marked,
    the problem named and the set not used."""
    for lang in ("de", "en"):
        sim = Sim("pico_ssd1306_i2c", str(tmp_path / lang), 1)
        sim.app.lang = lang
        _open_editor(sim)
        editor = sim.app.top()
        editor.opts["dice"] = 5  # as if set without its linked options
        editor.found = problem(editor.opts)
        assert sim.state()["problem"] == "straight"
        label = editor.labels(sim.app)[ROWS.index("straight")]
        assert label.startswith("!")
        assert editor.problem_line(sim.app) == strings.text(
            lang, "rule_why_six_dice_short") % strings.text(lang, "opt_straight")
        _to_row(sim, "use")
        press(sim, "A")
        state = sim.state()
        assert state["screen"] == "message"
        assert state["title"] == strings.text(lang, "rules_bad")
        assert " ".join(state["lines"]) == strings.text(lang, "rule_why_six_dice") % strings.text(
            lang, "opt_straight")
        press(sim, "B")
        assert sim.state()["screen"] == "rules_edit"


def test_problem_texts():
    class App:
        lang = "de"

        def t(self, key):
            return strings.text(self.lang, key)

        tf = FullApp.tf  # the real filling of a reason text

    opts = preset("zehntausend").to_dict()
    opts["n_of_kind"] = "five_flat"
    found = problem(opts)
    assert found[0] == "n_of_kind"
    assert problem_text(App(), found) == texts_de.TEXTS["rule_why_five_flat"]
    assert problem(preset("fuenf").to_dict()) is None


def test_custom_set_saved_reused_and_shown_in_help(tmp_path):
    for board in BOARDS:
        data = str(tmp_path / board)
        sim = Sim(board, data, 2)
        _open_editor(sim, PRESETS.index("fuenf"))  # start from "Fünf Würfel"
        assert sim.state()["opts"]["dice"] == 5
        _set(sim, "penalty", 500)
        _to_index(sim, ROWS.index("target"))
        press(sim, *["LEFT"] * 5)  # 10000 -> 9000 -> ... -> 5000
        expect = preset("fuenf").replace(penalty=500, target=5000)
        _to_row(sim, "save")
        press(sim, "A")
        _type(sim, "Haus")
        state = sim.state()
        assert state["screen"] == "message" and state["lines"] == ["Haus"]
        press(sim, "A")
        assert sim.state()["name"] == "Haus"
        assert not sim.state()["changed"]  # saved: B would not ask
        assert sim.app.session.rulesets() == [["Haus", expect.encode()]]
        _to_row(sim, "use")
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
    _to_row(sim, "delete")
    press(sim, "A")
    assert sim.app.session.rulesets() == []
    assert sim.state()["name"] is None


def test_editor_starts_from_any_preset():
    for key in PRESETS:
        editor = RulesEditor(preset(key), None)
        assert Rules(**editor.opts) == preset(key)


def test_a_value_change_makes_only_its_own_row_again(tmp_path):
    """The rows' texts are kept by option, value and mark: a change makes
    its row's text again, the others are the kept ones; the texts equal a
    fresh editor's, and a language change makes them all again."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1)
    _open_editor(sim)
    editor = sim.app.top()
    made = []
    real = editor._row_text

    def counting(app, key, value, mark):
        made.append(key)
        return real(app, key, value, mark)

    editor._row_text = counting
    editor.labels(sim.app)  # drawn already: the rows shown are kept, the rest made now
    shown = sim.app.ui.scroll(0)[1]
    assert sorted(made) == sorted(ROWS[shown:])
    del made[:]
    editor.labels(sim.app)
    assert made == []  # every row is kept
    _to_index(sim, ROWS.index("three_pairs"))
    assert _step(sim, "RIGHT") == []  # (no linked option moved along: no page opened)
    assert made == ["three_pairs"]
    fresh = RulesEditor(Rules(**editor.opts), lambda *a: None)
    assert editor.labels(sim.app) == fresh.labels(sim.app)
    del made[:]
    sim.app.lang = "en" if sim.app.lang == "de" else "de"
    labels = editor.labels(sim.app)
    assert sorted(made) == sorted(ROWS)
    assert labels == RulesEditor(Rules(**editor.opts), lambda *a: None).labels(sim.app)
