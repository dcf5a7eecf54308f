"""The tips lesson (issue 25, point 11) by key presses on both layouts:
started from the standings by a person whose tips are off, its first page,
tips that name the dice and the current choice, a step note after each of
three confirmed decisions (rolling on, passing on a farkle, banking), the
end page, and tips off afterwards and after a power-off."""

import sys

import pytest

from engine.rules import preset
from firmware import tips_store
from firmware.screens.play import Play
from simulator.host import Sim
from tests.cpython.simdriver import press, scripted_game
from tests.cpython.test_tips_screens import _marked, _shown

BOARDS = ("pico_ssd1306_i2c", "thumby")
HELP = "firmware.texts_de_help"

# Anna: 1 1 5 2 3 6 (takes a 1, rolls on), 2 3 4 6 6 (a farkle, passes);
# the computer: 2 3 4 6 6 2 (a farkle); Anna: 1 5 2 3 4 4 (banks 150); the
# computer farkles again.
FACES = [1, 1, 5, 2, 3, 6] + [2, 3, 4, 6, 6] + [2, 3, 4, 6, 6, 2] + [1, 5, 2, 3, 4, 4] + [
    2, 3, 4, 6, 6, 2]


def _start(tmp_path, board, lang):
    """Anna (tips off) against a cautious computer, at her first screen."""
    sim = Sim(board, str(tmp_path / board / lang), seed=1)
    sim.app.lang = lang
    game = scripted_game(preset("zehntausend"), [("Anna", ""), ("Vorsichtig 2", "vorsichtig")],
                         FACES)
    tips_store.start_game(sim.app.session, game, [False, False])
    sim.app.session.save_game(game)
    sim.app.home(Play(sim.app, game))
    sim.run(200)
    return sim, game


def _play(sim):
    return sim.app.find("play")


def _standings_row(sim, label):
    """Open the standings (B) and move to the row reading `label`."""
    press(sim, "B")
    assert sim.state()["screen"] == "standings"
    _to_label(sim, label)


def _to_label(sim, label):
    """Move the menu's cursor to the row reading `label`."""
    labels = sim.app.top().labels(sim.app)
    assert label in labels, labels
    while labels[sim.state()["index"]] != label:
        press(sim, "DOWN")


def _start_lesson(sim):
    """From the play screen: B, down to "Tipps-Lektion", A; the first page."""
    assert not _play(sim).tips.on()
    _standings_row(sim, sim.app.t("lesson"))
    press(sim, "A")
    assert sim.state()["screen"] == "lesson"
    assert sim.app.top().lines(sim.app)  # the page says what the lesson is
    assert HELP not in sys.modules  # the page holds its texts, the book went
    press(sim, "A")  # closes it: back at the game (the hand-over to Anna first)
    assert sim.state()["screen"] in ("play", "handover")
    assert _play(sim).tips.on() and _play(sim).tips.in_lesson()


def _confirm(sim, key):
    """Roll on (UP) or bank (DOWN), answering the question when asked."""
    press(sim, key)
    if sim.state().get("asking"):
        press(sim, key)
    sim.run(600)  # the dice settle, the coach answers


