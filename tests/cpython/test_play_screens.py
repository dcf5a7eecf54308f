"""The play screen and the hand-over by key presses, on both layouts and in
both languages: no single stray press loses points or ends a turn (UP and
DOWN ask once), the keys are on screen, a way out while only computers
play, taking over with the inherited points in view, the header, the
hand-over's turn results, the winner's reason, what a farkle cost, and the
turn count of a game alone."""

import pytest

from engine.rules import preset
from firmware import font
from firmware.screens.play import Play
from simulator.host import Sim
from tests.cpython.simdriver import press, scripted_game, settle
from tools.texts import de as texts_de
from tools.texts import en as texts_en

BOARDS = ("pico_ssd1306_i2c", "thumby")
TEXTS = {"de": texts_de.TEXTS, "en": texts_en.TEXTS}


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
    """drawn(sim): every text on the current screen, as drawn (with its x
    and width), after a fresh redraw."""
    log = []
    orig = font.Font.draw

    def draw(self, canvas, s, x, y, c=1):
        log.append((s, x, self.width(s)))
        return orig(self, canvas, s, x, y, c)

    monkeypatch.setattr(font.Font, "draw", draw)

    def texts(sim):
        settle(sim)  # a roll's result shows when the dice have settled
        del log[:]
        sim.app.redraw()
        sim.step(0)
        for s, x, w in log:
            assert x >= 0 and x + w <= sim.app.width, (sim.board, s)  # every line fits
        return [s for s, _, _ in log]

    return texts


def _t(sim, key):
    return sim.app.t(key)


def _small(sim, key):
    return _t(sim, key if sim.app.big else key + "_small")


# ------------------------------------------------------------ 1. stray presses


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_no_single_press_loses_points_or_ends_the_turn(tmp_path, board, lang, drawn):
    # Anna kept a 1 (100) and rolled five dice: 1 5 3 3 4; 200 at stake.
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 2, 3, 4, 6, 6, 1, 5, 3, 3, 4],
                     lang=lang)
    press(sim, "A", "A", "UP", "UP")
    assert game.phase == "keep" and game.turn_total == 100
    assert _small(sim, "keep_hint") in drawn(sim)  # the play keys are always on screen
    before = game.to_data()
    for key in ("UP", "DOWN", "B", "A", "LEFT", "RIGHT"):
        press(sim, key)
        assert game.to_data() == before, key
        if sim.state()["screen"] == "standings":  # B with nothing picked: the table
            press(sim, "B")
        while sim.state()["asking"] or sim.state()["selected"]:
            press(sim, "B")  # "no", then drop what was picked
        assert sim.state()["screen"] == "play"
    # The first UP picks every scoring die (1 and 5) and asks; B says no.
    press(sim, "UP")
    state = sim.state()
    assert state["asking"] == "roll" and state["selected"] == [1, 5]
    texts = drawn(sim)
    assert _t(sim, "ask_roll") % 250 in texts and _small(sim, "ask_roll_hint") in texts
    press(sim, "B")
    assert not sim.state()["asking"] and sim.state()["selected"] == [1, 5]
    # DOWN after UP asks about banking instead; a held DOWN answers nothing.
    press(sim, "UP", "DOWN")
    assert sim.state()["asking"] == "bank"
    assert _t(sim, "ask_bank") % 250 in drawn(sim)
    assert _small(sim, "ask_bank_hint") in drawn(sim)
    press(sim, "B")
    sim.keys("LONG:DOWN")
    assert game.to_data() == before and sim.state()["asking"] == "bank"
    press(sim, "DOWN")
    assert game.seats[0].score == 250 and game.current == 1


