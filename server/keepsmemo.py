"""The valid keeps of a roll remembered for every room of the process.

engine.scoring.keeps walks every subset of a roll (up to 63 for six
dice) and scores each: the largest part of carrying out a roll in the
server's profile (13% of a room's own work at 1,000 rooms). Its result
depends only on the dice as a multiset, the rules and the open singles,
and the rooms of a server roll the same few hundred multisets again and
again, so one bounded table serves them all.

`install` puts the memo in the place of the engine's function in this
process (engine.game asks `scoring.keeps` at each call), so the engine's
code stays as the device runs it: a hook in Game itself cost the chip's
heap its margin once (docs/performance.md). `python -m server` installs
it; a test process does not, except to test it.
"""

from engine import scoring
from server.limits import Lru

KEPT = 4096  # rolls remembered: 924 multisets of up to six dice per rule set and open singles


class Memo:
    """`keeps` with its results remembered (at most `size`, the least
    recently used dropped first). Each call gets a list of its own: the
    engine's callers may keep it."""

    def __init__(self, keeps, size=KEPT):
        self.keeps = keeps
        self.table = Lru(size)
        self.hits = 0
        self.misses = 0

    def __call__(self, roll, rules, aside=()):
        """keeps(roll, rules, aside)."""
        key = (tuple(sorted(roll)), tuple(sorted(aside)) if aside else (), rules.encode())
        found = self.table.get(key)
        if found is None:
            self.misses += 1
            found = tuple(self.keeps(roll, rules, aside))
            self.table[key] = found
        else:
            self.hits += 1
        return list(found)


_original = scoring.keeps


def install():
    """engine.scoring.keeps remembered from now on in this process; the memo."""
    if not isinstance(scoring.keeps, Memo):
        scoring.keeps = Memo(_original)
    return scoring.keeps


def uninstall():
    """The engine's own function back (for tests)."""
    scoring.keeps = _original


def stats():
    """For GET /api/stats: the memo's rolls, hits and misses (zeros when not installed)."""
    memo = scoring.keeps
    if not isinstance(memo, Memo):
        return {"rolls": 0, "hits": 0, "misses": 0}
    return {"rolls": len(memo.table), "hits": memo.hits, "misses": memo.misses}
