"""Idle steps of the app allocate nothing on the screens where a player
waits longest: the hand-over (with a tip line for the next person) and
the play screen (dice on the table, a question asked). An allocation per
step costs a collection every few seconds on the chip. MicroPython only
(gc.mem_alloc); the app alone, without the device rig, to fit the capped
heap of the 64-bit Unix port."""

import gc

import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

from engine.dice import ScriptedDice  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import preset  # noqa: E402
from firmware import buttons  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


class _Clock:
    now = 0


def _run(app, clock, ms, bits=0):
    for _ in range(ms // 5):
        clock.now += 5
        app.step(clock.now, bits)


def _press(app, clock, key):
    _run(app, clock, 40, key)
    _run(app, clock, 200)


def _allocated(app, clock, steps=100):
    _run(app, clock, 25)
    gc.collect()
    before = gc.mem_alloc()
    _run(app, clock, 5 * steps)
    return gc.mem_alloc() - before


def test_waiting_on_the_hand_over_and_the_play_screen_allocates_nothing():
    if not hasattr(gc, "mem_alloc"):
        return  # CPython
    from firmware import tips_store
    from firmware.screens.play import Play

    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    app = App(canvas, 128, 64, Store(MemFS()), ScriptedDice([1]), None, 0)
    clock = _Clock()
    game = Game(preset("zehntausend"), [("Anna", ""), ("Ben", "")],
                ScriptedDice([1, 5, 3, 3, 4, 6] * 4))
    tips_store.start_game(app.session, game, [True, True])
    app.home(Play(app, game))
    _run(app, clock, 200)  # the hand-over with its tip line
    assert app.top().name == "handover"
    assert _allocated(app, clock) == 0
    _press(app, clock, buttons.A)  # roll
    _run(app, clock, 1000)
    assert app.top().name == "play" and game.phase == "keep"
    assert _allocated(app, clock) == 0
    _press(app, clock, buttons.UP)  # asked: roll on?
    assert app.top().state()["asking"]
    assert _allocated(app, clock) == 0
