"""Issue 51, "at the table, fourth round", by key presses on both layouts
and in both languages: the final round named and its losing bank asked
about, the score pad's Nichts and undo, penalties that say why, whole
names, one solve-time estimate, results after the dice settle, true hints."""

import pytest

from engine.rules import preset
from tests.cpython.simdriver import press
from tests.cpython.test_at_the_table import _ask_off, _sim, drawn  # noqa: F401  (drawn: a fixture)

BOARDS = ("pico_ssd1306_i2c", "thumby")
LANGS = ("de", "en")
FARKLE = [2, 3, 4, 6, 6, 2]


def _small(sim):
    return "" if sim.app.big else "_small"


# ------------------------------------------------------------ 1. the final round


def _final(tmp_path, board, lang, ben, faces):
    """Anna (9500) banks 1000 and opens the final round; Ben (`ben`) has
    his last turn with `faces` and is at his hand-over."""
    sim, game = _sim(tmp_path, board, preset("zehntausend"),
                     [1, 1, 1, 2, 3, 4] + faces + FARKLE * 2, scores=(9500, ben), lang=lang)
    press(sim, "A", "DOWN", "DOWN")
    assert game.final == 0 and sim.state()["screen"] == "handover"
    return sim, game


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_final_bank_that_cannot_win_asks_in_words(tmp_path, board, lang, drawn):  # noqa: F811
    sim, game = _final(tmp_path, board, lang, 8000, [1, 5, 2, 3, 4, 4])
    t = sim.app.t
    press(sim, "A")  # Ben rolls: 1 and 5 score 150, far from the 2550 he needs
    press(sim, "DOWN")
    assert sim.state()["asking"] == "bank"
    texts = drawn(sim)
    assert t("ask_bank_lose" + _small(sim)) % 150 in texts
    assert t("ask_bank") % 150 not in texts
    press(sim, "DOWN")  # the same key again: he banks and loses
    assert game.phase == "over" and game.winner == 0


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_losing_bank_is_asked_even_with_ask_off(tmp_path, board, lang, drawn):  # noqa: F811
    sim, game = _final(tmp_path, board, lang, 8000, [1, 5, 2, 3, 4, 4])
    play = sim.app.stack[-2]
    _ask_off(sim)
    sim.app.home(play)
    sim.run(200)
    press(sim, "A")  # (the hand-over was left: A rolls)
    assert game.phase == "keep"
    press(sim, "DOWN")  # not banked at once: the question comes first
    assert sim.state()["asking"] == "bank" and game.phase == "keep"
    assert sim.app.t("ask_bank_lose" + _small(sim)) % 150 in drawn(sim)
    press(sim, "B")  # no: he rolls on instead
    assert not sim.state()["asking"]
    press(sim, "UP")  # with ask off a roll goes at once
    assert game.turn_total == 150


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_final_bank_that_wins_says_so(tmp_path, board, lang, drawn):  # noqa: F811
    sim, game = _final(tmp_path, board, lang, 10450, [1, 5, 2, 3, 4, 4])
    press(sim, "A", "DOWN")  # 10450 + 150 = 10600 > 10500: the last turn wins
    assert sim.app.t("ask_bank_win" + _small(sim)) % 150 in drawn(sim)
    press(sim, "DOWN")
    assert game.phase == "over" and game.winner == 1


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_final_round_is_named_on_the_hand_over_and_the_header(tmp_path, board, lang,
                                                                  drawn):  # noqa: F811
    sim, game = _final(tmp_path, board, lang, 8000, [1, 5, 2, 3, 4, 4])
    t = sim.app.t
    texts = drawn(sim)
    title = t("final_turn" + _small(sim)) % "Ben"
    assert title in texts  # "Schlussrunde: Ben" / on 72x40 "Schluss: Ben"
    assert t("final_by") % ("Anna", 10500) in texts or not sim.app.big
    press(sim, "A")
    head = drawn(sim)[0]
    assert head.startswith("Ben") and "…" not in head  # the name whole
    if sim.app.big:
        assert t("race_need") % 2550 in head
    else:
        assert t("race_need_small") % 2550 in head


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_default_names_stay_whole_in_the_final_header(tmp_path, board, lang, drawn):  # noqa: F811
    names = ("Spieler 1", "Spieler 2") if lang == "de" else ("Player 1", "Player 2")
    sim, game = _sim(tmp_path, board, preset("zehntausend"),
                     [1, 1, 1, 2, 3, 4] + [1, 5, 2, 3, 4, 4] + FARKLE, names=names,
                     scores=(9500, 7250), lang=lang)
    press(sim, "A", "DOWN", "DOWN", "A")
    head = drawn(sim)[0]
    assert head.startswith(names[1]) and "…" not in head
    assert sim.app.t("race_need_small") % 3300 in head or sim.app.t("race_need") % 3300 in head


