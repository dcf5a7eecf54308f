"""One supervisor for every host (firmware/supervisor.py) and one App
factory (firmware.app.make_app): the simulator's window and the browser
page fail the device's way, and the factory decides `has_sound`.

The device's own path is tests/both/test_recovery.py (fake machine, both
Pythons); the page's in a real browser is tests/browser/test_web.py.
"""

import pytest

from engine.game import Game
from engine.rules import preset
from firmware import buttons, recovery
from firmware.app import make_app
from firmware.board import load_board
from firmware.canvas import Canvas
from firmware.screen import Screen
from firmware.store import DirFS, Store
from simulator.host import Sim
from tests.cpython.test_web_store import Storage, webhost


class Faulty(Screen):
    """A screen whose drawing fails."""

    name = "faulty"

    def draw(self, app, canvas):
        raise KeyError("boom")


def _canvas(board):
    return Canvas(bytearray(board.WIDTH * board.HEIGHT // 8), board.WIDTH, board.HEIGHT, 0)


def test_the_factory_offers_sound_where_the_board_and_the_host_have_it(tmp_path):
    for name, sound, expect in (("thumby", True, True), ("thumby", False, False),
                                ("pico_ssd1306_i2c", True, False)):
        board = load_board(name)
        app = make_app(board, _canvas(board), Store(DirFS(str(tmp_path))), None, None, 0, sound)
        assert app.has_sound is expect, (name, sound)
        assert (app.width, app.height) == (board.WIDTH, board.HEIGHT)
    assert Sim("thumby", str(tmp_path / "s"), 1).app.has_sound  # as the device
    page = webhost.Host("thumby", Storage(), None, seed=1)
    assert not page.app.has_sound  # the page has no buzzer


def test_the_simulator_raises_unless_it_guards(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1)
    sim.app.push(Faulty())
    with pytest.raises(KeyError):
        sim.step()


def test_the_guarded_simulator_fails_the_devices_way_and_plays_on(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1, guard=True)
    game = Game(preset("zehntausend"), [("Anna", ""), ("Ben", "")], sim.app.dice)
    sim.app.session.save_game(game)
    sim.app.push(Faulty())
    sim.step()
    assert sim.app is None and sim.fault == recovery.RESTART
    assert sim.state()["screen"] == "failed"
    log = (tmp_path / recovery.LOG).read_text()
    assert "KeyError" in log and "boom" in log
    lit = sum(r.count("#") for r in sim.rows())
    assert lit  # the message is on the canvas
    sim.press("A")  # a new press: a fresh app, the saved game resumed
    assert sim.fault is None and sim.state()["screen"] == "handover"  # Anna's turn
    assert sim.app.find("play").game.seats[0].name == "Anna"
    sim.app.push(Faulty())  # again, within RECRASH_MS of the restart
    sim.step()
    assert sim.fault == recovery.STOP
    sim.press("A")
    assert sim.app is None and sim.state()["screen"] == "failed"  # stays


def test_the_restarting_press_is_kept_from_the_new_app(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1, guard=True)
    sim.app.push(Faulty())
    sim.step()
    held = buttons.DOWN
    assert sim.guarded_step(sim.now, held)  # the restart
    app = sim.app
    index = app.top().index
    assert sim.swallow == held
    sim.guarded_step(sim.now + 50, held)  # still held: not the app's
    sim.guarded_step(sim.now + 900, held)  # (no repeat either)
    assert app.top().index == index
    sim.guarded_step(sim.now + 1000, 0)  # released
    assert sim.swallow == 0
    sim.guarded_step(sim.now + 1100, held)  # a new press is the app's
    assert app.top().index == index + 1


def test_the_page_fails_the_devices_way(tmp_path):
    storage = Storage()
    page = webhost.Host("pico_ssd1306_i2c", storage, None, seed=1)
    page.step(0, 0)
    page.app.push(Faulty())
    assert page.step(20, 0)
    assert page.fault == recovery.RESTART and page.app is None
    assert "KeyError" in bytes.fromhex(storage.items["zt/" + recovery.LOG]).decode()
    assert not page.step(40, 0)  # no new press: the message stays
    assert page.step(60, buttons.A) and page.app is not None  # a press: a fresh app
    assert page.fault is None and page.app.top().name == "title"
