"""The engine's Game for rooms, with the valid keeps of a roll remembered.

scoring.keeps walks every subset of a roll (up to 63 for six dice) and
scores each: the largest part of carrying out a roll. Its result depends
only on the dice as a multiset, the rules and the open singles (their
counts of 1s and 5s), and the rooms of a server roll the same few
hundred multisets again and again, so one bounded table serves every
room. The device keeps no such table (engine.game.Game.keeps_of).
"""

from engine import scoring
from engine.game import Game
from server.limits import Lru

KEPT = 4096  # rolls remembered: 924 multisets of up to six dice per rule set and open singles


class Memo:
    """scoring.keeps with its results remembered (at most `size`, the
    least recently used dropped first). Each call gets a list of its own:
    the engine's callers may keep it."""

    def __init__(self, size=KEPT):
        self.table = Lru(size)
        self.hits = 0
        self.misses = 0

    def __call__(self, roll, rules, aside=()):
        """scoring.keeps(roll, rules, aside)."""
        key = (tuple(sorted(roll)), tuple(sorted(aside)) if aside else (), rules.encode())
        found = self.table.get(key)
        if found is None:
            self.misses += 1
            found = tuple(scoring.keeps(roll, rules, aside))
            self.table[key] = found
        else:
            self.hits += 1
        return list(found)


KEEPS = Memo()


class RoomGame(Game):
    """Game with KEEPS for the keeps of a roll."""

    keeps_of = staticmethod(KEEPS)