def test_a_frame_scores_the_selection_once(tmp_path, monkeypatch, drawn):
    """The press that picks a die, the dice (a crossed die), the status line
    and the tips all ask about the selection: a valid keep's points are read
    from the game's keeps (never scored), any other selection is scored
    once, and anew after other open singles or another pick."""
    from firmware.screens import play as play_mod

    sim, game = _sim(tmp_path, "pico_ssd1306_i2c", preset("zehntausend"), [1, 5, 2, 3, 4, 6])
    press(sim, "A")  # hand-over: roll
    sim.run(600)
    play = sim.app.top()
    assert game.phase == "keep"
    press(sim, "A")  # the cursor's die: the 1
    assert play.selected() == (1,)
    calls = []
    real = play_mod.scoring.score_keep

    def counted(*args):
        calls.append(args[0])
        return real(*args)

    monkeypatch.setattr(play_mod.scoring, "score_keep", counted)
    texts = drawn(sim)  # a fresh frame: the press scored the pick already
    assert calls == []
    assert TEXTS["de"]["selection"] % 100 in texts
    assert play._chosen is None and play.selected() == (1,)  # nothing kept after the frame
    press(sim, "RIGHT", "A")  # the 5 too: a valid keep, its points from the keeps
    assert calls == []
    assert TEXTS["de"]["selection"] % 150 in drawn(sim)
    play._scored = (1, 5), (5,), game.rules, 999  # the same dice, other open singles
    assert TEXTS["de"]["selection"] % 150 in drawn(sim)
    assert calls == []
    press(sim, "RIGHT", "A")  # and the 2: no valid keep, scored once
    assert play.selected() == (1, 2, 5) and calls == [(1, 2, 5)]
    drawn(sim)
    assert calls == [(1, 2, 5)]
    play._scored = (1, 2, 5), (5,), game.rules, 999  # other open singles: scored anew
    assert play._score((1, 2, 5)) is None
    assert calls == [(1, 2, 5), (1, 2, 5)]


def test_a_pick_finds_the_dice_that_do_not_score_once(tmp_path, monkeypatch, drawn):
    """The press that picks a die and the frame that shows it both ask
    which picked dice do not score: they are worked out once per pick, and
    anew after another pick or a new roll."""
    sim, game = _sim(tmp_path, "pico_ssd1306_i2c", preset("zehntausend"), [1, 5, 2, 3, 4, 6])
    press(sim, "A")  # hand-over: roll
    sim.run(600)
    play = sim.app.top()
    calls = []
    real = Play._find_bad_dice

    def counted(self, chosen):
        calls.append(chosen)
        return real(self, chosen)

    monkeypatch.setattr(Play, "_find_bad_dice", counted)
    press(sim, "RIGHT", "RIGHT", "A")  # the 2: it does not score
    assert play.selected() == (2,) and calls == [(2,)]
    texts = drawn(sim)
    assert TEXTS["de"]["not_scoring"] % 2 in texts
    assert play._bad_dice() == ([2], "not_scoring") and calls == [(2,)]
    press(sim, "LEFT", "LEFT", "A")  # the 1 as well: still the 2 alone
    assert play.selected() == (1, 2) and calls == [(2,), (1, 2)]
    assert play._bad_dice() == ([2], "not_scoring")
    press(sim, "RIGHT", "RIGHT", "A")  # the 2 dropped: all of it scores
    assert play.selected() == (1,) and play._bad_dice() == ([], "")
    assert TEXTS["de"]["selection"] % 100 in drawn(sim)


@pytest.mark.parametrize("board", BOARDS)
def test_roll_on_asks_once_and_b_opens_the_standings(tmp_path, board, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 5, 2, 3, 4, 4, 2, 2, 2, 3])
    press(sim, "A")
    press(sim, "B")  # nothing picked: B goes back to the table, as everywhere
    assert sim.state()["screen"] == "standings"
    press(sim, "B")
    press(sim, "UP", "UP")
    assert game.turn_total == 150 and game.roll == (2, 2, 2, 3)


@pytest.mark.parametrize("board", BOARDS)
def test_the_question_stays_in_view_with_tips_on(tmp_path, board, drawn):
    from firmware import tips_store

    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 5, 3, 3, 4, 6],
                     names=("Anna", ("Profi 2", "profi")))
    tips_store.start_game(sim.app.session, game, [True, False])
    sim.app.home(Play(sim.app, game))
    sim.run(200)
    press(sim, "A", "DOWN")
    for _ in range(3):  # whatever the tips show meanwhile
        assert _t(sim, "ask_bank") % 150 in drawn(sim)
        sim.run(2500)
    press(sim, "DOWN")
    assert game.seats[0].score == 150


