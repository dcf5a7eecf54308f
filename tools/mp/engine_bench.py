"""Engine benchmark, run under MicroPython or CPython from the repository root.

    micropython tools/mp/engine_bench.py [ROOT]

Prints `name value` lines: keeps() calls per second on random 6-dice rolls
(memo warm, and the first 100 rolls after a rules change), the time of one
whole random 4-seat game, and under MicroPython the live heap after imports
and what that game adds to it at its peak (sampled after a collection at
every action).
"""

import gc
import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

from clock import ticks_diff, ticks_us  # noqa: E402 (tools/mp, the script's folder)


def _mem():
    gc.collect()
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


def main():
    """Run every measurement and print one line each."""
    base = _mem()
    from engine.dice import SeededDice
    from engine.rules import Rules, preset
    from engine.scoring import keeps
    from tools.mp.randomplay import play

    print("heap_after_import", _mem() - base)
    rules = preset("zehntausend")
    dice = SeededDice(3)
    faces = bytearray(1800)  # filled in place: cheaper on a small heap
    for i in range(1800):
        faces[i] = dice.face()
    rolls = []
    for i in range(300):
        rolls.append(bytes(faces[i * 6:i * 6 + 6]))
    for roll in rolls:  # warm the memo
        keeps(roll, rules)
    t0 = ticks_us()
    for roll in rolls:
        keeps(roll, rules)
    us = ticks_diff(ticks_us(), t0)
    print("keeps_per_s", int(len(rolls) * 1000000 / us))
    print("keeps_us", us / len(rolls))
    other = Rules(three_pairs=0)
    keeps(rolls[0], other)  # the memo now holds other rules
    t0 = ticks_us()
    for roll in rolls[:100]:
        keeps(roll, rules)
    us = ticks_diff(ticks_us(), t0)
    print("keeps_cold_us", us / 100)
    t0 = ticks_us()
    game, n = play(rules, 4, 9)
    us = ticks_diff(ticks_us(), t0)
    print("game_ms", us / 1000)
    print("game_actions", n)
    print("action_us", us / n)
    del rolls, faces
    before = _mem()
    peak = [0]

    def sample(_game):
        used = _mem()
        if used > peak[0]:
            peak[0] = used

    play(rules, 4, 9, each=sample)
    if peak[0]:
        print("heap_peak_game", peak[0] - before)


main()
