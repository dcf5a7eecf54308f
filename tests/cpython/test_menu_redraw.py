"""What a menu's value change works out again, through the headless
simulator: only what changed (issue 30, point 3: every menu within a frame
on the chip, where each text, fit and Rules made costs a millisecond)."""

from simulator.host import Sim
from tests.cpython.simdriver import press


def test_the_new_game_form_makes_the_plan_rules_once_a_rules_choice(tmp_path):
    """A seat count or target change keeps the rules choice: the start row's
    solve estimate is not worked out again (two Rules and an encoding a
    redraw); a new choice works it out, and the row says what it did."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    press(sim, "A")  # New game: a person and a Profi (a plan player)
    form = sim.app.top()
    assert form.name == "setup" and [k for _, k in form.seats] == ["", "profi"]
    made = []
    real = form._rules

    def counting(app):
        made.append(form._choice())
        return real(app)

    form._rules = counting
    press(sim, "DOWN", "RIGHT", "RIGHT", "LEFT")  # the target row: three changes
    press(sim, "DOWN", "RIGHT", "LEFT")  # the seat count: a seat more, and less
    assert made == []
    start = form.labels(sim.app)[-1]
    press(sim, "UP", "UP", "RIGHT")  # the rules row: the next preset
    assert made == [1, 1]  # the preset's target (Setup.change), then the estimate
    assert form.labels(sim.app)[-1] == start == sim.app.t("start_game")  # presets: shipped plans
    press(sim, "LEFT")
    assert made == [1, 1, 0, 0]