@pytest.mark.parametrize("lang", LANGS)
def test_the_text_copy_names_the_final_round(tmp_path, lang):
    # loaded from its file as test_textlayer does: under pytest-xdist a worker
    # may have tools/ on sys.path, where `web` is tools/web.py
    from tests.cpython.test_textlayer import textlayer

    sim, game = _final(tmp_path, "pico_ssd1306_i2c", lang, 8000, [1, 5, 2, 3, 4, 4])
    said = textlayer.header_text(lang, game, 0)
    final = textlayer.WORDS[lang]["final"] % ("Ben", 2550)
    assert said.startswith(final)


# ------------------------------------------------------------ 2. the score pad


def _pad(tmp_path, board, lang):
    from simulator.host import Sim
    from tests.cpython.test_pad_screens import start_pad

    sim = Sim(board, str(tmp_path / board / lang), 1)
    sim.app.lang = lang
    start_pad(sim, 5000)
    return sim


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_pad_nichts_is_one_press_and_undo_one_more(tmp_path, board, lang, drawn):  # noqa: F811
    sim = _pad(tmp_path, board, lang)
    t = sim.app.t
    pad = sim.app.top().pad
    assert t("pad_hint_zero" + _small(sim)) in drawn(sim)  # "A Nichts", and "B Menü"
    assert t("pad_hint_zero" + _small(sim)).endswith(t("pad_hint_undo" + _small(sim))[-6:])
    press(sim, "A")  # one press: Nichts for the first seat
    assert pad.seats[0].run == 1 and pad.current == 1
    texts = drawn(sim)
    assert t("pad_hint_undo" + _small(sim)) in texts  # "↓ Rückgängig" named on the hint
    assert sim.state()["undo"]
    press(sim, "DOWN")  # one press takes it back
    assert pad.seats[0].run == 0 and pad.current == 0 and not pad.can_undo
    assert t("pad_hint_zero" + _small(sim)) in drawn(sim)  # the offer is gone with it
    # The offer lasts until another key: UP, then DOWN changes the points only.
    press(sim, "A", "UP", "DOWN")
    assert pad.seats[0].run == 1 and pad.current == 1 and sim.state()["value"] == 0


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_pad_b_opens_its_menu_which_leads_back_and_out(tmp_path, board, lang, drawn):  # noqa: F811
    sim = _pad(tmp_path, board, lang)
    t = sim.app.t
    press(sim, "B")
    assert sim.state()["screen"] == "pad_menu"
    labels = sim.app.top().labels(sim.app)
    assert t("to_title") in labels and t("pad_menu_overview") in labels
    press(sim, "B")  # back to the pad
    assert sim.state()["screen"] == "pad"
    press(sim, "A", "B")  # after a Nichts the menu's first entry is "Rückgängig"
    first = sim.app.top().labels(sim.app)[0]
    undo = t("pad_menu_undo") if sim.app.big else t("pad_menu_undo_small")
    assert first.startswith(undo.split("%s")[0])
    press(sim, "UP", "A")  # round the list to its last entry: out to the title
    assert sim.state()["screen"] == "title"


