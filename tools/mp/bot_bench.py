"""Computer decisions under MicroPython: time and heap per decision.

    micropython tools/mp/bot_bench.py [ROOT] [PRESET] [GAMES]

Plays GAMES two-seat games of Profi against Mutig (and Vorsichtig) under
PRESET with the Expert's plan read from tables/, then GAMES games of
Meister (its table file from tables/, read with seek) against Profi,
timing every `decide` and measuring what it allocates (the collector is
paused around each call). A Master decision over 500 us is timed once more
(cold row cache): `meister_max_us_retimed` is the max with those retimes,
which filters the busy machine's time slices out of the wall time. Prints
`name value` lines: mean and max microseconds per decision for each level,
and the most bytes one decision allocated.
"""

import gc
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, root)

from time import ticks_diff, ticks_us  # noqa: E402

from engine.bots import make_bot  # noqa: E402
from engine.dice import SeededDice  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.master import Master, table_name  # noqa: E402
from engine.rules import preset  # noqa: E402
from engine.turnplan import TurnPlan  # noqa: E402
from engine.view import View  # noqa: E402


def main():
    """Play and measure."""
    key = sys.argv[2] if len(sys.argv) > 2 else "zehntausend"
    games = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    rules = preset(key)
    with open(root + "/tables/plan-%s.bin" % rules.plan_rules().fingerprint(), "rb") as f:
        plan = TurnPlan.from_bytes(f.read(), rules)
    levels = ("profi", "mutig", "vorsichtig", "meister")
    bots = {k: make_bot(k, rules, plan) for k in levels[:3]}
    bots["meister"] = Master(plan, open(root + "/tables/" + table_name(rules), "rb"))
    # count, total us, max us, max bytes, decisions over 500 us (wall time:
    # a busy machine shows its scheduling in max and in this count)
    stats = {k: [0, 0, 0, 0, 0] for k in levels}
    retimed = {}
    for g in range(2 * games):
        if g < games:
            me, other = "profi", levels[1 + g % 2]
        else:
            me, other = "meister", "profi"
        seats = [("P", me), ("O", other)] if g % 4 < 2 else [("O", other), ("P", me)]
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
            s[4] += us > 500
            if kind == "meister" and us > 500:
                # A slow Master decision is timed again from a cold row
                # cache: a busy machine's time slices (~20 ms) show in the
                # wall time, not in the work; the retimed max is the work.
                bots[kind].table._key = None
                t0 = ticks_us()
                bots[kind].decide(view)
                us = ticks_diff(ticks_us(), t0)
            retimed[kind] = max(retimed.get(kind, 0), us)
            game.apply(action)
    for k in levels:
        s = stats[k]
        if s[0]:
            print("%s_decisions %d" % (k, s[0]))
            print("%s_mean_us %d" % (k, s[1] // s[0]))
            print("%s_max_us %d" % (k, s[2]))
            print("%s_max_alloc_bytes %d" % (k, s[3]))
            print("%s_over_500us %d" % (k, s[4]))
            if k == "meister":
                print("%s_max_us_retimed %d" % (k, retimed.get(k, 0)))


main()
