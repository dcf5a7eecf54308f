"""Tips through the headless simulator, by key presses: switched on at the
new-game form, the guided part ending after three confirmed decisions,
switched off from the standings, the cost line and the end summary."""

from engine.dice import ScriptedDice
from engine.game import Game
from engine.rules import preset
from firmware import tips
from firmware.screens.play import Play
from simulator.host import Sim
from tests.cpython.simdriver import person_turn_step, press
from tools.texts import de as texts_de
from tools.texts import en as texts_en

BOARDS = ("pico_ssd1306_i2c", "thumby")


def _to_row(sim, row):
    """Move the new-game form's highlight to the row named `row`."""
    rows = sim.app.top()._rows()
    while rows[sim.state()["index"]] != row:
        press(sim, "DOWN")


def _start_with_tips(sim, on=True):
    """Title -> new game (1 person, 1 Expert); the person's tips on or off."""
    press(sim, "A")
    assert sim.state()["screen"] == "setup"
    _to_row(sim, "tips")
    press(sim, "A")
    assert sim.state()["screen"] == "tips_pick"
    person = sim.state()
    labels = sim.app.top().labels(sim.app)
    if labels[0].endswith(sim.app.t("tips_on")) != on:
        press(sim, "A")
    assert sim.app.top().labels(sim.app)[0].endswith(sim.app.t("tips_on" if on else "tips_off"))
    press(sim, "B")
    assert person["index"] == 0
    _to_row(sim, "start")
    press(sim, "A")


def _play(sim):
    for screen in sim.app.stack:
        if screen.name == "play":
            return screen
    return None


def test_guided_part_ends_after_three_decisions(tmp_path):
    for board in BOARDS:
        data = str(tmp_path / board)
        sim = Sim(board, data, 21)
        _start_with_tips(sim)
        play = _play(sim)
        assert play.tips.on(0) and not play.tips.on(1)
        seen_guided = False
        notes = []
        for _ in range(3000):
            state = sim.state()
            screen = state["screen"]
            if screen in ("handover", "message"):
                press(sim, "A")
                continue
            assert screen == "play", screen
            if state["engine"][1][state["current"]][1]:
                sim.run(300)
                continue
            if state["phase"] in ("keep", "decide", "farkle") and play.tips.guided[0] < 3:
                sim.run(500)  # the roll settles; the coach answers in the pass after a frame
                lines = play.tips._lines
                step = sim.app.t("tip_step_now") % (play.tips.guided[0] + 1, 3)
                assert step in lines, lines
                seen_guided = True
            before = play.tips.guided[0]
            person_turn_step(sim, state, [])
            if play.tips.guided[0] != before:
                notes.append(play.tips.note)
            if play.tips.guided[0] == 3:
                break
        assert seen_guided
        # Three confirmed decisions: steps 1/3, 2/3 (or a cost line), then "done".
        assert len(notes) == 3
        assert notes[-1] in (sim.app.t("tip_guided_done"), ) or "~" in notes[-1], notes
        assert notes[0] in (sim.app.t("tip_step") % (1, 3),) or "~" in notes[0], notes
        # After the guided part the tips go on, without the lesson lines.
        for _ in range(400):
            state = sim.state()
            if state["screen"] != "play" or state["engine"][1][state["current"]][1]:
                press(sim, "A") if state["screen"] != "play" else sim.run(300)
                continue
            if state["phase"] in ("keep", "decide"):
                break
            person_turn_step(sim, state, [])
        play = _play(sim)
        status = play.tips.status(sim.app, play, "")
        assert status is not None
        sim.run(500)  # the roll settles; the coach answers in the pass after a frame
        assert not [s for s in play.tips._lines if s.startswith(sim.app.t("tip_step_now")[:5])]
        assert play.tips._lines  # the numbers stay
        # The state survives a power cycle: Continue shows the same tips.
        again = Sim(board, data, 5)
        press(again, "A")
        assert again.state()["screen"] in ("play", "handover")
        resumed = _play(again)
        assert resumed.tips.on(0) and resumed.tips.guided[0] == 3


def test_tips_switch_from_the_standings(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 4)
    _start_with_tips(sim)
    assert sim.state()["screen"] == "handover"
    press(sim, "B")
    assert sim.state()["screen"] == "standings"
    labels = sim.app.top().labels(sim.app)
    row = labels.index(sim.app.t("tips") + ": " + sim.app.t("tips_on"))
    while sim.state()["index"] != row:
        press(sim, "DOWN")
    press(sim, "A")
    assert sim.app.top().labels(sim.app)[row] == sim.app.t("tips") + ": " + sim.app.t("tips_off")
    assert not _play(sim).tips.on()
    press(sim, "A")  # on again
    assert _play(sim).tips.on()
    press(sim, "A")  # and off
    press(sim, "B")
    assert sim.state()["screen"] == "handover"
    again = Sim("pico_ssd1306_i2c", str(tmp_path), 9)  # saved with the game
    press(again, "A")
    assert not _play(again).tips.on(0)


