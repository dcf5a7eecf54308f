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


def test_arrow_buttons_show_arrows_drawn_as_shapes(tmp_path):
    """The default font has no arrow glyphs (they were empty boxes): each
    arrow button carries a triangle pointing its way."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    pygame.init()
    try:
        size, screen, circles = window._layout(sim.width, sim.height, 6)
        surface = pygame.Surface(size)
        window._draw(surface, pygame.Surface((sim.width, sim.height)), sim, screen, circles,
                     pygame.font.Font(None, 22))
        for bit, (dx, dy) in window.ARROWS.items():
            x, y, r = circles[bit]
            tip = (x + dx * (r // 2 - 2), y + dy * (r // 2 - 2))
            tail = (x - dx * (r // 2 - 2), y - dy * (r // 2 - 2))
            beside_tip = (tip[0] + dy * (r // 3), tip[1] + dx * (r // 3))
            assert surface.get_at(tip)[:3] == window.LABEL, bit
            assert surface.get_at(beside_tip)[:3] == window.BUTTON, bit
            assert surface.get_at(tail)[:3] == window.BUTTON, bit  # a triangle, not a box
    finally:
        pygame.quit()


def test_idle_window_sleeps(tmp_path, monkeypatch):
    """Nothing happening: few app steps, no repaints, little CPU."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=1)
    steps = []
    paints = []
    step = sim.app.step
    draw = window._draw
    monkeypatch.setattr(sim.app, "step", lambda now, held: steps.append(now) or step(now, held))
    monkeypatch.setattr(window, "_draw", lambda *a: paints.append(1) or draw(*a))
    import time

    cpu = time.process_time()
    wall = time.monotonic()
    window.run(sim, seconds=2.0)
    cpu = time.process_time() - cpu
    wall = time.monotonic() - wall
    print("idle: %d steps, %d paints, cpu %.0f%% of %.1f s" % (
        len(steps), len(paints), 100 * cpu / wall, wall))
    assert len(paints) <= 2  # the first picture (and the first step's)
    assert len(steps) <= 2000 // window.STEP_MS // 2  # stepping at the idle pace
    assert cpu < 0.15 * wall, (cpu, wall)
    assert sim.state()["screen"] == "title"


def test_f12_writes_a_screenshot_into_the_screenshots_folder(tmp_path, capsys):
    sim = Sim("thumby", str(tmp_path / "data"), seed=1)
    pygame.init()
    pygame.display.set_mode((10, 10))
    for _ in range(2):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F12, mod=0,
                                             unicode="", scancode=0))
    window.run(sim, frames=4, shots=tmp_path / "shots")
    written = sorted(p.name for p in (tmp_path / "shots").iterdir())
    assert written == ["zehntausend-1.png", "zehntausend-2.png"]
    assert (tmp_path / "shots" / "zehntausend-1.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "screenshot written to %s" % (tmp_path / "shots") in capsys.readouterr().out


def test_screenshots_folder_is_in_the_project_and_ignored():
    from pathlib import Path

    root = Path(window.__file__).resolve().parent.parent
    assert window.SHOTS == root / "screenshots"
    assert "screenshots/" in (root / ".gitignore").read_text().split()
