"""Issue 25, "at the table", by key presses on both layouts: the setting
that drops the question before rolling on and banking, what the hint line
offers, the three-farkle warning and penalty, leaving, the race on the
play header, the final round, and the small things."""

import pytest

from engine.rules import preset
from firmware.screens.play import Play
from simulator.host import Sim
from tests.cpython.simdriver import press, scripted_game, settle
from tests.cpython.test_pad_screens import title_to
from tests.cpython.test_settings_screens import row

BOARDS = ("pico_ssd1306_i2c", "thumby")


def _sim(tmp_path, board, rules, faces, names=("Anna", "Ben"), scores=(), lang="de"):
    sim = Sim(board, str(tmp_path / board / lang), seed=1)
    sim.app.lang = lang
    seats = [n if isinstance(n, tuple) else (n, "") for n in names]
    game = scripted_game(rules, seats, faces, scores)
    sim.app.home(Play(sim.app, game))
    sim.run(200)
    return sim, game


@pytest.fixture
def drawn(monkeypatch):
    """drawn(sim): every text on the current screen after a fresh redraw,
    once the dice have settled (`settle=False`: as it is now); each must
    fit the panel."""
    from firmware import font

    log = []
    orig = font.Font.draw

    def draw(self, canvas, s, x, y, c=1):
        log.append((s, x, self.width(s)))
        return orig(self, canvas, s, x, y, c)

    monkeypatch.setattr(font.Font, "draw", draw)

    def texts(sim, settle_first=True):
        if settle_first:
            settle(sim)
        del log[:]
        sim.app.draws += 1  # a whole redraw: a menu would draw only what a cursor move changed
        sim.app.redraw()
        sim.step(0)
        for s, x, w in log:
            assert x >= 0 and x + w <= sim.app.width, (sim.board, s)
        return [s for s, _, _ in log]

    return texts


def _ask_off(sim):
    """Switch "ask first" off in the settings by key presses, back to the title."""
    sim.app.home(sim.app.stack[0])
    title_to(sim, "settings_title")
    row(sim, "set_ask")
    assert sim.app.session.settings["ask"] is True  # on by default
    press(sim, "A")
    assert sim.app.session.settings["ask"] is False
    press(sim, "B")


# ------------------------------------------------------------ 2. ask first


@pytest.mark.parametrize("board", BOARDS)
def test_with_ask_off_rolling_on_and_banking_take_one_press(tmp_path, board, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 5, 2, 3, 4, 4, 1, 2, 3, 4])
    _ask_off(sim)
    sim.app.home(Play(sim.app, game))
    sim.run(200)
    press(sim, "A")  # hand-over: roll
    press(sim, "UP")  # picks 1 and 5, rolls on at once
    assert game.turn_total == 150 and game.roll == (1, 2, 3, 4)
    assert not sim.state()["asking"]
    press(sim, "DOWN")  # picks the 1, banks at once
    assert game.seats[0].score == 250 and game.current == 1
    # Kept after a restart.
    again = Sim(board, str(tmp_path / board / "de"), seed=1)
    assert again.app.session.settings["ask"] is False


# ------------------------------------------------------------ 8. the hint line


def _hint(sim, name):
    return sim.app.t(name if sim.app.big else name + "_small")


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_the_hint_offers_banking_only_where_it_is_allowed(tmp_path, board, lang, drawn):
    # Kneipe: entry hurdle 350. A 1 and a 5 (150) are below it: no banking.
    sim, game = _sim(tmp_path, board, preset("kneipe"),
                     [1, 5, 2, 3, 4, 4] + [1, 1, 1, 2] + [2, 3, 4, 6], lang=lang)
    press(sim, "A")
    texts = drawn(sim)
    assert _hint(sim, "roll_only_hint") in texts and _hint(sim, "keep_hint") not in texts
    press(sim, "DOWN")  # refused, told why
    assert game.phase == "keep" and sim.state()["message"]
    press(sim, "UP")  # below the hurdle the roll is not asked
    assert game.turn_total == 150 and game.roll == (1, 1, 1, 2)
    # 150 + 1000 is past the hurdle: both keys are offered again.
    texts = drawn(sim)
    assert _hint(sim, "keep_hint") in texts
    press(sim, "DOWN", "DOWN")
    assert game.seats[0].score == 1150


@pytest.mark.parametrize("board", BOARDS)
def test_hot_dice_that_must_be_rolled_offer_only_the_roll(tmp_path, board, drawn):
    # Kneipe: hot dice must be rolled. 1 1 1 5 5 1: all six score.
    sim, game = _sim(tmp_path, board, preset("kneipe"), [1, 1, 1, 5, 5, 5, 2, 3, 4, 6, 6, 2],
                     scores=(1000, 1000))
    press(sim, "A")
    texts = drawn(sim)
    assert _hint(sim, "roll_only_hint") in texts