def test_a_roll_without_a_choice_is_not_asked(tmp_path):
    # Below the entry hurdle banking is refused: rolling on is the only way.
    sim, game = _sim(tmp_path, "thumby", preset("kneipe"), [1, 2, 3, 4, 6, 6, 5, 5, 5, 2, 3])
    press(sim, "A", "A", "DOWN")
    assert sim.state()["message"] == _t(sim, "why_entry") % 350
    assert game.phase == "keep" and not sim.state()["asking"]
    press(sim, "UP")
    assert game.turn_total == 100 and len(game.roll) == 5


def test_auto_keep_decisions_ask_too(tmp_path):
    sim, game = _sim(tmp_path, "thumby", preset("punktlandung"), [1, 1, 1, 2, 3, 5, 2],
                     scores=(500, 500))
    press(sim, "A")
    assert game.phase == "decide" and game.turn_total == 1000
    press(sim, "UP")
    assert sim.state()["asking"] == "roll" and game.phase == "decide"
    press(sim, "B", "DOWN")
    assert sim.state()["asking"] == "bank" and game.seats[0].score == 500
    press(sim, "DOWN")
    assert game.seats[0].score == 1500


# ------------------------------------------------------------ 4. a way out


@pytest.mark.parametrize("board", BOARDS)
def test_an_all_computer_table_can_be_left_and_resumed(tmp_path, board, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1, 1, 1, 2, 3, 4] * 40,
                     names=(("Profi 1", "profi"), ("Mutig 2", "mutig")))
    assert _small(sim, "hurry_hint") in drawn(sim)
    press(sim, "A", "RIGHT", "DOWN")  # any other key only hurries them
    assert sim.state()["screen"] == "play"
    sim.run(3000)
    assert game.events_total > 3
    press(sim, "B")  # at any moment: the standings, with the way to the menu
    assert sim.state()["screen"] == "standings"
    seen = game.events_total
    sim.run(3000)
    assert game.events_total == seen  # the computers wait meanwhile
    labels = sim.app.top().labels(sim.app)
    while sim.state()["index"] != labels.index(_t(sim, "to_title")):
        press(sim, "DOWN")
    press(sim, "A")
    assert sim.state()["screen"] == "title"
    assert sim.app.session.has_game()
    saved = sim.app.session.load_game(None)[0].to_data()
    press(sim, "A")  # Weiterspielen
    assert sim.state()["screen"] == "play" and sim.state()["engine"] == saved
    sim.run(5000)
    assert sim.state()["screen"] == "winner" or sim.state()["engine"] != saved  # they play on


# ------------------------------------------------------------ 6. taking over


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_take_over_choice_and_inherited_points_stay_in_view(tmp_path, board, lang, drawn):
    rules = preset("zehntausend").replace(takeover=True)
    sim, game = _sim(tmp_path, board, rules, [1, 1, 1, 2, 3, 4, 5, 2, 3], scores=(500, 500),
                     lang=lang)
    press(sim, "A", "DOWN", "DOWN")  # Anna banks 1000 with three dice left
    assert sim.state()["screen"] == "handover" and sim.state()["offer"] == [1000, [1, 1, 1]]
    texts = drawn(sim)
    offer = _small(sim, "offer") % (1000, 3)
    assert offer in texts and _small(sim, "offer_hint") in texts  # both choices named
    press(sim, "UP")  # take over
    assert sim.state()["screen"] == "play"  # no second hand-over
    assert game.phase == "start" and game.turn_total == 1000
    texts = drawn(sim)
    assert _small(sim, "inherited") % (1000, 3) in texts
    press(sim, "A")
    assert game.roll == (5, 2, 3) and game.turn_total == 1000


def test_decline_on_the_hand_over_rolls_fresh(tmp_path):
    rules = preset("zehntausend").replace(takeover=True)
    sim, game = _sim(tmp_path, "thumby", rules, [1, 1, 1, 2, 3, 4, 2, 3, 4, 6, 6, 5],
                     scores=(500, 500))
    press(sim, "A", "DOWN", "DOWN", "A")
    assert game.turn_total == 0 and game.roll == (2, 3, 4, 6, 6, 5)