def _step_note(sim, n):
    return sim.app.t("lesson_step") % (n, 3)


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ("de", "en"))
def test_three_decisions_with_tips_end_the_lesson(tmp_path, board, lang):
    sim, game = _start(tmp_path, board, lang)
    t = sim.app.t
    _start_lesson(sim)
    play = _play(sim)
    press(sim, "A")  # the first roll (no decision of the lesson)
    sim.run(600)
    assert game.roll == (1, 1, 5, 2, 3, 6) and play.tips.steps == 0
    # The tips explain the dice (an arrow under the 1 to take) and the choice.
    assert _marked(sim, play) == [0]
    assert _shown(sim, t("tip_take1") % 1), sim.rows()
    press(sim, "A")  # picks the 1 under the cursor: the tip says what next
    assert _shown(sim, t("tip_then_roll"))
    # 1. rolling on
    _confirm(sim, "UP")
    assert game.roll == (2, 3, 4, 6, 6) and game.phase == "farkle"
    assert play.tips.steps == 1
    # 2. passing the dice on after the farkle; the computer farkles too
    press(sim, "A")
    assert play.tips.steps == 2
    sim.run(20000)
    assert game.current == 0 and game.phase == "start", sim.state()
    press(sim, "A")
    sim.run(600)
    assert game.roll == (1, 5, 2, 3, 4, 4)
    assert play.tips.on()  # still in the lesson
    # 3. banking: the lesson's end page
    _confirm(sim, "DOWN")
    assert game.seats[0].score == 150
    assert sim.state()["screen"] == "lesson_done"
    # The pages' texts come from the texts' help book, which the game goes
    # on without (issue 20's heap: a game never carries it).
    assert HELP not in sys.modules
    assert sim.state()["title"] == t("lesson_done")
    assert sim.app.top().lines(sim.app)
    press(sim, "A")
    assert sim.state()["screen"] == "play"
    assert not play.tips.on(0) and not play.tips.in_lesson(0)
    # The standings say tips are off and offer the lesson again.
    sim.run(20000)  # the computer's turn
    _standings_row(sim, t("tips") + ": " + t("tips_off"))
    assert t("lesson") in sim.app.top().labels(sim.app)


@pytest.mark.parametrize("board", BOARDS)
def test_each_step_is_noted_on_the_play_screen(tmp_path, board):
    sim, game = _start(tmp_path, board, "de")
    _start_lesson(sim)
    press(sim, "A")
    sim.run(600)
    press(sim, "A")
    _confirm(sim, "UP")
    assert game.phase == "farkle"
    # A farkle's own message comes first on the status line; the step note
    # shows once the farkle is passed on.
    press(sim, "A")
    play = _play(sim)
    # on 72x40 the one status line keeps the tip words (issue 34): no note there
    want = _step_note(sim, 2) if sim.app.big else ""
    assert play.tips.view is not None and play.tips.view.note == want


@pytest.mark.parametrize("board", BOARDS)
def test_the_note_after_rolling_on_names_the_step(tmp_path, board):
    faces = [1, 1, 5, 2, 3, 6] + [1, 5, 2, 3, 4] + [2, 3, 4, 6, 6, 2] * 4
    sim = Sim(board, str(tmp_path / board), seed=1)
    game = scripted_game(preset("zehntausend"), [("Anna", ""), ("Vorsichtig 2", "vorsichtig")],
                         faces)
    tips_store.start_game(sim.app.session, game, [False, False])
    sim.app.home(Play(sim.app, game))
    sim.run(200)
    _start_lesson(sim)
    press(sim, "A")
    sim.run(600)
    press(sim, "A")
    _confirm(sim, "UP")
    assert game.roll == (1, 5, 2, 3, 4) and game.phase == "keep"
    if sim.app.big:
        assert _shown(sim, _step_note(sim, 1)), sim.rows()
    else:  # 72x40: the tip words, not "Lektion: 1 von 3" (issue 34)
        assert not _shown(sim, _step_note(sim, 1))
        assert _play(sim).tips.status(sim.app, _play(sim), "") != ""


@pytest.mark.parametrize("board", BOARDS)
def test_after_a_power_off_the_lesson_tips_are_off(tmp_path, board):
    sim, game = _start(tmp_path, board, "de")
    _start_lesson(sim)
    press(sim, "A")
    sim.run(600)
    press(sim, "A")
    _confirm(sim, "UP")  # one step of three
    assert _play(sim).tips.steps == 1
    # Power off: a new device on the same flash continues the saved game.
    again = Sim(board, str(tmp_path / board / "de"), seed=1)
    again.run(200)
    assert again.state()["screen"] == "title"
    labels = again.app.top().labels(again.app)
    assert labels[again.state()["index"]] == again.app.t("continue")
    press(again, "A")
    again.run(600)
    play = again.app.find("play")
    assert play is not None and play.game.roll == (2, 3, 4, 6, 6)
    assert not play.tips.on(0) and not play.tips.in_lesson(0)
    assert play.tips.view is None  # nothing of the tips was even loaded
    assert not _shown(again, _step_note(again, 1))