# ------------------------------------------------------------ 3. three farkles


FARKLE = [2, 3, 4, 6, 6, 2]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_the_second_farkle_warns_and_the_third_names_the_penalty(tmp_path, board, lang, drawn):
    rules = preset("zehntausend").replace(penalty=1000)
    sim, game = _sim(tmp_path, board, rules, FARKLE * 6, scores=(1100, 2000), lang=lang)
    t = sim.app.t
    press(sim, "A")  # Anna's first farkle: no word of the penalty
    assert game.phase == "farkle" and t("farkle_warn") not in drawn(sim)
    press(sim, "A")  # pass: Ben's hand-over
    assert sim.state()["results"] == [["Anna", None]]
    press(sim, "A", "A")  # Ben farkles and passes: Anna's hand-over
    assert sim.state()["screen"] == "handover" and sim.state()["next"] == "Anna"
    press(sim, "A")  # Anna's second farkle: warned
    assert game.phase == "farkle" and t("farkle_warn") in drawn(sim)
    press(sim, "A", "A", "A")  # pass; Ben rolls, farkles, passes: Anna's hand-over
    assert sim.state()["screen"] == "handover"
    assert _hint(sim, "warn_next") % 1000 in drawn(sim)  # before her turn: what the next one costs
    press(sim, "A")  # the third farkle: the penalty is said where it happens
    assert t("farkle_penalty") % 1000 in drawn(sim)
    press(sim, "A")  # pass: 1100 - 1000; Ben's hand-over lists it
    assert game.seats[0].score == 100
    assert sim.state()["screen"] == "handover"
    assert sim.state()["results"] == [["Anna", -1000]]
    texts = drawn(sim)
    assert any(s.endswith(t("turn_penalty") % ("", 1000)) for s in texts), texts
    assert _hint(sim, "warn_next") % 1000 in texts  # Ben is at two farkles too


# ------------------------------------------------------------ 6. leaving asks


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_leaving_asks_names_who_leaves_and_rests_on_back(tmp_path, board, lang, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), FARKLE * 4,
                     names=("Anna", "Ben", "Cleo"), lang=lang)
    t = sim.app.t
    press(sim, "B")  # hand-over: the table
    assert sim.state()["screen"] == "standings"
    labels = sim.app.top().labels(sim.app)
    while labels[sim.state()["index"]] != t("menu_leave"):
        press(sim, "DOWN")
    press(sim, "A", "DOWN")  # on Ben
    press(sim, "A")
    assert sim.state()["screen"] == "confirm"
    texts = drawn(sim)
    assert sim.app.ui.fit_name(t("leave_ask"), "Ben", sim.app.ui.w - 2) in texts
    press(sim, "B")  # no: nobody left
    assert sim.state()["screen"] == "standings" and len(game.active_seats()) == 3
    press(sim, "A", "DOWN", "A", "A")  # again, yes
    assert not game.seats[1].active and sim.state()["screen"] == "standings"
    labels = sim.app.top().labels(sim.app)
    assert labels[sim.state()["index"]] == t("back_to_game")  # the cursor rests on "back"
    press(sim, "A")
    assert sim.state()["screen"] in ("play", "handover")


# ------------------------------------------------------------ 10. small things


def test_three_people_set_up_in_twelve_presses(tmp_path):
    """A on the seat count adds a person, A on a computer's seat makes it a
    person's (was 15 presses: every added seat was a "Profi")."""
    from tests.cpython.test_presses import _presses

    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    assert sim.state()["screen"] == "title"
    keys = ["A", "DOWN", "DOWN", "A", "DOWN", "DOWN", "A"] + ["DOWN"] * 4 + ["A"]
    assert _presses(sim, keys) == 12
    assert sim.state()["screen"] == "handover"
    game = sim.app.stack[1].game
    assert [s.kind for s in game.seats] == ["", "", ""]
    assert len({s.name for s in game.seats}) == 3


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_pad_setup_hint_names_left_right_and_a_minus_at_zero_says_so(tmp_path, board, lang,
                                                                       drawn):
    from tests.cpython.test_pad_screens import menu_to, pad_menu

    sim = Sim(board, str(tmp_path / board / lang), seed=1)
    sim.app.session.settings["lang"] = lang
    sim.app.settings_changed()
    title_to(sim, "pad_title")
    assert sim.state()["screen"] == "pad_setup"
    assert sim.app.t("pad_setup_hint") in drawn(sim)  # ←→ on the value rows
    menu_to(sim, sim.app.t("start_game"))
    assert sim.state()["screen"] == "pad"
    pad_menu(sim, sim.app.t("pad_menu_adjust"))
    press(sim, "A")  # the first seat, at 0
    press(sim, "LEFT", "LEFT", "A")  # -1000
    state = sim.state()
    assert state["screen"] == "pad" and state["scores"][0] == 0
    name = sim.app.stack[-1].pad.seats[0].name
    assert state["message"] == sim.app.ui.fit_name(sim.app.t("pad_at_zero"), name, sim.app.ui.w)
    assert "+0" not in state["message"]


