"""App benchmark, run under MicroPython (or CPython) from the repository root.

    micropython tools/mp/app_bench.py [--path DIR] [--small] [--bot profi|mutig]

Prints `name value` lines:
- step_median_us, step_mean_us, step_max_us: `app.step` over a whole game
  (tools/mp/app_run.py's game; the max includes the computer's first move,
  when 'profi' solves its plan), draw_step_median_us: the steps that drew,
  game_steps: how many steps the game took;
- redraw_us: one full redraw of the play screen (dice on the table),
  forced by `app.dirty = True` (median of 50), and the device estimate
  redraw_device_ms (x100) and frame_device_ms (plus the 23 ms transfer of
  a 128x64 frame over 400 kHz I2C);
- idle_alloc_bytes, idle_draws: heap allocated and frames drawn by 1000
  idle steps (no button change, no timer due) on the hand-over screen, the
  play screen (a person to move) and the title, with the gc disabled;
  idle_heap_lock_ok 1: the same steps under micropython.heap_lock(), where
  any allocation raises MemoryError.
"""

import gc
import sys
from array import array

from clock import ticks_diff, ticks_us  # noqa: E402 (tools/mp, the script's folder)

TRANSFER_MS = 23  # one 128x64 frame (1 KiB) over 400 kHz I2C
IDLE_STEPS = 1000
MAX_STEPS = 12000  # steps of one game, at most


def _import_run():
    sys.path.insert(0, "tools/mp")
    import app_run

    sys.path.pop(0)
    return app_run


def _median(values):
    s = list(values)  # sized once, sorted in place
    s.sort()
    return s[len(s) // 2] if s else 0


def _until(app, policy, done, now):
    """Press keys by `policy` until `done(app)` (checked after every step);
    returns the time reached."""
    for _ in range(20000):
        if done(app):
            return now
        key = policy.key(app)
        for held in ((0,) if key is None else (key, key, 0, 0)):
            now += 20
            app.step(now, held)
            if done(app):
                return now
    raise RuntimeError("state not reached")


def _idle(app, now):
    """1000 idle steps: (bytes allocated, frames drawn, new time)."""
    for _ in range(5):  # settle: releases, animations, the redraw due
        now += 500
        app.step(now, 0)
    step = app.step
    gc.collect()
    gc.disable()
    before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    draws = 0
    for _ in range(IDLE_STEPS):
        now += 20
        if step(now, 0):
            draws += 1
    after = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    gc.enable()
    return after - before, draws, now


def _locked(app, now):
    """The idle steps under heap_lock: True when none allocated."""
    try:
        import micropython
    except ImportError:
        return True, now
    step = app.step
    ok = True
    micropython.heap_lock()
    try:
        for _ in range(IDLE_STEPS):
            now += 20
            step(now, 0)
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    return ok, now


def main():
    """Run every measurement and print one line each."""
    app_run = _import_run()
    opts = app_run._options(sys.argv)
    app_run.setup_path(opts["path"])

    # A whole game, every step timed.
    app = app_run.build(opts["small"], opts["seed"])
    tbuf = array("i", range(MAX_STEPS))  # preallocated: no regrowth mid-game
    dbuf = array("i", range(MAX_STEPS))
    count = [0, 0]
    real_step = app.step

    def timed(now, held):
        t0 = ticks_us()
        drew = real_step(now, held)
        us = ticks_diff(ticks_us(), t0)
        tbuf[count[0]] = us
        count[0] += 1
        if drew:
            dbuf[count[1]] = us
            count[1] += 1
        return drew

    app.step = timed
    steps = app_run.play_game(app, app_run.Policy(opts["bot"], opts["target"]))
    times = tbuf[:count[0]]
    drawn = dbuf[:count[1]]
    tbuf = dbuf = app = None
    gc.collect()
    print("game_steps", steps)
    print("step_median_us", _median(times))
    print("step_mean_us", sum(times) // len(times))
    print("step_max_us", max(times))
    print("draw_step_median_us", _median(drawn))
    times = drawn = None
    gc.collect()

    # A fresh game: the idle title, then the play screen with dice.
    app = app_run.build(opts["small"], opts["seed"] + 1)
    policy = app_run.Policy(opts["bot"], opts["target"])
    alloc = draws = 0
    a, d, now = _idle(app, 0)
    alloc += a
    draws += d
    ok, now = _locked(app, now)

    def person_keeps(app):
        top = app.top()
        return (top.name == "play" and top.game.phase == "keep"
                and not top.game.seat().is_bot)

    now = _until(app, policy, person_keeps, now)
    a, d, now = _idle(app, now)
    alloc += a
    draws += d
    ok2, now = _locked(app, now)
    ok = ok and ok2
    redraws = []
    for _ in range(50):
        now += 20
        app.dirty = True
        t0 = ticks_us()
        app.step(now, 0)
        redraws.append(ticks_diff(ticks_us(), t0))
    redraw = _median(redraws)
    print("redraw_us", redraw)
    print("redraw_device_ms", redraw * 100 // 1000)
    print("frame_device_ms", redraw * 100 // 1000 + TRANSFER_MS)

    now = _until(app, policy, lambda app: app.top().name == "handover", now)
    a, d, now = _idle(app, now)
    alloc += a
    draws += d
    ok2, now = _locked(app, now)
    ok = ok and ok2
    print("idle_alloc_bytes", alloc)
    print("idle_draws", draws)
    print("idle_heap_lock_ok", 1 if ok else 0)


main()
