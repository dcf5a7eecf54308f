"""How often each computer level banks after all five dice scored in one
roll, on the Punktlandung rules (seed text 004, /work/shared/seeds: "Sind
alle fünf Würfel im selben Wurf punktend, würfelt der Computer mit allen
fünf erneut, ausser er gewinnt mit einer exakten Punktlandung").

    .venv/bin/python -m tools.five_scored --games 400 --seed 1

Each level plays --games seeded games against itself (two seats, dice as
tools.tournament seeds them). A moment is a decision right after a roll
whose five dice all scored (the engine's "hot" event); it counts as
banked when the level banked there, and as a landing when that bank
reached the target exactly (the one case the text allows). CPython only.
"""

import argparse
import json
import sys

from engine import bots, levels
from engine.dice import SeededDice
from engine.game import BANK, Game
from engine.rules import preset
from engine.view import View
from tools.tournament import dice_seed


def count(level, rules, games, seed):
    """{moments, banked, landings} of `level` over `games` self-play games."""
    out = {"moments": 0, "banked": 0, "landings": 0}
    players = [bots.make_bot(level, rules), bots.make_bot(level, rules)]
    for g in range(games):
        game = Game(rules, [("S1", "bot"), ("S2", "bot")], SeededDice(dice_seed(seed, g)))
        for _ in range(20000):
            if game.phase == "over":
                break
            hot = game.phase == "decide" and game.events and game.events[-1][0] == "hot"
            seat = game.seat()
            action = players[game.current].decide(View(game))
            game.apply(action)
            if hot:
                out["moments"] += 1
                if action == BANK:
                    out["banked"] += 1
                    if seat.score == rules.target:  # the bank landed exactly: it won
                        out["landings"] += 1
    return out


def main(argv=None):
    """Print the counts per level (--json: one object)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default=",".join(levels.LEVELS))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rules = preset("punktlandung")
    result = {}
    for level in args.levels.split(","):
        result[level] = count(level, rules, args.games, args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for level, c in result.items():
            print("%-11s %5d moments, %4d banked, %4d of them exact landings"
                  % (level, c["moments"], c["banked"], c["landings"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