@pytest.mark.parametrize("board", BOARDS)
def test_the_hand_over_keeps_the_own_row_in_view(tmp_path, board, drawn):
    names = ("Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz")
    sim, game = _sim(tmp_path, board, preset("zehntausend"), FARKLE * 8, names=names,
                     scores=(5000, 4000, 3000, 2000, 1000, 0))
    for _ in range(5):  # five farkles: Fritz (last in the standings) is next
        press(sim, "A", "A")
    assert sim.state()["screen"] == "handover" and sim.state()["next"] == "Fritz"
    texts = drawn(sim)
    assert any("»" in s and s.endswith(" 0") for s in texts), texts  # "6.»Fritz 0"


# ------------------------------------------------------------ 1. the race


def _header(sim, drawn):
    texts = drawn(sim)
    return " ".join(texts[:2])  # the header: who, total and race; the turn's points


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_the_play_header_shows_the_race_and_in_the_final_round_the_need(tmp_path, board,
                                                                         lang, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"),
                     [1, 5, 2, 3, 4, 6] + [1, 1, 1, 2, 3, 4] + [1, 5, 2, 3, 4, 4] + [2, 2, 3, 4],
                     scores=(3000, 3500), lang=lang)
    small = "" if sim.app.big else "_small"
    t = sim.app.t
    press(sim, "A")  # Anna rolls: 500 behind Ben
    assert t("race_behind" + small) % 500 in _header(sim, drawn)
    press(sim, "A", "RIGHT", "A")  # 1 and 5 picked: not yet counted
    press(sim, "DOWN", "DOWN")  # banks 150: 350 behind
    assert game.seats[0].score == 3150
    press(sim, "A", "DOWN", "DOWN")  # Ben's turn: 1000 banked, 1350 ahead
    assert game.seats[1].score == 4500
    press(sim, "A")  # Anna
    assert t("race_behind" + small) % 1350 in _header(sim, drawn)
    # The final round: Ben reached the target; Anna needs his total + 50.
    game.seats[1].score = 10000
    game.final = 1
    game.pending = [0]
    assert t("race_need" + small) % (10000 - 3150 + 50) in _header(sim, drawn)
    press(sim, "UP", "UP")  # 150 more in the turn: not banked, so the need stays (issue 34)
    assert t("race_need" + small) % (10000 - 3150 + 50) in _header(sim, drawn)


@pytest.mark.parametrize("board", BOARDS)
def test_the_leader_sees_the_lead(tmp_path, board, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 5, 2, 3, 4, 6],
                     scores=(5000, 3500))
    press(sim, "A")
    small = "" if sim.app.big else "_small"
    assert sim.app.t("race_lead" + small) % 1500 in _header(sim, drawn)
    assert "5000" in _header(sim, drawn)


# ------------------------------------------------------------ 4. the final round


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_the_final_hand_over_says_who_reached_the_target_and_what_it_takes(tmp_path, board,
                                                                            lang, drawn):
    # Anna (9500) banks 1000 and reaches the target; Ben (9000) still plays.
    sim, game = _sim(tmp_path, board, preset("zehntausend"),
                     [1, 1, 1, 2, 3, 4] + [2, 3, 4, 6, 6, 2], scores=(9500, 9000), lang=lang)
    t = sim.app.t
    press(sim, "A", "DOWN", "DOWN")
    assert game.final == 0 and sim.state()["screen"] == "handover"
    texts = drawn(sim)
    assert t("final_need") % (10500 - 9000 + 50) in texts  # what Ben needs
    assert sim.app.ui.fit_name(t("final_by") % ("%s", 10500), "Anna", sim.app.ui.w) in texts
    small = "" if sim.app.big else "_small"
    then = t("final_then") % ("", 0)
    assert not any(then[:-1] in s for s in texts)  # nobody plays after Ben: no "… braucht"
    assert any("»" in s and "9000" in s for s in texts)  # Ben's own row, total in view
    press(sim, "A")  # Ben rolls: the header keeps the need in view
    assert t("race_need" + small) % 1550 in " ".join(drawn(sim)[:2])


