"""The pygame window opens on a dummy video driver and drives the app."""

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
pygame = pytest.importorskip("pygame")

from simulator import window  # noqa: E402
from simulator.host import Sim  # noqa: E402


@pytest.mark.parametrize("board", ["pico_ssd1306_i2c", "thumby"])
def test_window_runs_frames_and_shows_the_title(board, tmp_path):
    sim = Sim(board, str(tmp_path), seed=1)
    window.run(sim, frames=5)
    assert sim.state()["screen"] == "title"


def test_clicking_a_button_presses_it():
    size, screen, circles = window._layout(128, 64, 6)
    x, y, r = circles[window.buttons.A]
    assert window._hit(circles, (x, y)) == window.buttons.A
    assert window._hit(circles, (0, 0)) == 0
