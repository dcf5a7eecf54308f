"""Exact odds of engine.odds against the figures of docs/rules.md (table talk)."""

from engine import odds
from engine.rules import PRESETS, Rules, preset
from tests.both.helpers import raises

# Rule sets are built one at a time, when a test needs them (the outcome lists
# of six dice take tens of KB), so the module stays light on a small heap.
MIXED = (
    lambda: Rules(),
    lambda: Rules(three_pairs=0),
    lambda: preset("international"),
    lambda: preset("fuenf"),
)

# Chance to score anything with 1..6 dice, default rules (three pairs 1500).
SCORE = ((2, 6), (20, 36), (156, 216), (1092, 1296), (7176, 7776), (45576, 46656))
MULTISETS = (6, 21, 56, 126, 252, 462)  # C(n + 5, 5)


def test_outcomes_weights_and_counts():
    known = {(1, 1, 1, 1, 1, 1): 1, (1, 2, 3, 4, 5, 6): 720, (2, 2, 3, 3, 4, 4): 90, (1, 2): 2}
    for n in range(1, 7):
        found = odds.outcomes(n)
        assert len(found) == MULTISETS[n - 1], n
        total = 0
        prev = ()
        for dice, weight in found:
            assert len(dice) == n
            assert list(dice) == sorted(dice)
            assert min(dice) >= 1 and max(dice) <= 6
            assert weight > 0
            assert dice > prev  # strictly increasing, so no multiset twice
            assert known.get(dice, weight) == weight
            prev = dice
            total += weight
        assert total == 6 ** n, n
        found = dice = prev = None
        odds.clear_cache()  # six dice alone is 462 tuples: keep one list at a time


def test_outcomes_cached():
    assert odds.outcomes(3) is odds.outcomes(3)
    odds.clear_cache()


def test_default_figures_exact():
    rules = Rules()
    for n in range(1, 7):
        assert odds.score_chance(n, rules) == SCORE[n - 1], n


def test_six_dice_without_three_pairs():
    assert odds.score_chance(6, Rules(three_pairs=0)) == (45216, 46656)


def test_straights_never_change_the_figures():
    for make in (
        lambda: Rules(straight=0),
        lambda: Rules(small_straights=(500, 750)),
        lambda: preset("farkle4000"),
    ):
        rules = make()
        for n in range(1, 6):
            assert odds.score_chance(n, rules) == SCORE[n - 1], (n, rules)
    assert odds.score_chance(6, Rules(straight=0)) == SCORE[5]
    # farkle4000 has no three pairs: the figure without them.
    assert odds.score_chance(6, preset("farkle4000")) == (45216, 46656)


def test_international_six_dice():
    assert odds.score_chance(6, preset("international")) == SCORE[5]


def test_five_dice_preset():
    rules = preset("fuenf")
    for n in range(1, 6):
        assert odds.score_chance(n, rules) == SCORE[n - 1], n
    assert odds.score_chance(5, rules) == (7176, 7776)
    raises(ValueError, odds.score_chance, 6, rules)


def test_odds_do_not_build_outcome_lists():
    odds.clear_cache()
    odds.score_chance(6, Rules())
    assert not odds._outcomes


def test_bad_n():
    for n in (0, 7, -1, "3", 2.0, None):
        raises(ValueError, odds.outcomes, n)
        raises(ValueError, odds.score_chance, n, Rules())


def test_distribution_matches_score_chance():
    for make in MIXED:
        rules = make()
        for n in range(1, rules.dice + 1):
            dist = odds.best_score_distribution(n, rules)
            total = 0
            for weight in dist.values():
                total += weight
            assert total == 6 ** n
            num, den = odds.score_chance(n, rules)
            assert den == 6 ** n
            assert dist.get(0, 0) == den - num


def test_the_few_rolls_judged_count_every_farkle():
    # score_chance judges only rolls of 2s, 3s, 4s and 6s (at most two of a
    # face); the whole distribution judges every roll: they must agree under
    # every preset and the options that make six dice score as a whole.
    makes = [lambda key=key: preset(key) for key in PRESETS]
    makes += [lambda: Rules(three_pairs=500, quad_pair=0, two_triplets=2500),
              lambda: Rules(n_of_kind="triple_only", three_pairs=0, straight=0),
              lambda: Rules(n_of_kind="fixed", quad_pair=1500, small_straights=(500, 750))]
    for make in makes:
        rules = make()
        odds.clear_cache()
        for n in range(1, rules.dice + 1):
            num, den = odds.score_chance(n, rules)
            farkles = odds.best_score_distribution(n, rules).get(0, 0)
            assert farkles == den - num, (n, rules.encode())


def test_distribution_two_dice():
    # 36 rolls: 16 without a 1 or 5; 1+1 = 200; 1+5 = 150 (two rolls).
    assert odds.best_score_distribution(2, Rules()) == {
        0: 16, 50: 8, 100: 9, 150: 2, 200: 1,
    }


def test_distribution_is_a_copy():
    dist = odds.best_score_distribution(1, Rules())
    dist[0] = 99
    assert odds.best_score_distribution(1, Rules())[0] == 4


def test_farkle_plus_score_is_one():
    for make in MIXED:
        rules = make()
        for n in range(1, rules.dice + 1):
            num, den = odds.score_chance(n, rules)
            assert abs(odds.farkle_chance(n, rules) + num / den - 1.0) < 1e-12
    assert odds.farkle_chance(1, Rules()) == 4 / 6


def test_expected_best():
    rules = Rules()
    assert odds.expected_best(1, rules) == 25.0  # (100 + 50) / 6
    assert odds.expected_best(2, rules) == 50.0  # 1800 / 36
    for n in range(1, 7):
        total = 0
        for points, weight in odds.best_score_distribution(n, rules).items():
            total += points * weight
        assert abs(odds.expected_best(n, rules) - total / 6 ** n) < 1e-9


def test_results_cache_stays_bounded():
    for target in range(50, 50 * 41, 50):
        odds.score_chance(1, Rules(target=target))
    assert len(odds._results) <= odds._RESULTS_MAX
    assert odds.score_chance(6, Rules()) == SCORE[5]


def test_clear_cache():
    odds.score_chance(3, Rules())
    odds.clear_cache()
    assert not odds._outcomes and not odds._results
    assert odds.score_chance(3, Rules()) == SCORE[2]