# ------------------------------------------------------------ 3. penalties that say why


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_penalty_stopped_at_zero_says_so_where_it_shows(tmp_path, board, lang,
                                                          drawn):  # noqa: F811
    """Penalty 1000, Anna on 500 and Ben on 600: the penalty stops at 0
    (docs/rules.md), and each line that shows it says so ("→0")."""
    rules = preset("zehntausend").replace(penalty=1000)
    sim, game = _sim(tmp_path, board, rules, FARKLE * 6, scores=(500, 600), lang=lang)
    t = sim.app.t
    press(sim, "A", "A", "A", "A")  # a farkle each
    press(sim, "A", "A", "A", "A")  # the second each: Anna's hand-over warns
    assert sim.state()["screen"] == "handover" and sim.state()["next"] == "Anna"
    texts = drawn(sim)
    assert t("warn_next_floor" + _small(sim)) % 500 in texts
    assert t("warn_next" + _small(sim)) % 500 not in texts
    press(sim, "A")  # the third farkle
    assert t("farkle_penalty_floor") % 500 in drawn(sim)
    press(sim, "A")  # pass: 500 - 1000 stops at 0; Ben's hand-over lists it
    assert game.seats[0].score == 0 and sim.state()["results"] == [["Anna", -500]]
    texts = drawn(sim)
    assert any(s.endswith(t("turn_penalty_floor") % "") for s in texts), texts
    assert t("warn_next_floor" + _small(sim)) % 600 in texts  # Ben too


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_full_penalty_keeps_its_plain_words(tmp_path, board, lang, drawn):  # noqa: F811
    rules = preset("zehntausend").replace(penalty=500)
    sim, game = _sim(tmp_path, board, rules, FARKLE * 6, scores=(1100, 600), lang=lang)
    t = sim.app.t
    press(sim, "A", "A", "A", "A", "A", "A", "A", "A", "A")
    assert t("farkle_penalty") % 500 in drawn(sim)
    press(sim, "A")
    assert game.seats[0].score == 600
    assert any(s.endswith(t("turn_penalty") % ("", 500)) for s in drawn(sim))


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_pad_says_a_penalty_or_minus_stopped_at_zero(tmp_path, board, lang,
                                                         drawn):  # noqa: F811
    sim = _pad(tmp_path, board, lang)  # penalty 1000, hurdle 350
    t = sim.app.t
    pad = sim.app.top().pad
    press(sim, *["UP"] * 8, "A")  # the first seat: 400
    press(sim, *["A"] * 6)  # Nichts in turn: the second seat, the first, ..., the first
    assert pad.seats[0].score == 0 and pad.seats[0].penalties == 1
    name = pad.seats[0].name
    said = sim.app.ui.fit_name(t("penalty_floor") % ("%s", 400), name, sim.app.ui.w)
    assert sim.state()["message"] == said and said in drawn(sim)
    assert name in said  # the name whole
    # +/-: a minus past the total shows that it stops at 0 before A
    pad.seats[1].score = 300
    press(sim, "B")
    from tests.cpython.test_pad_screens import menu_to

    menu_to(sim, t("pad_menu_adjust"))
    while sim.app.top().labels(sim.app)[sim.state()["index"]].find(pad.seats[1].name) < 0:
        press(sim, "DOWN")
    press(sim, "A")  # the second seat
    assert sim.state()["screen"] == "pad_adjust" and sim.state()["seat"] == 1
    press(sim, "LEFT")  # -500 from 300
    assert t("pad_floor") in drawn(sim)
    press(sim, "A")
    assert pad.seats[1].score == 0


