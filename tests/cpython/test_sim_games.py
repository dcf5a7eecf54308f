"""Whole games through the headless simulator, by key presses alone."""

import pytest

from engine.rules import PRESETS
from simulator.host import Sim
from tests.cpython.simdriver import new_game, play_to_end


@pytest.mark.parametrize("key", PRESETS)
def test_complete_game_person_and_computer(key, tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=PRESETS.index(key) + 1)
    new_game(sim, key, ["", "profi"])
    state, presses = play_to_end(sim)
    assert state["winner"] in (0, 1)
    assert max(state["scores"]) >= 1000
    assert presses and max(presses) <= 4


def test_four_seats_two_people_on_the_thumby(tmp_path):
    sim = Sim("thumby", str(tmp_path), seed=11)
    new_game(sim, "fuenf", ["", "", "mutig", "vorsichtig"])
    state, presses = play_to_end(sim)
    assert 0 <= state["winner"] < 4
    assert max(presses) <= 4


def test_resume_shows_the_same_dice_after_a_restart(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=5)
    new_game(sim, "zehntausend", ["", "profi"])
    sim.keys("A,WAIT:500")  # hand-over: roll
    before = sim.state()
    assert before["phase"] == "keep"
    again = Sim("pico_ssd1306_i2c", str(tmp_path), seed=99)  # power back on
    again.keys("A")  # Continue
    after = again.state()
    assert after["screen"] == "play"
    assert after["engine"] == before["engine"]
    assert after["roll"] == before["roll"]


def test_a_game_against_the_master(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=21)
    new_game(sim, "farkle4000", ["", "meister"])
    state, presses = play_to_end(sim)
    assert state["winner"] in (0, 1)
    assert sim.app.top().game.seats[1].kind == "meister"
