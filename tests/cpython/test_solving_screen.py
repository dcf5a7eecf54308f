"""Custom rules: the computer's plan is worked out with a progress bar, then
cached on flash, and the game goes on."""

from engine.dice import ScriptedDice
from engine.game import Game
from engine.rules import preset
from firmware.players import plan_file
from firmware.screens.play import Play
from simulator.host import Sim


def test_custom_rules_show_progress_then_the_computer_plays(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    rules = preset("zehntausend").replace(target=3000, three_pairs=1000)
    game = Game(rules, [("Profi", "profi"), ("Anna", "")], ScriptedDice([2, 3, 4, 6, 6, 2] * 20))
    sim.app.home(Play(sim.app, game))
    sim.step(20)
    assert sim.state()["screen"] == "solving"
    seen = set()
    for _ in range(2000):
        sim.step(20)
        state = sim.state()
        if state["screen"] != "solving":
            break
        seen.add(state["percent"])
    assert len(seen) > 5 and max(seen) >= 90  # the bar moved
    assert sim.app.session.store.fs.exists(plan_file(rules))  # cached on flash
    sim.run(3000)
    assert game.current == 1 or game.phase != "start"  # the computer played
    again = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    game2 = Game(rules, [("Profi", "profi"), ("Anna", "")], ScriptedDice([2, 3, 4, 6, 6, 2] * 20))
    again.app.home(Play(again.app, game2))
    again.step(20)
    assert again.state()["screen"] == "play"  # read from the cache, no solving


def test_b_leaves_the_solving_screen(tmp_path):
    sim = Sim("thumby", str(tmp_path), seed=1)
    rules = preset("fuenf").replace(target=2000)
    game = Game(rules, [("Profi", "profi"), ("Anna", "")], ScriptedDice([2] * 50))
    sim.app.home(Play(sim.app, game))
    sim.step(20)
    assert sim.state()["screen"] == "solving"
    sim.press("B")
    assert sim.state()["screen"] == "title"