def test_off_at_setup_means_no_tips(tmp_path):
    sim = Sim("thumby", str(tmp_path), 4)
    _start_with_tips(sim, on=False)
    press(sim, "A")
    play = _play(sim)
    assert not play.tips.on(0)
    assert play.tips._lines == [] and play.tips._key is None


def _scripted(tmp_path, board, rules, faces, scores=(0, 0), flags=(True, False)):
    sim = Sim(board, str(tmp_path / board), seed=1)
    game = Game(rules, [("Anna", ""), ("Ben", "")], ScriptedDice(faces))
    for i, score in enumerate(scores):
        game.seats[i].score = score
        game.seats[i].entered = score > 0
    tips.start_game(sim.app.session, game, list(flags))
    sim.app.session.save_game(game)
    sim.app.home(Play(sim.app, game))
    sim.run(200)
    return sim, game


def test_cost_line_and_the_end_summary(tmp_path):
    for board in BOARDS:
        rules = preset("zehntausend")  # a shipped plan: the full tips
        # Anna rolls 1,2,3,4,6,6 and banks the single 1: rolling five dice
        # was worth far more. Ben farkles, Anna opens the final round with
        # 1,1,1,1,5, Ben farkles his last turn.
        sim, game = _scripted(tmp_path, board, rules,
                              [1, 2, 3, 4, 6, 6] + [2, 3, 4, 6, 6, 2] + [1, 1, 1, 1, 5, 2]
                              + [2, 3, 4, 6, 6, 2], scores=(9200, 100))
        press(sim, "A")  # hand-over: roll
        assert game.phase == "keep"
        play = _play(sim)
        press(sim, "A", "DOWN", "DOWN")  # the cursor starts on the 1: pick it, bank
        assert game.seats[0].score == 9300
        assert play.tips.note == sim.app.t("tip_cost") % play.tips.cost[0]
        assert play.tips.cost[0] > 200
        status = play.tips.status(sim.app, play, "")
        assert status == play.tips.note
        # Ben farkles; Anna wins with 1,1,1,1,5: the summary shows above the winner.
        for _ in range(30):
            state = sim.state()
            if state["screen"] in ("message", "winner"):
                break
            if state["screen"] == "handover":
                press(sim, "A")
            elif state["phase"] == "farkle":
                press(sim, "A")
            elif state["phase"] == "keep":
                press(sim, "DOWN", "DOWN")
            else:
                press(sim, "A")
        state = sim.state()
        assert state["screen"] == "message", state
        assert state["title"] == sim.app.t("tip_total_title")
        assert state["lines"] == [sim.app.t("tip_total") % ("Anna", play.tips.cost[0])]
        press(sim, "A")
        assert sim.state()["screen"] == "winner"
        assert not sim.app.session.store.fs.exists(tips.FILE)


def test_every_tip_line_fits_the_screen(tmp_path):
    for board in BOARDS:
        for lang in ("de", "en"):
            sim, game = _scripted(tmp_path, board, preset("zehntausend"),
                                  [1, 1, 5, 2, 3, 6, 2, 3, 4, 6, 6, 2])
            sim.app.lang = lang
            press(sim, "A")
            play = _play(sim)
            ui = sim.app.ui
            for keys in ((), ("A",), ("UP",)):
                press(sim, *keys)
                play.tips.status(sim.app, play, "")
                for line in play.tips._lines + [play.tips._head]:
                    assert ui.width(line) <= ui.w, (board, lang, line)
            assert set(play.tips._marks) == {0, 1, 2}  # the 1s and the 5 score


def test_strings_for_tips_exist_in_both_languages():
    for key in ("tip_keep_bank", "tip_risk", "tip_guided_done", "tip_cost", "tips_for"):
        assert key in texts_de.TEXTS and key in texts_en.TEXTS


def test_basics_without_a_plan(tmp_path):
    """Custom rules with no stored plan: marks, the risk and a note, no
    solving on the spot."""
    rules = preset("zehntausend").replace(target=3000)
    sim, game = _scripted(tmp_path, "thumby", rules, [1, 1, 5, 2, 3, 6])
    press(sim, "A", "UP")
    play = _play(sim)
    play.tips.status(sim.app, play, "")
    assert play.tips._coach is None and play.players.plan is None
    assert sim.app.t("tip_no_plan") in play.tips._lines
    assert sim.app.t("tip_risk") % (3, 28) in play.tips._lines
    assert set(play.tips._marks) == {0, 1, 2}
