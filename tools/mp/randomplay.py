"""Random legal play for tests and benchmarks (CPython and MicroPython).

`play(rules, seats, seed)` plays one whole game with random legal actions
from two seeded sources (one for the dice, one for the choices) and returns
the finished game and the number of actions taken. Banking is chosen half of
the time it is allowed, so games end in a few hundred actions.
"""

from engine.dice import SeededDice
from engine.game import BANK, Game


def choose(game, picker):
    """One random legal action of `game`, drawn with `picker` (SeededDice)."""
    actions = game.legal_actions()
    if BANK in actions and picker.face() > 3:
        return BANK
    if len(actions) == 1:
        return actions[0]
    return actions[(picker.face() * 7 + picker.face()) % len(actions)]


def play(rules, seats, seed, limit=20000, each=None):
    """Play a game to its end (at most `limit` actions); `each(game)` is
    called after every action. Returns (game, actions)."""
    game = Game(rules, ["P%d" % i for i in range(seats)], SeededDice(seed))
    picker = SeededDice(seed * 31 + 7)
    n = 0
    while game.phase != "over" and n < limit:
        game.apply(choose(game, picker))
        n += 1
        if each is not None:
            each(game)
    return game, n
