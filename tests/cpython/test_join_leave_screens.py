"""Joining and leaving a running game from the standings, by key presses:
a person with a new name, a computer of a level, a seat that leaves
(during its own turn too), what the engine refuses, and that every change
is saved and survives a restart."""

from simulator.host import Sim
from tests.cpython.simdriver import new_game, play_to_end, press, type_name
from tools.texts import de as texts_de

DE = texts_de.TEXTS


def _to_standings(sim):
    """From the hand-over or the play screen at the start of a person's turn."""
    assert sim.state()["screen"] in ("handover", "play")
    press(sim, "B")
    assert sim.state()["screen"] == "standings"


def _choose(sim, label):
    """Move to the entry whose text starts with `label` and press A."""
    labels = sim.app.top().labels(sim.app)
    index = [k for k, text in enumerate(labels) if text.startswith(label)]
    assert index, (label, labels)
    while sim.state()["index"] != index[0]:
        press(sim, "DOWN")
    press(sim, "A")


def _game(sim):
    return sim.app.stack[1].game  # the play screen sits on the title


def test_a_person_joins_with_a_new_name_and_plays(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 3)
    new_game(sim, "zehntausend", ["", "mutig"])
    _to_standings(sim)
    _choose(sim, DE["menu_join"])
    assert sim.state()["screen"] == "join"
    _choose(sim, DE["person"])
    _choose(sim, DE["new_name"])
    assert sim.state()["screen"] == "typer"
    type_name(sim, "D")
    assert sim.state()["screen"] == "standings"
    game = _game(sim)
    assert [s.name for s in game.seats][-1] == "D" and game.seats[-1].kind == ""
    assert "D" in sim.app.session.names  # remembered for the next game
    labels = sim.app.top().labels(sim.app)
    assert any(line.endswith("D 0") for line in labels)  # in the standings at 0
    press(sim, "B")  # back; the hand-over shows again for the seat to move
    state, _ = play_to_end(sim)
    assert len(state["scores"]) == 3


def test_a_computer_joins_named_by_its_level(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 4)
    new_game(sim, "zehntausend", ["", "mutig"])
    _to_standings(sim)
    _choose(sim, DE["menu_join"])
    _choose(sim, DE["level_profi"])
    game = _game(sim)
    assert (game.seats[-1].name, game.seats[-1].kind) == ("Profi 3", "profi")
    assert sim.state()["screen"] == "standings"
    # The save has the new seat: a restart continues with three seats.
    again = Sim("pico_ssd1306_i2c", str(tmp_path), 4)
    saved, note = again.app.session.load_game(again.app.dice)
    assert note is None and [s.name for s in saved.seats][-1] == "Profi 3"


def test_the_person_to_move_leaves_and_the_dice_go_on(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 5)
    new_game(sim, "zehntausend", ["", "", "vorsichtig"])
    game = _game(sim)
    first = game.current
    name = game.seats[first].name
    _to_standings(sim)
    _choose(sim, DE["menu_leave"])
    assert sim.state()["screen"] == "seat_pick"
    assert sim.state()["index"] == first  # starts on the seat to move
    press(sim, "A")
    assert sim.state()["screen"] == "confirm"  # asked, naming who leaves
    assert sim.state()["title"] == DE["leave_ask"] % name
    assert game.seats[first].active
    press(sim, "A")
    assert not game.seats[first].active and game.current != first
    assert sim.state()["screen"] == "standings"
    assert all(s.name != "handover" for s in sim.app.stack)  # no stale hand-over
    press(sim, "B")
    state = sim.state()
    assert state["screen"] in ("handover", "play")
    if state["screen"] == "play":
        assert state["message"] == DE["seat_left"] % name
    state, _ = play_to_end(sim)
    assert state["winner"] != first


def test_what_the_engine_refuses_is_not_offered(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 6)
    new_game(sim, "zehntausend", ["", "mutig"])
    game = _game(sim)
    game.final = 0  # a final round has begun: nobody joins now
    _to_standings(sim)
    labels = sim.app.top().labels(sim.app)
    assert DE["menu_join"] not in labels and DE["menu_leave"] in labels
    game.final = -1
    press(sim, "B")
    # Leave until one seat is left: the last one cannot leave.
    _to_standings(sim)
    _choose(sim, DE["menu_leave"])
    press(sim, "DOWN", "A", "A")  # the computer leaves (asked, yes)
    assert len(game.active_seats()) == 1
    labels = sim.app.top().labels(sim.app)
    assert DE["menu_leave"] not in labels