def test_no_bust_only_takeover_on_an_exact_target(tmp_path):
    # Ben at 9600 could inherit 400 to land exactly on 10000, but would then
    # have to roll, and every score would bust: not offered.
    sim, game = _sim(tmp_path, "thumby", preset("punktlandung"), [4, 4, 4, 2, 3, 6, 6, 2, 3, 2],
                     scores=(1000, 9600))
    press(sim, "A", "DOWN", "DOWN")
    assert game.current == 1 and game.offer is None
    assert sim.state()["screen"] == "handover" and sim.state()["offer"] == []


# ------------------------------------------------------------ 7, 10: texts


@pytest.mark.parametrize("board", BOARDS)
def test_header_separates_name_and_score(tmp_path, board, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [1] * 6,
                     names=("Spieler 1", "Spieler 2"))
    press(sim, "A")
    assert "Spieler 1: 0" in drawn(sim)
    for name in ("Wolfgang-Ama", "WWWWWWWWWWWW", "Mmmmmmmmmmmm"):
        sim2, game2 = _sim(tmp_path / name, board, preset("zehntausend"), [1] * 6,
                           names=(name, "Ben"), scores=(12350,))
        press(sim2, "A")
        game2.turn_total = 12350
        head = drawn(sim2)[0]
        assert head.endswith(": 12350"), head  # a long name gives way, the score stays


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_hand_over_says_what_the_computer_scored(tmp_path, board, lang, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"),
                     [1, 1, 1, 2, 3, 4] + [2, 3, 4, 6, 6, 2] + [5, 2, 3, 4, 6, 6]
                     + [1, 1, 1, 1, 2, 3] + [2, 3, 4, 6, 6, 2] * 5,
                     names=("Anna", ("Profi 2", "profi")), lang=lang)
    press(sim, "A", "DOWN", "DOWN")
    sim.run(8000)  # the computer farkles
    assert sim.state()["screen"] == "handover"
    assert sim.state()["results"] == [["Profi 2", None], ["Anna", 1000]]
    texts = drawn(sim)
    assert _t(sim, "turn_nothing") % "Profi 2" in texts
    assert "Anna +1000" in texts
    press(sim, "A", "DOWN", "DOWN")  # Anna banks 50
    sim.run(15000)
    assert sim.state()["screen"] == "handover"
    results = sim.state()["results"]
    assert results[0][0] == "Profi 2" and results[0][1] >= 2000, results
    assert "Profi 2 +%d" % results[0][1] in drawn(sim)
    from firmware.screens.turns import result_line

    game.seats[1].name = "WWWWWWWWWWWW"  # the longest names give way, the result stays
    for result, end in (((1, None), _t(sim, "turn_nothing") % ""), ((1, 12350), " +12350")):
        line = result_line(sim.app, game, result)
        assert line.endswith(end) and sim.app.ui.width(line) <= sim.app.width, line


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_farkle_line_says_the_loss_only_when_there_was_one(tmp_path, board, lang, drawn):
    sim, game = _sim(tmp_path, board, preset("zehntausend"), [2, 3, 4, 6, 6, 2], lang=lang)
    press(sim, "A")
    assert game.phase == "farkle" and game.lost == 0
    texts = drawn(sim)
    assert _t(sim, "farkle") in texts
    assert not [s for s in texts if "0" in s and s.startswith(_t(sim, "farkle"))]
    # Overthrown with 12000 lost: the line fits (shortened to "-12000" if need be).
    sim2, game2 = _sim(tmp_path / "b", board, preset("punktlandung").replace(target=50000),
                       [5, 5, 5, 2, 3, 1, 1], scores=(37950, 100), lang=lang)
    press(sim2, "A")
    assert game2.phase == "decide"
    game2.turn_total = 12000  # a long turn, set here rather than rolled
    press(sim2, "UP", "UP")
    assert game2.phase == "farkle" and game2.lost_kind == "bust" and game2.lost == 12000
    texts = drawn(sim2)
    assert [s for s in texts if s.startswith(_t(sim2, "bust")) and "12000" in s], texts


