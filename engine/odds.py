"""Exact odds of a roll of n dice (1..6) under given `Rules`.

A roll is judged by its faces only, not their order, so instead of the 6**n
sequences we walk the multisets of n faces (462 for six dice) and weight
each by its multinomial count, the number of sequences showing it. Weights
are integers and sum to exactly 6**n, so chances come out as exact
fractions over 6**n; floats appear only in the functions meant for display
(`farkle_chance`, `expected_best`).

Example, default rules: `score_chance(6, Rules())` is (45576, 46656).
"""

from engine import scoring

# n! for n = 0..6: all a multinomial of at most six dice needs.
_FACT = (1, 1, 2, 6, 24, 120, 720)

# n -> list of (sorted dice tuple, weight) from `outcomes`; rules-independent,
# at most 6 keys.
_outcomes = {}

# (rules encoding, n) -> points distribution; cleared when full so it stays small
# on the device however many rule sets the editor tries.
_results = {}
_RESULTS_MAX = 32


def _check_n(n):
    if type(n) is not int or n < 1 or n > 6:
        raise ValueError("odds are for 1 to 6 dice, not %r" % (n,))


def _check_game(n, rules):
    _check_n(n)
    if n > rules.dice:
        raise ValueError("%d dice in a %d-dice game" % (n, rules.dice))


def _remember(key, value):
    """Keep `value` under `key` in the results cache, cleared when full (it
    stays small on the device however many rule sets the editor tries)."""
    if len(_results) >= _RESULTS_MAX:
        _results.clear()
    _results[key] = value
    return value


def multisets(n):
    """Yield (dice, weight) for every multiset of n dice, in sorted order.
    `dice` is one list reused and changed between steps: read it, don't keep
    it. Nothing is stored, so the odds cost no heap beyond their results."""
    dice = [1] * n
    while True:
        counts = [0, 0, 0, 0, 0, 0, 0]
        for d in dice:
            counts[d] += 1
        div = 1
        for k in counts:
            div *= _FACT[k]
        yield dice, _FACT[n] // div
        # Next non-decreasing sequence: bump the rightmost die below 6 and
        # set every die after it to the same face (keeps the dice sorted).
        i = n - 1
        while i >= 0 and dice[i] == 6:
            i -= 1
        if i < 0:
            return
        face = dice[i] + 1
        for j in range(i, n):
            dice[j] = face


def outcomes(n):
    """Every multiset of n dice (1..6) as (sorted tuple, weight), weight the
    number of the 6**n ordered rolls that show those faces; the weights sum
    to 6**n. The list is cached and shared: do not modify it. All six lists
    hold 923 tuples (96 KB on the 64-bit Unix port, about half that on the
    RP2040), so the odds below walk the multisets instead; `clear_cache()`
    frees the lists."""
    _check_n(n)
    found = _outcomes.get(n)
    if found is None:
        found = [(tuple(dice), weight) for dice, weight in multisets(n)]
        _outcomes[n] = found
    return found


def _distribution(n, rules):
    """The cached points -> weight dict (shared; callers copy it)."""
    _check_game(n, rules)
    key = (rules.encode(), n)
    found = _results.get(key)
    if found is not None:
        return found
    dist = {}
    for dice, weight in multisets(n):
        points = scoring.best_score(dice, rules)
        dist[points] = dist.get(points, 0) + weight
    return _remember(key, dist)


def best_score_distribution(n, rules):
    """Points -> weight over the 6**n rolls of n dice: how many rolls have
    that best immediate score (key 0: the farkles). A fresh dict."""
    return dict(_distribution(n, rules))


def _farkles(n, rules):
    """How many of the 6**n rolls of n dice score nothing. A single 1, a
    single 5 and three of a kind score under every rule set
    (engine.scoring), so only rolls of 2s, 3s, 4s and 6s with at most two of
    a face can: at most 19 multisets for any n, where `_distribution`
    judges all 462 of six dice (the help's odds page took a second on the
    chip for that). Every other combination is a hand of all six dice or a
    straight, which holds a 1 or a 5: below six dice each of those
    multisets is a farkle, and the ten of six dice are judged as whole
    hands (`scoring.whole_hand`; `best_score` on each of the 75 took 40 ms
    on the chip, on the ten 20 ms). tests/cpython/test_odds_brute.py holds
    this against the whole distribution for random rule sets."""
    _check_game(n, rules)
    key = (rules.encode(), -n)
    found = _results.get(key)
    if found is not None:
        return found
    total = 0
    for c2 in range(3):
        for c3 in range(3):
            for c4 in range(3):
                c6 = n - c2 - c3 - c4
                if 0 <= c6 <= 2:
                    if n == 6 and scoring.whole_hand([2] * c2 + [3] * c3 + [4] * c4 + [6] * c6,
                                                     rules) > 0:
                        continue
                    total += _FACT[n] // (_FACT[c2] * _FACT[c3] * _FACT[c4] * _FACT[c6])
    return _remember(key, total)


def score_chance(n, rules):
    """Chance that a roll of n dice scores anything, as exact integers
    (numerator, denominator). The denominator is always 6**n, unreduced, so
    figures compare directly with the table talk (20/36, not 5/9)."""
    farkles = _farkles(n, rules)  # checks n first
    return 6 ** n - farkles, 6 ** n


def farkle_chance(n, rules):
    """Chance (float, for display) that a roll of n dice scores nothing."""
    num, den = score_chance(n, rules)
    return (den - num) / den


def expected_best(n, rules):
    """Mean best immediate score of a roll of n dice (float, for tips),
    farkles counted as 0; ignores what the turn would risk or gain later."""
    total = 0
    for points, weight in _distribution(n, rules).items():
        total += points * weight
    return total / 6 ** n


def clear_cache():
    """Drop every cached table, e.g. to free heap on the device."""
    _outcomes.clear()
    _results.clear()