@pytest.mark.parametrize("board", BOARDS)
def test_with_three_seats_the_hand_over_names_who_still_plays(tmp_path, board, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 1, 1, 2, 3, 4] + FARKLE,
                     names=("Anna", "Ben", "Cleo"), scores=(9500, 9000, 8000))
    press(sim, "A", "DOWN", "DOWN")
    assert sim.state()["next"] == "Ben"
    texts = drawn(sim)
    assert sim.app.t("final_need") % 1550 in texts
    assert sim.app.t("final_then") % ("Cleo", 2550) in texts  # (issue 34: was "Schluss, noch: •")


# ------------------------------------------------------------ 12. the 5-dice rule


def _computer_turn(sim, game, limit=40):
    """Hurry the computer along (any key but B) until its turn ended."""
    seat = game.current
    for _ in range(limit):
        if game.current != seat or sim.state()["screen"] != "play":
            return
        press(sim, "A")
    raise AssertionError("the computer's turn did not end")


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("kind", ("vorsichtig", "mutig"))
def test_a_computer_rolls_all_five_again_unless_an_exact_landing_wins(tmp_path, board, kind):
    rules = preset("punktlandung")  # five dice, auto-keep, exact target 10000
    # 8850 + 1100 = 9950: not a landing, the five dice are rolled again.
    sim, game = _sim(tmp_path, board, rules, [1, 1, 1, 5, 5] + [2, 3, 4, 6, 6],
                     names=(("Computer", kind), "Anna"), scores=(8850, 500))
    _computer_turn(sim, game)
    rolls = [ev for ev in game.events if ev[0] == "roll"]
    assert len(rolls) == 2 and len(rolls[1][-1]) == 5, rolls  # all five again
    assert game.seats[0].score == 8850  # ... and farkled
    # 8900 + 1100 = 10000: banking wins, it banks.
    sim, game = _sim(tmp_path / "exact", board, rules, [1, 1, 1, 5, 5],
                     names=(("Computer", kind), "Anna"), scores=(8900, 500))
    _computer_turn(sim, game)
    assert game.seats[0].score == 10000 and game.winner == 0
    sim.run(500)
    assert sim.state()["screen"] == "winner"


# ------------------------------------------------------------ 7. names


@pytest.mark.parametrize("board", BOARDS)
def test_a_new_four_letter_name_in_at_most_15_presses_and_a_known_one_in_3(tmp_path, board,
                                                                           drawn):
    from tests.cpython.simdriver import type_name

    sim = Sim(board, str(tmp_path / board), seed=1)
    press(sim, "A", "DOWN", "DOWN", "DOWN")  # new game, seat 1
    press(sim, "A")  # the names: no saved one yet, "New name…"
    press(sim, "A")  # (counted: the press that opens the typer)
    assert sim.state()["screen"] == "typer"
    letters = drawn(sim)
    for ch in "ABCMNZ":  # the letters are on screen, all at once
        assert ch in letters
    count = 1 + type_name(sim, "Anna")
    assert count <= 15, count
    assert sim.state()["screen"] == "setup" and sim.state()["seats"][0][0] == "Anna"
    press(sim, "B")  # leave the form; the name is remembered once a game starts
    sim.app.session.remember_name("Anna")
    press(sim, "A", "DOWN", "DOWN", "DOWN")
    keys = ["A", "A"]  # the names list opens on the last used name
    press(sim, *keys)
    assert len(keys) <= 3 and sim.state()["seats"][0][0] == "Anna"


@pytest.mark.parametrize("board", BOARDS)
def test_a_person_joining_gets_a_default_name(tmp_path, board):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), FARKLE * 4)
    t = sim.app.t
    press(sim, "B")  # the table
    labels = sim.app.top().labels(sim.app)
    while labels[sim.state()["index"]] != t("menu_join"):
        press(sim, "DOWN")
    press(sim, "A", "A")  # join: a person
    assert sim.state()["screen"] == "names"
    press(sim, "A")  # the default name, one press
    assert game.seats[-1].name == t("player_n") % 3 and game.seats[-1].kind == ""