def _tie_game(tmp_path, board, lang, tie="trigger"):
    """Spieler 1 and 2 end on 1000 each; Spieler 1 reached it first (a
    play-off: Spieler 1 scores 50, Spieler 2 nothing)."""
    rules = preset("zehntausend").replace(target=1000, tie=tie)
    return _sim(tmp_path, board, rules,
                [1, 1, 1, 2, 3, 4] * 2 + [5, 2, 3, 4, 6, 6] + [2, 3, 4, 6, 6, 2],
                names=("Spieler 1", "Spieler 2"), lang=lang)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_a_tie_names_its_reason(tmp_path, board, lang, drawn):
    sim, game = _tie_game(tmp_path, board, lang)
    press(sim, "A", "DOWN", "DOWN", "A", "DOWN", "DOWN")
    sim.run(500)
    assert sim.state()["screen"] == "winner" and sim.state()["scores"] == [1000, 1000]
    texts = drawn(sim)
    assert _t(sim, "winner") % "Spieler 1" in texts
    assert _small(sim, "tie_final") in texts
    # With a play-off, the play-off decides and says so.
    sim, game = _tie_game(tmp_path / "p", board, lang, "playoff")
    press(sim, "A", "DOWN", "DOWN", "A", "DOWN", "DOWN")
    for _ in range(10):
        state = sim.state()
        if state["screen"] == "winner":
            break
        if state["screen"] == "play" and state["phase"] == "keep":
            press(sim, "DOWN", "DOWN")
        else:
            press(sim, "A")
        sim.run(300)
    assert sim.state()["screen"] == "winner"
    assert _t(sim, "won_playoff") in drawn(sim)


def test_tie_without_the_trigger_goes_to_the_earlier_seat(tmp_path, drawn):
    # Ben opens the final round with 1000; Cleo ties him, Anna farkles her
    # last turn: the trigger rule gives it to the opener.
    rules = preset("zehntausend").replace(target=1000)
    sim, game = _sim(tmp_path, "thumby", rules,
                     [2, 3, 4, 6, 6, 2] + [1, 1, 1, 2, 3, 4] * 2 + [2, 3, 4, 6, 6, 2],
                     names=("Anna", "Ben", "Cleo"))
    press(sim, "A", "A", "A", "DOWN", "DOWN", "A", "DOWN", "DOWN", "A", "A")
    sim.run(500)
    assert sim.state()["screen"] == "winner"
    assert sim.state()["scores"] == [0, 1000, 1000]
    assert _t(sim, "tie_final_small") in drawn(sim)
    # The same tie, but the opener left: the earlier seat of the leaders wins.
    from firmware.screens.standings import win_reason

    game.final = 0
    assert win_reason(sim.app, game) == [_t(sim, "tie_seat")]


# ------------------------------------------------------------ solo


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_a_game_alone_counts_turns_and_keeps_the_record(tmp_path, board, lang, drawn):
    from firmware.stats import Stats

    rules = preset("zehntausend").replace(target=1000)

    def solo(folder, farkles):
        sim, game = _sim(folder, board, rules, [2, 3, 4, 6, 6, 2] * farkles + [1, 1, 1, 2, 3, 4],
                         names=("Anna",), lang=lang)
        for turn in range(farkles):
            assert _t(sim, "solo_head") % (turn + 1, 0) in drawn(sim)
            press(sim, "A", "A")  # roll, farkle, pass
        press(sim, "A")
        assert _t(sim, "solo_head") % (farkles + 1, 0) in drawn(sim)
        press(sim, "DOWN", "DOWN")
        sim.run(500)
        assert sim.state()["screen"] == "winner"
        return sim

    sim = solo(tmp_path / "a", 2)
    texts = drawn(sim)
    assert _t(sim, "solo_turns") % 3 in texts and _t(sim, "solo_record") in texts
    stats, _ = Stats.load(sim.app.session.store)
    assert stats.person("Anna")["solo"] == [("zehntausend:1000", 3)]
    # A slower game on the same device: the record stands and is shown.
    import shutil

    shutil.copytree(tmp_path / "a", tmp_path / "b")
    sim = solo(tmp_path / "b", 4)
    texts = drawn(sim)
    assert _t(sim, "solo_turns") % 5 in texts and _t(sim, "solo_best") % 3 in texts
    stats, _ = Stats.load(sim.app.session.store)
    assert stats.person("Anna")["solo"] == [("zehntausend:1000", 3)]