# ------------------------------------------------------------ 7. true hints


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_die_that_cannot_score_is_not_picked_and_named(tmp_path, board, lang,
                                                         drawn):  # noqa: F811
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 5, 2, 3, 4, 4] + FARKLE,
                     lang=lang)
    t = sim.app.t
    press(sim, "A")  # roll: 1 5 2 3 4 4 (no straight: the 3 scores in no keep)
    play = sim.app.top()
    while play.cursor != 3:
        press(sim, "RIGHT")
    press(sim, "A")
    assert play.selected() == () and not any(play.sel)
    said = t("not_scoring" if sim.app.big else "not_scoring_small") % 3
    assert sim.state()["message"] == said and said in drawn(sim)
    assert t("keep_hint" + _small(sim)) in drawn(sim)  # UP and DOWN still pick the 1 and 5
    press(sim, "DOWN")
    assert sim.state()["asking"] == "bank"  # not refused


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_picks_that_are_no_keep_offer_no_roll_or_bank(tmp_path, board, lang, drawn):  # noqa: F811
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [2, 2, 2, 3, 4, 6] + FARKLE,
                     lang=lang)
    t = sim.app.t
    press(sim, "A")
    play = sim.app.top()
    while play.cursor != 0:
        press(sim, "LEFT")
    press(sim, "A")  # one 2: it scores with the other two, so it is picked
    assert play.selected() == (2,)
    texts = drawn(sim)
    assert t("keep_hint" + _small(sim)) not in texts
    assert t("roll_only_hint" + _small(sim)) not in texts
    assert t("pick_hint" + _small(sim)) in texts
    press(sim, "RIGHT", "A", "RIGHT", "A")  # the triple: a keep, both offered again
    assert play.selected() == (2, 2, 2)
    assert t("keep_hint" + _small(sim)) in drawn(sim)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_on_value_rows_does_what_the_hint_says(tmp_path, board, lang, drawn):  # noqa: F811
    from simulator.host import Sim
    from tests.cpython.test_pad_screens import title_to
    from tests.cpython.test_settings_screens import row

    sim = Sim(board, str(tmp_path / board / lang), seed=1)
    sim.app.lang = lang
    t = sim.app.t
    title_to(sim, "new_game")
    press(sim, "DOWN")  # the target row: "←→ Ziel ändern"
    target = sim.state()["target"]
    assert t("form_hint_target") in drawn(sim) and "A" not in t("form_hint_target").split()
    press(sim, "A")
    assert sim.state()["target"] == target
    press(sim, "B")
    title_to(sim, "pad_title")  # the pad's form: its value rows name ←→ only
    assert t("pad_setup_hint") in drawn(sim)
    press(sim, "A")
    assert sim.state()["target"] == 10000
    press(sim, "DOWN", "A", "DOWN", "A", "DOWN", "A")
    state = sim.state()
    assert (state["entry"], state["penalty"], len(state["names"])) == (350, 1000, 2)
    press(sim, "B")
    title_to(sim, "settings_title")  # settings: A steps a value, and the hint says so
    row(sim, "set_ask")
    hint = t("settings_hint" + _small(sim))
    assert hint in drawn(sim) and " A " in hint
    press(sim, "A")
    assert sim.app.session.settings["ask"] is False


# ------------------------------------------------------------ 6. results after the dice settle


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_rolls_result_shows_when_the_dice_have_settled(tmp_path, board, lang,
                                                          drawn):  # noqa: F811
    """Anna keeps a 1 and rolls on into a farkle: while the dice tumble
    neither the farkle, nor its loss, nor the pass hint shows, and the
    header keeps the turn's 100; once they settle all of it does."""
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 2, 3, 4, 6, 6] + FARKLE[:5],
                     lang=lang)
    t = sim.app.t
    press(sim, "A", "UP", "UP")  # the 1 kept, five dice rolled: nothing scores
    play = sim.app.top()
    assert game.phase == "farkle" and play.anim.armed  # 120 ms after the press
    texts = drawn(sim, False)
    assert not [s for s in texts if t("farkle") in s or "100" in s and s != "+100"]
    assert t("pass_hint") not in texts and "+100" in texts
    texts = drawn(sim)  # settled
    assert any(s.startswith(t("farkle")) for s in texts) and t("pass_hint") in texts
    assert "+0" in texts


# ------------------------------------------------------------ 5. one solve-time estimate


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_one_solve_estimate_kept_true_as_it_runs(tmp_path, board, lang, drawn):  # noqa: F811
    """The bar starts from the form's estimate (the same pace, nothing
    measured yet: the chip's) and moves to the pace it sees: from a
    quarter of the work on it tells the time left within a second and a
    tenth, and it never goes up on the way."""
    from firmware.screens.play import Play
    from firmware.screens.setup import solve_seconds
    from simulator.host import Sim
    from tests.cpython.simdriver import scripted_game

    sim = Sim(board, str(tmp_path / board / lang), seed=1)
    sim.app.lang = lang
    t = sim.app.t
    rules = preset("zehntausend").replace(three_pairs=1000, target=5000)
    told = solve_seconds(rules, sim.app.session.settings["solve"])
    game = scripted_game(rules, [("Profi 1", "profi"), ("Anna", "")], FARKLE * 3)
    sim.app.home(Play(sim.app, game))
    sim.step(20)
    assert sim.state()["screen"] == "solving"
    sim.step(20)
    solving = sim.app.top()
    first = solving.seconds_left(sim.now)
    assert abs(first - told) <= 1  # the form's number, not a guess of its own
    texts = drawn(sim)  # (a step of the work more)
    assert any(t("solving_left") % (0, told - k) in texts for k in (0, 1)), texts
    samples = []
    for _ in range(5000):
        if sim.state()["screen"] != "solving":
            break
        solver = solving.solver
        samples.append((sim.now, solving.seconds_left(sim.now), solver.done, solver.total))
        sim.step(20)
    assert sim.state()["screen"] != "solving", "the solve did not end"
    end = sim.now
    lefts = [left for _, left, _, _ in samples]
    assert lefts == sorted(lefts, reverse=True)  # counts down, never up
    for now, left, done, total in samples:
        if done * 4 >= total:
            actual = (end - now) / 1000
            assert abs(left - actual) <= 1 + actual / 10, (done, total, left, actual)