# ------------------------------------------------------------ 9. the rules editor


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_a_explains_the_option_and_the_hints_fit_the_row(tmp_path, board, lang, drawn):
    from engine.rules import KEYS
    from tests.cpython.test_rules_editor import _open_editor, _to_row

    sim = Sim(board, str(tmp_path / board / lang), seed=1)
    sim.app.session.settings["lang"] = lang
    sim.app.settings_changed()
    _open_editor(sim)
    t = sim.app.t
    small = "" if sim.app.big else "_small"
    for key in KEYS:
        _to_row(sim, key)
        assert t("edit_hint" + small) in drawn(sim)
        before = dict(sim.app.top().opts)
        press(sim, "A")  # a page explains the option; nothing changes
        assert sim.state()["screen"] == "rules_explain", key
        lines = drawn(sim)
        assert lines[0] == t("opt_" + key) and len(lines) > 2, (key, lines)
        press(sim, "B")
        assert sim.app.top().opts == before
    for action in ("use", "save"):  # actions: A chooses, no "←→ ändern"
        _to_row(sim, action)
        texts = drawn(sim)
        assert t("nav_hint") in texts and t("edit_hint" + small) not in texts


# ------------------------------------------------------------ 5. plans by what they depend on


def _start_label(sim):
    form = sim.app.top()
    assert form.name == "setup"
    return form.labels(sim.app)[-1]


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_the_form_says_when_a_choice_needs_a_solve_and_how_long(tmp_path, board, lang, drawn):
    from engine.rules import PRESETS, TARGETS
    from firmware.screens.setup import SOLVE_PACE, solve_seconds
    from tests.cpython.test_rules_editor import _open_editor, _set, _to_row

    sim = Sim(board, str(tmp_path / board / lang), seed=1)
    sim.app.session.settings["lang"] = lang
    sim.app.settings_changed()
    t = sim.app.t
    press(sim, "A")  # New game: a person and a Profi (who plays from the Expert's plan)
    assert [kind for _, kind in sim.app.top().seats] == ["", "profi"]
    # Every preset at every target finds its plan: the form promises no wait.
    for _ in PRESETS:
        press(sim, "DOWN")  # the target row
        for _ in TARGETS:
            press(sim, "RIGHT")
            assert _start_label(sim) == t("start_game"), sim.app.top().target
        press(sim, "UP", "RIGHT")  # the next preset
    # Custom scoring (three pairs 1000) has no plan: the start row says so,
    # with the time at the chip's pace (nothing measured here yet).
    sim.app.home(sim.app.stack[0])
    _open_editor(sim)
    _set(sim, "three_pairs", 1000)
    _to_row(sim, "use")
    press(sim, "A")
    form = sim.app.top()
    rules = form._rules(sim.app)
    seconds = solve_seconds(rules, 0)
    # 1 + 117 roll table steps, 484 turn totals, 220 reach rows (target 10000)
    assert seconds == (822 * SOLVE_PACE + 99999) // 100000
    assert _start_label(sim) == t("start_solve") % seconds
    assert form.index == 0
    press(sim, "UP")  # the start row, the way round
    assert t("start_solve") % seconds in drawn(sim)
    # Only people: nothing to solve, nothing said.
    form.seats[1] = ["Ben", ""]
    assert _start_label(sim) == t("start_game")


def test_the_pace_of_a_solve_on_this_device_is_what_the_form_tells(tmp_path):
    from firmware.screens.setup import solve_seconds

    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    assert sim.app.session.settings["solve"] == 0
    rules = preset("zehntausend").replace(three_pairs=1000, target=5000)
    game = scripted_game(rules, [("Profi 1", "profi"), ("Anna", "")], [2, 3, 4, 6, 6, 2])
    sim.app.home(Play(sim.app, game))
    sim.step(20)
    assert sim.state()["screen"] == "solving"
    start = sim.now
    for _ in range(5000):
        if sim.state()["screen"] != "solving":
            break
        sim.step(20)
    took = sim.now - start
    pace = sim.app.session.settings["solve"]
    assert pace > 0
    # The estimate at the measured pace is the time the solve took here.
    assert abs(solve_seconds(rules, pace) - took / 1000) <= 1
    # Kept after a restart, and the form tells it for the next custom set.
    again = Sim("pico_ssd1306_i2c", str(tmp_path / "again"), seed=1)
    again.app.session.settings["solve"] = 0
    again = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    assert again.app.session.settings["solve"] == pace
    again.press("A")  # New game: the last table (its rules are cached now: no wait)
    assert _start_label(again) == again.app.t("start_game")
    form = again.app.top()
    form.custom = preset("zehntausend").replace(straight=1000)  # as the editor hands it over
    form.preset = form._choice_count() - 1
    assert _start_label(again) == again.app.t("start_solve") % solve_seconds(form.custom, pace)