def test_new_texts_exist_in_both_languages():
    for key in ("ask_roll", "ask_bank", "ask_roll_hint", "ask_roll_hint_small", "ask_bank_hint",
                "ask_bank_hint_small", "inherited", "inherited_small", "offer_hint_small",
                "hurry_hint_small", "turn_nothing", "tie_final", "tie_final_small", "tie_seat",
                "won_playoff", "solo_head", "solo_turns", "solo_record", "solo_best"):
        assert key in TEXTS["de"] and key in TEXTS["en"], key


@pytest.mark.parametrize("lang", ("de", "en"))
def test_solo_header_fits_with_big_numbers(tmp_path, lang, drawn):
    sim, game = _sim(tmp_path, "thumby", preset("zehntausend"), [1, 1, 1, 1, 2, 3],
                     names=("Anna",), scores=(9950,), lang=lang)
    game.seats[0].turns = 98
    press(sim, "A")
    game.turn_total = 3200  # a long turn, set here rather than rolled
    texts = drawn(sim)
    assert _t(sim, "solo_head") % (99, 9950) in texts and "+3200" in texts


def test_picking_all_scoring_dice_chooses_as_scoring_keep_does(tmp_path):
    """UP/DOWN with nothing picked picks every scoring die: from the game's
    kept list of valid keeps, the same dice as the full subset walk chose
    (scoring_keep, then the best allowed keep when that one is past an
    exact target), for every preset, near its target too."""
    import random

    from engine import scoring
    from engine.rules import PRESETS
    from firmware import buttons

    assert any(preset(key).exact for key in PRESETS)  # the exact branch is walked too
    rng = random.Random(5)
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    checked = 0
    for key in PRESETS:
        rules = preset(key)
        for _ in range(40):
            faces = [rng.randint(1, 6) for _ in range(rules.dice)]
            score = rng.choice((0, rules.target - 50, rules.target - 300, rules.target // 2))
            game = scripted_game(rules, [("Anna", ""), ("Ben", "")], faces + [2] * 12,
                                 (max(0, score), 0))
            play = Play(sim.app, game)
            sim.app.home(play)
            play.on_key(sim.app, buttons.A, "press")  # A rolls
            if game.phase != "keep":
                continue
            found = scoring.scoring_keep(game.roll, game.rules, game.open_singles)
            allowed = [k[0] for k in game.valid_keeps()]
            want = found[0] if found and found[0] in allowed else (allowed[0] if allowed else ())
            play.sel = [False] * len(game.roll)
            play._select_all()
            assert play.selected() == tuple(sorted(want)), (key, game.roll, score)
            checked += 1
    assert checked > 100


def test_a_pick_walks_the_rolls_keeps_once_and_scores_nothing_again(tmp_path, monkeypatch,
                                                                     drawn):
    """A die pick asks three times whether the pick is a valid keep (which
    dice do not score, the status line, the hint line's bank check): the
    roll's keeps are walked once, and the bank check takes the keep's
    points from them instead of scoring it again."""
    sim, game = _sim(tmp_path, "pico_ssd1306_i2c", preset("zehntausend"), [1, 5, 2, 3, 4, 6])
    press(sim, "A")  # hand-over: roll
    sim.run(600)
    play = sim.app.top()
    drawn(sim)
    walks = []
    scored = []
    real_keeps = type(play.game).valid_keeps
    from engine import scoring

    real_read = scoring.read_keep

    def keeps(self):
        walks.append(1)
        return real_keeps(self)

    def read(*args):
        scored.append(args[0])
        return real_read(*args)

    monkeypatch.setattr(type(play.game), "valid_keeps", keeps)
    monkeypatch.setattr(scoring, "read_keep", read)
    press(sim, "A")  # the 1: a valid keep
    assert TEXTS["de"]["selection"] % 100 in drawn(sim)
    assert play.selected() == (1,) and len(walks) == 1 and scored == []
    press(sim, "RIGHT", "A")  # the 5 too: one more walk for the new pick
    assert TEXTS["de"]["selection"] % 150 in drawn(sim)
    assert play.selected() == (1, 5) and len(walks) == 2 and scored == []
