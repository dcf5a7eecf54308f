"""Plain words for the tips: which sentence says what the coach found.

Pure functions over numbers and dice, no app and no drawing, so the choice
of words is tested under MicroPython too (tests/both/test_coach.py). Each
returns a text key and its values; the screen translates them with
`app.t(key) % values`. The sentences are short enough for one line of the
72x40 screen (the move) or of the 128x64 screen (the reason).

- `move`: what to do now, step by step: "Nimm 1 und 5" while the dice are
  not picked, "Dann sichern" once they are.
- `reason`: why, as a fraction a beginner reads at a glance ("3 von 4
  Würfen treffen", "Fehlwurf bei 1 von 3"), never a symbol or a bare %.
- `fraction`: a chance as "num in den" with a small den (Help uses it too).
"""

from engine.game import BANK, TAKE

ALMOST = 0.95  # above this a chance reads "almost always"; below 1 - ALMOST "almost never"
MAX_DEN = 10  # one-digit fractions (and 10) fit the lines


def fraction(chance):
    """`chance` (0..1) as (num, den) with den <= 10, the smallest den that
    is close enough (within 15% of the rarer side, plus half a point), else
    the closest; (1, 1) above ALMOST and (0, 1) below 1 - ALMOST. E.g. 0.722
    -> (3, 4), 0.556 -> (1, 2), 1/3 -> (1, 3)."""
    if chance >= ALMOST:
        return 1, 1
    if chance <= 1 - ALMOST:
        return 0, 1
    rare = chance if chance < 0.5 else 1 - chance
    close = 0.15 * rare + 0.005
    best = (2.0, 1, 2)  # worse than any real error (at most 1)
    for den in range(2, MAX_DEN + 1):
        num = int(chance * den + 0.5)
        if num < 1:
            num = 1
        if num >= den:
            num = den - 1
        err = abs(num / den - chance)
        if err <= close:
            return num, den
        if err < best[0]:
            best = (err, num, den)
    return best[1], best[2]


def hits(chance):
    """How often a roll scores: '3 von 4 Würfen treffen' (tip_hits),
    '1 von 3 Würfen trifft' (tip_hits_one), 'Fast jeder Wurf trifft'."""
    num, den = fraction(chance)
    if num == den:
        return "tip_hits_sure", ()
    if num == 1:
        return "tip_hits_one", (den,)
    return "tip_hits", (num, den)


def farkles(chance):
    """How often a roll scores nothing: 'Fehlwurf bei 1 von 3'."""
    num, den = fraction(chance)
    if num == 0:
        return "tip_farkles_rare", ()
    if num == 1:
        return "tip_farkles_one", (den,)
    return "tip_farkles", (num, den)


def take(keep, on_table):
    """'Nimm die 1', 'Nimm 1 und 5', 'Nimm 1, 1 und 5', 'Nimm 1, 1, 1 und
    5', 'Nimm alle Würfel' (every die on the table), else 'Nimm 5
    markierte' (the arrows show them)."""
    n = len(keep)
    if n == on_table and n > 1:
        return "tip_take_all", ()
    if n == 1:
        return "tip_take1", (keep[0],)
    if n == 2:
        return "tip_take2", (keep[0], keep[1])
    if n == 3:
        return "tip_take3", (keep[0], keep[1], keep[2])
    if n == 4:
        return "tip_take4", (keep[0], keep[1], keep[2], keep[3])
    return "tip_take_marked", (n,)


def move(phase, best, then, keep, chosen, on_table, wins):
    """The move in words. `best` the coach's best action, `then` ROLL or
    BANK after the keep (phase "keep") or in phase "decide", `keep` the
    dice of the best keep, `chosen` the dice the person has picked,
    `on_table` how many dice lie on the table, `wins` True when banking
    wins at once. Phase "keep": the dice to take until they are picked,
    then what to do with them; "decide": bank or roll; "start": take over
    or start fresh (offer only; else None)."""
    if phase == "keep":
        if chosen != keep:
            return take(keep, on_table)
        if then == BANK:
            return ("tip_then_win", ()) if wins else ("tip_then_bank", ())
        return "tip_then_roll", ()
    if phase == "decide":
        if then == BANK:
            return ("tip_wins", ()) if wins else ("tip_bank", ())
        return "tip_roll", ()
    if phase == "start":
        return ("tip_take_over", ()) if best == TAKE else ("tip_fresh", ())
    return None


def reason(then, farkle, wins, chance=None):
    """Why: banking wins ('tip_wins_now'); on a last turn the chance to
    pass the leader (`chance`, 0..1); else for rolling on how often the
    dice left score, and for banking how often they would not."""
    if wins:
        return "tip_wins_now", ()
    if chance is not None:
        num, den = fraction(chance)
        if num == den:
            return "tip_win_sure", ()
        if num == 0:
            return "tip_win_none", ()
        return "tip_win_chance", (num, den)
    if then == BANK:
        return farkles(farkle)
    return hits(1 - farkle)