# ------------------------------------------------------------ 8. the smaller points


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_lessons_end_page_comes_after_the_third_rolls_result(tmp_path, board, lang):
    """The lesson's third decision rolls on (here a farkle): the page comes
    once the dice have settled and the farkle was in view, not over the
    tumbling dice."""
    from tests.cpython.test_tips_lesson import _confirm, _play, _start, _start_lesson

    sim, game = _start(tmp_path, board, lang)
    _start_lesson(sim)
    play = _play(sim)
    press(sim, "A")  # the first roll: 1 1 5 2 3 6
    sim.run(600)
    press(sim, "A")  # the 1
    _confirm(sim, "UP")  # 1. rolling on: a farkle
    press(sim, "A")  # 2. passing; the computer farkles too
    sim.run(20000)
    assert game.current == 0 and game.phase == "start" and play.tips.steps == 2
    press(sim, "A")  # 1 5 2 3 4 4
    sim.run(600)
    press(sim, "UP")  # 3. rolling on with the 1 and the 5 (asked first)
    if sim.state().get("asking"):
        press(sim, "UP")
    assert game.phase == "farkle" and play.anim.armed
    assert sim.state()["screen"] == "play"  # not the page over the tumbling dice
    waited = 0
    while play.anim.armed:
        assert waited < 2000, "the dice did not settle"
        sim.step(20)
        waited += 20
    assert sim.state()["screen"] == "play"  # the farkle in view
    assert sim.app.t("farkle") in sim.app.top()._status(sim.app)
    for _ in range(200):
        if sim.state()["screen"] == "lesson_done":
            break
        sim.step(20)
    assert sim.state()["screen"] == "lesson_done"
    press(sim, "A")
    assert sim.state()["screen"] == "play" and game.phase == "farkle"


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_power_off_with_the_new_game_form_open_keeps_the_chosen_rules(tmp_path, board, lang):
    from simulator.host import Sim
    from tests.cpython.test_pad_screens import title_to

    data = str(tmp_path / board / lang)
    sim = Sim(board, data, seed=1)
    sim.app.session.settings["lang"] = lang
    sim.app.settings_changed()
    title_to(sim, "new_game")
    assert sim.state()["preset"] != "kneipe"
    while sim.state()["preset"] != "kneipe":
        press(sim, "RIGHT")
    press(sim, "DOWN", "RIGHT")  # and another target
    chosen = sim.state()["target"]
    sim.run(2000)  # the choices rest: kept, while the form stays open
    assert sim.state()["screen"] == "setup"
    again = Sim(board, data, seed=2)  # power-off and on
    title_to(again, "new_game")
    assert again.state()["preset"] == "kneipe" and again.state()["target"] == chosen


# ------------------------------------------------------------ 4. whole names


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", LANGS)
def test_names_stay_whole_in_the_pad_menu_and_on_the_form(tmp_path, board, lang,
                                                          drawn):  # noqa: F811
    """The pad menu's Nichts names the seat whole ("Spieler 1: Nichts",
    was "Nichts für Spiel…1" on 72x40); a cautious computer on the form
    is "Vorsichtig 2" (was "Vorsicht 2")."""
    from tests.cpython.test_pad_screens import title_to

    sim = _pad(tmp_path, board, lang)
    t = sim.app.t
    name = sim.app.top().pad.seat().name
    press(sim, "B")
    label = t("pad_menu_nothing") % name
    assert label in sim.app.top().labels(sim.app) and label in drawn(sim)
    press(sim, "B")
    sim.app.home(sim.app.stack[0])
    title_to(sim, "new_game")
    press(sim, "DOWN", "DOWN", "DOWN", "DOWN")  # the second seat
    while sim.state()["seats"][1][1] != "vorsichtig":
        press(sim, "RIGHT")
    word = t("level_vorsichtig")
    assert sim.state()["seats"][1][0] == word + " 2"
    assert "%d %s 2" % (2, word) in drawn(sim)
