"""engine.odds against brute force over all 6**n ordered rolls (CPython only)."""

from itertools import product

import pytest
from hypothesis import given, settings

from engine import odds, scoring
from engine.rules import Rules, preset
from tests.cpython.test_game_props import random_rules

RULE_SETS = {
    "zehntausend": preset("zehntausend"),
    "farkle4000": preset("farkle4000"),
    "international": preset("international"),
    "fuenf": preset("fuenf"),
    "triple_only_6": Rules(n_of_kind="triple_only", three_pairs=0),
}


def brute(n, rules):
    """(points -> count, scoring count) over every ordered roll of n dice."""
    dist = {}
    for roll in product(range(1, 7), repeat=n):
        points = scoring.best_score(roll, rules)
        dist[points] = dist.get(points, 0) + 1
    return dist, 6**n - dist.get(0, 0)


def check(n, rules):
    dist, scoring_rolls = brute(n, rules)
    assert odds.score_chance(n, rules) == (scoring_rolls, 6**n)
    assert odds.best_score_distribution(n, rules) == dist
    expected = sum(p * w for p, w in dist.items()) / 6**n
    assert odds.expected_best(n, rules) == pytest.approx(expected)


@pytest.mark.parametrize("name", sorted(RULE_SETS))
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_small_rolls(name, n):
    check(n, RULE_SETS[name])


@pytest.mark.parametrize("n", [5, 6])
def test_large_rolls_default(n):
    check(n, preset("zehntausend"))


def test_outcomes_match_sequences():
    for n in range(1, 7):
        counted = {}
        for roll in product(range(1, 7), repeat=n):
            key = tuple(sorted(roll))
            counted[key] = counted.get(key, 0) + 1
        assert dict(odds.outcomes(n)) == counted


@settings(max_examples=60, deadline=None)
@given(rules=random_rules())
def test_chance_to_score_equals_the_whole_distribution(rules):
    """engine.odds._farkles judges only six-dice rolls of 2s, 3s, 4s and 6s
    with the engine and counts the fewer-dice ones as farkles by the rules'
    shape: under any valid rule set that must agree with the distribution
    of every multiset judged by the engine."""
    for n in range(1, rules.dice + 1):
        farkles = odds.best_score_distribution(n, rules).get(0, 0)
        assert odds.score_chance(n, rules) == (6**n - farkles, 6**n), (n, rules)