@pytest.mark.parametrize("board", BOARDS)
def test_permanent_tips_are_not_the_lesson(tmp_path, board):
    """A person with tips on is offered no lesson; switching the lesson
    off from the standings ends it without an end page."""
    sim, game = _start(tmp_path, board, "de")
    t = sim.app.t
    _start_lesson(sim)
    _standings_row(sim, t("tips") + ": " + t("tips_lesson"))
    assert t("lesson") not in sim.app.top().labels(sim.app)
    press(sim, "A")  # tips off: the lesson ends
    assert sim.app.top().name == "standings"
    assert not _play(sim).tips.on() and not _play(sim).tips.in_lesson()
    _to_label(sim, t("tips") + ": " + t("tips_off"))
    press(sim, "A")  # permanent tips on: no lesson offered
    assert _play(sim).tips.on() and not _play(sim).tips.in_lesson()
    assert t("lesson") not in sim.app.top().labels(sim.app)


@pytest.mark.parametrize("board", BOARDS)
def test_a_new_player_starts_the_lesson_from_rules_and_help(tmp_path, board):
    """Title -> Rules & help -> its last row: a game of its own (the
    player against a cautious computer, under the rules shown), the
    lesson's first page at once; a running game is replaced only after a
    yes, and the new-game form keeps its last table."""
    sim = Sim(board, str(tmp_path / board), seed=1)
    t = sim.app.t
    labels = sim.app.top().labels(sim.app)
    while labels[sim.state()["index"]] != t("help"):
        press(sim, "DOWN")
    press(sim, "A")
    assert sim.state()["screen"] == "help"
    assert sim.app.top().labels(sim.app)[-1] == t("lesson")
    press(sim, "UP", "A")  # the last row, the way round
    assert sim.state()["screen"] == "lesson"
    play = _play(sim)
    assert [s.kind for s in play.game.seats] == ["", "vorsichtig"]
    assert play.game.seats[0].name == t("player_n") % 1
    assert play.game.rules == preset("zehntausend")
    assert play.tips.in_lesson(0)
    press(sim, "A")
    assert sim.state()["screen"] in ("play", "handover")
    assert sim.app.session.load_seating() is None  # the form's table is its own
    # Again from the title while that game runs: asked first.
    sim.app.home(sim.app.stack[0])
    labels = sim.app.top().labels(sim.app)
    while labels[sim.state()["index"]] != t("help"):
        press(sim, "DOWN")
    press(sim, "A", "UP", "A")
    assert sim.state()["screen"] == "confirm"
    press(sim, "A")
    assert sim.state()["screen"] == "lesson" and _play(sim).tips.in_lesson(0)


def test_the_lesson_is_not_offered_in_a_games_help(tmp_path):
    sim, game = _start(tmp_path, "pico_ssd1306_i2c", "de")
    _standings_row(sim, sim.app.t("help"))
    press(sim, "A")
    assert sim.state()["screen"] == "help"
    assert sim.app.t("lesson") not in sim.app.top().labels(sim.app)


def test_the_standings_offer_no_lesson_in_a_room(tmp_path):
    """A room's play screen (the page's web/online.py) has tips of its own
    that offer no lesson: the standings leave it out there, and offer it in
    a local game."""
    sys.path.insert(0, "web")
    try:
        from online import OnlineTips
    finally:
        sys.path.remove("web")
    sim, game = _start(tmp_path, "pico_ssd1306_i2c", "de")
    t = sim.app.t
    press(sim, "B")
    assert t("lesson") in sim.app.top().labels(sim.app)
    press(sim, "B")
    play = _play(sim)
    play.tips = OnlineTips(game, play.players, -1)
    press(sim, "B")
    labels = sim.app.top().labels(sim.app)
    assert sim.state()["screen"] == "standings"
    assert t("tips") + ": " + t("tips_off") in labels and t("lesson") not in labels
