"""The clock wraps: a game across the wrap of `time.ticks_ms()`.

On MicroPython `ticks_ms()` starts again at 0 after 2**30 ms (12.4 days).
This game starts 200 ms before the wrap, so the roll animation, the
computer's paced steps, tip notes and button timers all cross it. Before
the timers went through firmware.clock, a due time computed as `now + ms`
lay past the wrap and every `now - due` comparison stalled the screen.
Under CPython the times never wrap and the same game must play the same.
The device's own timers: tests/both/test_ticks_wrap_device.py (a module
of its own: both rigs do not fit the capped MicroPython heap together).
"""

import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

from engine.dice import SeededDice  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import preset  # noqa: E402
from firmware import buttons  # noqa: E402
from firmware.app import App  # noqa: E402
from firmware.clock import Due, ticks_add, ticks_diff  # noqa: E402
from firmware.screens.play import BOT_PACE_MS, ROLL_ANIM_MS, Play  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402

STEP_MS = 20


class Run:
    """An app on a 128x64 canvas whose clock starts `before` ms before the wrap."""

    def __init__(self, before):
        self.now = ticks_add(0, -before)
        buf = bytearray(128 * 8)
        canvas = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
        self.app = App(canvas, 128, 64, Store(MemFS()), SeededDice(3), None, self.now)
        game = Game(preset("zehntausend"), [("Anna", ""), ("Mutig 2", "mutig")], self.app.dice)
        self.play = Play(self.app, game)
        self.app.home(self.play)
        self.elapsed = 0

    def step(self, held=0):
        self.now = ticks_add(self.now, STEP_MS)
        self.elapsed += STEP_MS
        self.app.step(self.now, held)

    def press(self, key):
        for _ in range(3):
            self.step(buttons.BITS[key])
        for _ in range(3):
            self.step()

    def until(self, done, limit_ms):
        """Step until `done()`; the ms it took (fails past `limit_ms`)."""
        start = self.elapsed
        while not done():
            assert self.elapsed - start < limit_ms, "stalled at %d ms" % (self.elapsed - start)
            self.step()
        return self.elapsed - start


def test_due_times_across_the_wrap():
    start = ticks_add(0, -30)
    due = Due()
    assert not due.reached(start) and not due.waiting(start)  # nothing due
    due.set(start, 50)
    assert due.waiting(start) and not due.reached(ticks_add(start, 49))
    assert due.reached(ticks_add(start, 50)) and due.reached(ticks_add(start, 900))
    assert ticks_diff(due.at, start) == 50
    due.clear()
    assert not due.reached(ticks_add(start, 900))


def test_a_game_plays_on_across_the_wrap():
    run = Run(200)
    app = run.app
    play = run.play
    game = play.game
    turns = 0
    while game.phase != "over" and turns < 12:
        if app.top().name == "handover":
            run.press("A")
            continue
        assert app.top() is play, app.top().name
        if not game.seat().is_bot:
            if game.phase == "start":
                run.step(buttons.A)  # roll: the press counts at once
                assert play.anim.armed
                took = run.until(lambda: not play.anim.armed, 2000)  # then runs its time
                assert took >= ROLL_ANIM_MS[1] - STEP_MS, took
                run.step()
            elif game.phase == "keep":
                run.press("DOWN")  # every scoring die; "bank?"
                run.press("DOWN")  # bank
                turns += 1
            elif game.phase == "farkle":
                run.press("A")
                turns += 1
            else:
                run.press("DOWN")
                run.press("DOWN")
                turns += 1
        else:  # the computer's turn ends by itself, at its pace
            seat = game.current
            took = run.until(lambda s=seat: game.current != s or game.phase == "over", 60000)
            assert took >= BOT_PACE_MS[1], took  # not rushed by a due time past the wrap
            turns += 1
    assert turns >= 4  # several turns, the first ones across the wrap
    assert run.elapsed > 200
    assert sum(s.score for s in game.seats) > 0

