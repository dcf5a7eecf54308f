"""Computer decisions under MicroPython: time and heap per decision.

    micropython tools/mp/bot_bench.py [ROOT] [PRESET] [GAMES]

Plays GAMES two-seat games of Profi against Mutig (and Vorsichtig) under
PRESET with the Expert's plan read from tables/, timing every `decide` and
measuring what it allocates (the collector is paused around each call).
Prints `name value` lines: mean and max microseconds per decision for each
level, and the most bytes one decision allocated.
"""

import gc
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, root)

from time import ticks_diff, ticks_us  # noqa: E402

from engine.bots import make_bot  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.rules import preset  # noqa: E402
from engine.turnplan import TurnPlan  # noqa: E402
from engine.view import View  # noqa: E402


def main():
    """Play and measure."""
    key = sys.argv[2] if len(sys.argv) > 2 else "zehntausend"
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    rules = preset(key)
    with open(root + "/tables/plan-%s.bin" % rules.fingerprint(), "rb") as f:
        plan = TurnPlan.from_bytes(f.read(), rules)
    levels = ("profi", "mutig", "vorsichtig")
    bots = {k: make_bot(k, rules, plan) for k in levels}
    stats = {k: [0, 0, 0, 0] for k in levels}  # count, total us, max us, max bytes
    for g in range(games):
        other = levels[1 + g % 2]
        seats = [("P", "profi"), ("O", other)] if g % 4 < 2 else [("O", other), ("P", "profi")]
        game = Game(rules, seats, SeededDice(g + 1))
        while game.phase != "over":
            kind = game.seat().kind
            view = View(game)
            gc.collect()
            gc.disable()
            before = gc.mem_alloc()
            t0 = ticks_us()
            action = bots[kind].decide(view)
            us = ticks_diff(ticks_us(), t0)
            used = gc.mem_alloc() - before
            gc.enable()
            s = stats[kind]
            s[0] += 1
            s[1] += us
            s[2] = max(s[2], us)
            s[3] = max(s[3], used)
            game.apply(action)
    for k in levels:
        s = stats[k]
        if s[0]:
            print("%s_decisions %d" % (k, s[0]))
            print("%s_mean_us %d" % (k, s[1] // s[0]))
            print("%s_max_us %d" % (k, s[2]))
            print("%s_max_alloc_bytes %d" % (k, s[3]))


main()
