"""Tests of engine.scoring against docs/rules.md; run under CPython
(pytest) and MicroPython (mprun)."""

from engine.rules import Rules, preset
from engine.scoring import (
    best_score,
    is_farkle,
    keeps,
    read_keep,
    score_keep,
    scoring_keep,
    whole_hand,
)
from tests.both.helpers import raises


def _five(**options):
    """A 5-dice rule set (the six-dice combinations off)."""
    return Rules(dice=5, straight=0, three_pairs=0, **options)


# ---------------------------------------------------------------- scoring table, defaults


def test_singles():
    r = Rules()
    assert score_keep([1], r) == 100
    assert score_keep([5], r) == 50
    assert score_keep([1, 1], r) == 200
    assert score_keep([5, 5], r) == 100
    assert score_keep([1, 5], r) == 150
    for face in (2, 3, 4, 6):
        assert score_keep([face], r) is None, face
        assert score_keep([face, face], r) is None, face
        assert score_keep([1, face], r) is None, face


def test_triples():
    r = Rules()
    assert score_keep([1, 1, 1], r) == 1000
    assert score_keep([2, 2, 2], r) == 200
    assert score_keep([3, 3, 3], r) == 300
    assert score_keep([4, 4, 4], r) == 400
    assert score_keep([5, 5, 5], r) == 500
    assert score_keep([6, 6, 6], r) == 600
    assert score_keep([6, 6, 6, 1], r) == 700
    assert score_keep([2, 2, 2, 5, 5], r) == 300
    assert score_keep([3, 3, 3, 4], r) is None


def test_double_is_default():
    r = Rules()
    assert r.n_of_kind == "double"
    assert score_keep([2, 2, 2, 2], r) == 400  # docs/rules.md
    assert score_keep([1, 1, 1, 1, 1], r) == 4000  # docs/rules.md
    assert score_keep([4, 4, 4, 4, 4, 4], r) == 3200  # docs/rules.md
    assert score_keep([2, 2, 2, 2, 2], r) == 800
    assert score_keep([2, 2, 2, 2, 2, 2], r) == 1600
    assert score_keep([5, 5, 5, 5], r) == 1000
    assert score_keep([6, 6, 6, 6, 1], r) == 1300


def test_seed_003_table():
    r = preset("farkle4000")
    assert score_keep([4, 4, 4, 4], r) == 800
    assert score_keep([4, 4, 4, 4, 4], r) == 1600
    assert score_keep([4, 4, 4, 4, 4, 4], r) == 3200
    assert score_keep([1, 1, 1, 1], r) == 2000
    assert score_keep([1, 1, 1, 1, 1], r) == 4000
    assert score_keep([1, 1, 1, 1, 1, 1], r) == 8000
    assert score_keep([1, 2, 3, 4, 5], r) == 500
    assert score_keep([2, 3, 4, 5, 6], r) == 750
    assert score_keep([1, 2, 3, 4, 5, 6], r) == 1500
    # The highest reading counts (003).
    assert score_keep([1, 1, 1, 1], Rules()) == 2000


def test_triple_only():
    r = Rules(n_of_kind="triple_only")
    assert score_keep([5, 5, 5, 5], r) == 550
    assert score_keep([2, 2, 2, 2], r) is None  # a non-scoring 2 in the keep
    assert best_score([2, 2, 2, 2], r) == 200
    assert score_keep([2, 2, 2], r) == 200
    assert score_keep([1, 1, 1, 1], r) == 1100
    assert score_keep([1, 1, 1, 1, 1], r) == 1200
    # Two triples of one face read as two triples.
    assert score_keep([2, 2, 2, 2, 2, 2], r) == 400
    assert score_keep([1, 1, 1, 1, 1, 1], r) == 2000
    assert best_score([2, 2, 2, 2, 2], r) == 200


def test_seed_004_triple_only():
    r = preset("punktlandung")
    assert score_keep([2, 2, 2], r) == 200
    assert score_keep([6, 6, 6], r) == 600
    assert score_keep([1, 1, 1], r) == 1000
    for face in (2, 3, 4, 6):
        # Four or five equal: exactly three dice form the combination.
        assert score_keep([face] * 4, r) is None, face
        assert score_keep([face] * 5, r) is None, face
        assert best_score([face] * 4, r) == face * 100, face
        assert best_score([face] * 5, r) == face * 100, face
        assert keeps([face] * 5, r) == [((face,) * 3, face * 100)]
    # Extra 1s and 5s still score singly.
    assert score_keep([5, 5, 5, 5], r) == 550
    assert score_keep([5, 5, 5, 5, 5], r) == 600
    assert score_keep([1, 1, 1, 1], r) == 1100
    assert score_keep([1, 1, 1, 1, 5], r) == 1150
    assert best_score([4, 4, 4, 4, 1], r) == 500
    # The extra 4 stays available: auto-keep takes 4,4,4,1 and leaves it.
    assert scoring_keep([4, 4, 4, 4, 1], r) == ((1, 4, 4, 4), 500)
    assert scoring_keep([3, 3, 3, 3, 3], r) == ((3, 3, 3), 300)


def test_add():
    r = Rules(n_of_kind="add")
    assert score_keep([2, 2, 2, 2], r) == 400
    assert score_keep([2, 2, 2, 2, 2], r) == 600
    assert score_keep([2, 2, 2, 2, 2, 2], r) == 800
    assert score_keep([1, 1, 1, 1], r) == 2000
    assert score_keep([1, 1, 1, 1, 1, 1], r) == 4000
    assert score_keep([6, 6, 6, 6, 6], r) == 1800


def test_fixed_international():
    r = preset("international")
    assert score_keep([1, 1, 1], r) == 300
    assert score_keep([2, 2, 2], r) == 200
    assert score_keep([2, 2, 2, 2], r) == 1000
    assert score_keep([2, 2, 2, 2, 2], r) == 2000
    assert score_keep([2, 2, 2, 2, 2, 2], r) == 3000
    assert score_keep([1, 1, 1, 1], r) == 1000
    assert score_keep([6, 6, 6, 6, 6], r) == 2000
    assert score_keep([1, 1, 1, 5], r) == 350
    assert score_keep([1, 1, 1, 1, 5], r) == 1050
    fixed = Rules(n_of_kind="fixed")
    assert score_keep([1, 1, 1], fixed) == 1000
    assert score_keep([1, 1, 1, 1], fixed) == 1100  # triple 1000 + single 100 beats 1000


def test_five_flat():
    r = _five(n_of_kind="five_flat")
    assert score_keep([3, 3, 3, 3, 3], r) == 5000
    assert score_keep([1, 1, 1, 1, 1], r) == 5000
    assert score_keep([2, 2, 2, 2, 2], r) == 5000
    assert score_keep([3, 3, 3, 3], r) == 600  # double triple
    assert score_keep([1, 1, 1, 1], r) == 2000
    assert score_keep([3, 3, 3], r) == 300
    assert score_keep([3, 3, 3, 3, 5], r) == 650


def test_straight():
    r = Rules()
    assert score_keep([1, 2, 3, 4, 5, 6], r) == 1500
    assert score_keep([6, 5, 4, 3, 2, 1], r) == 1500
    assert score_keep([1, 2, 3, 4, 5], r) is None  # no small straights by default
    assert best_score([1, 2, 3, 4, 5], r) == 150
    off = Rules(straight=0)
    assert score_keep([1, 2, 3, 4, 5, 6], off) is None
    assert best_score([1, 2, 3, 4, 5, 6], off) == 150
    assert keeps([1, 2, 3, 4, 5, 6], off) == [((1, 5), 150), ((1,), 100), ((5,), 50)]
    assert score_keep([1, 2, 3, 4, 5, 6], Rules(straight=2000)) == 2000


def test_small_straights():
    r = preset("farkle4000")
    assert score_keep([1, 2, 3, 4, 5], r) == 500
    assert score_keep([2, 3, 4, 5, 6], r) == 750
    assert score_keep([1, 2, 3, 4, 5, 5], r) == 550
    assert score_keep([5, 4, 3, 2, 1, 1], r) == 600
    assert score_keep([2, 3, 4, 5, 6, 5], r) == 800
    assert score_keep([2, 3, 4, 5, 6, 6], r) is None  # the extra 6 scores nothing
    assert best_score([2, 3, 4, 5, 6, 6], r) == 750
    assert score_keep([1, 2, 3, 4], r) is None
    # Both small straights off the big one: 2-6 plus the 1 when the straight is off.
    assert score_keep([1, 2, 3, 4, 5, 6], r.replace(straight=0)) == 850
    # 001's house rule: 500 for both.
    house = Rules(small_straights=(500, 500))
    assert score_keep([2, 3, 4, 5, 6], house) == 500
    # 002: five dice, 1000 or 2000.
    five = _five(n_of_kind="triple_only", small_straights=(1000, 2000))
    assert score_keep([1, 2, 3, 4, 5], five) == 1000
    assert score_keep([2, 3, 4, 5, 6], five) == 2000


def test_keeps_farkle4000_small_straight():
    r = preset("farkle4000")
    assert keeps([1, 2, 3, 4, 5, 5], r) == [
        ((1, 2, 3, 4, 5, 5), 550),
        ((1, 2, 3, 4, 5), 500),
        ((1, 5, 5), 200),
        ((1, 5), 150),
        ((1,), 100),
        ((5, 5), 100),
        ((5,), 50),
    ]


def test_three_pairs():
    r = Rules()
    assert score_keep([2, 2, 3, 3, 6, 6], r) == 1500
    assert score_keep([6, 2, 3, 6, 3, 2], r) == 1500
    assert score_keep([1, 1, 5, 5, 3, 3], r) == 1500
    assert score_keep([2, 2, 3, 3, 6], r) is None
    assert score_keep([2, 2, 3, 3, 6, 6], Rules(three_pairs=750)) == 750
    assert score_keep([2, 2, 3, 3, 6, 6], Rules(three_pairs=500)) == 500
    assert score_keep([1, 1, 5, 5, 2, 2], Rules(three_pairs=500)) == 500
    # Three 1s and three 5s are two triples, not pairs.
    assert score_keep([1, 1, 5, 5, 1, 5], Rules(three_pairs=500)) == 1500
    off = preset("farkle4000")
    assert score_keep([2, 2, 3, 3, 6, 6], off) is None
    assert is_farkle([2, 2, 3, 3, 6, 6], off)
    assert score_keep([1, 1, 5, 5, 3, 3], off) is None
    assert best_score([1, 1, 5, 5, 3, 3], off) == 300


def test_four_of_a_kind_and_pair_is_not_three_pairs():
    r = Rules()
    assert score_keep([2, 2, 2, 2, 3, 3], r) is None
    assert best_score([2, 2, 2, 2, 3, 3], r) == 400
    assert keeps([2, 2, 2, 2, 3, 3], r) == [((2, 2, 2, 2), 400), ((2, 2, 2), 200)]
    assert score_keep([4, 4, 4, 4, 4, 4], Rules(n_of_kind="triple_only")) == 800


def test_international_combinations():
    r = preset("international")
    assert score_keep([2, 2, 2, 2, 3, 3], r) == 1500  # four of a kind + a pair
    assert score_keep([3, 3, 2, 2, 2, 2], r) == 1500
    assert score_keep([4, 4, 4, 4, 1, 1], r) == 1500
    assert score_keep([2, 2, 2, 3, 3, 3], r) == 2500  # two triplets
    assert score_keep([1, 1, 1, 5, 5, 5], r) == 2500
    assert score_keep([2, 2, 3, 3, 4, 4], r) == 1500  # three pairs
    assert score_keep([1, 2, 3, 4, 5, 6], r) == 1500
    assert score_keep([6, 6, 6, 6, 6, 6], r) == 3000
    # Off by default.
    assert score_keep([2, 2, 2, 3, 3, 3], Rules()) == 500
    assert score_keep([2, 2, 2, 4, 4, 3], r) is None


# ---------------------------------------------------------------- worked examples


def test_seed_000_example():
    r = Rules()
    roll = [1, 1, 5, 2, 3, 6]
    assert best_score(roll, r) == 250
    assert score_keep([1, 1, 5], r) == 250
    assert keeps(roll, r)[0] == ((1, 1, 5), 250)
    assert scoring_keep(roll, r) == ((1, 1, 5), 250)
    assert not is_farkle(roll, r)


def test_seed_000_keeps_exact():
    assert keeps([1, 1, 5, 2, 3, 6], Rules()) == [
        ((1, 1, 5), 250),
        ((1, 1), 200),
        ((1, 5), 150),
        ((1,), 100),
        ((5,), 50),
    ]


def test_seed_001_example_turn():
    r = preset("kneipe")
    first = [1, 3, 3, 5, 6, 6]
    assert score_keep([1], r) == 100
    assert best_score(first, r) == 150
    assert keeps(first, r) == [((1, 5), 150), ((1,), 100), ((5,), 50)]
    second = [4, 4, 4, 2, 5]
    assert score_keep([4, 4, 4, 5], r) == 450
    assert best_score(second, r) == 450
    assert keeps(second, r) == [((4, 4, 4, 5), 450), ((4, 4, 4), 400), ((5,), 50)]
    assert scoring_keep(second, r) == ((4, 4, 4, 5), 450)
    assert 100 + 450 == 550
    # One die left: two faces in six score.
    scoring = [face for face in range(1, 7) if not is_farkle([face], r)]
    assert scoring == [1, 5]
    # Two single 1s and a 5 are 250, not a triple (001).
    assert score_keep([1, 1, 5], r) == 250


def test_keeps_order_and_uniqueness():
    for r, roll in (
        (Rules(), [1, 1, 1, 5, 5, 2]),
        (Rules(), [5, 5, 5, 5, 5, 5]),
        (preset("international"), [1, 1, 1, 1, 5, 5]),
        (preset("farkle4000"), [1, 2, 3, 4, 5, 6]),
        (preset("punktlandung"), [1, 1, 5, 5, 5]),
    ):
        found = keeps(roll, r)
        assert found
        points = [p for _, p in found]
        assert points == sorted(points, reverse=True)
        assert len(set([k for k, _ in found])) == len(found)
        for keep, p in found:
            assert list(keep) == sorted(keep)
            assert score_keep(keep, r) == p, (keep, p)
            assert p > 0 and p % 50 == 0
        assert best_score(roll, r) == points[0]


def test_keeps_exact_lists():
    r = Rules()
    assert keeps([2, 3, 4, 6, 2, 3], r) == []
    assert keeps([5], r) == [((5,), 50)]
    assert keeps([3, 3, 3], r) == [((3, 3, 3), 300)]
    assert keeps([1, 1, 1, 2], r) == [
        ((1, 1, 1), 1000),
        ((1, 1), 200),
        ((1,), 100),
    ]
    assert keeps([2, 2, 2, 2, 2, 2], Rules(n_of_kind="triple_only")) == [
        ((2, 2, 2, 2, 2, 2), 400),
        ((2, 2, 2), 200),
    ]
    # Equal points: fewer dice first.
    assert keeps([1, 5, 5, 3], r) == [
        ((1, 5, 5), 200),
        ((1, 5), 150),
        ((1,), 100),
        ((5, 5), 100),
        ((5,), 50),
    ]


def test_is_farkle():
    assert is_farkle([2, 3, 4, 6, 2, 3], Rules())
    assert is_farkle([2, 3, 4, 6, 2, 3], Rules(three_pairs=0))
    assert is_farkle([2, 3, 4, 6, 2, 3], preset("farkle4000"))
    assert is_farkle([2], Rules())
    assert is_farkle([2, 3, 4, 6], Rules())
    assert not is_farkle([2, 3, 4, 6, 1], Rules())
    assert not is_farkle([2, 2, 3, 3, 4, 4], Rules())
    assert not is_farkle([2, 2, 2], Rules())
    assert best_score([2, 3, 4, 6, 2, 3], Rules()) == 0
    assert scoring_keep([2, 3, 4, 6, 2, 3], Rules()) is None
    assert is_farkle([2, 3, 4, 6, 6], preset("punktlandung"))
    assert not is_farkle([2, 3, 4, 6, 5], Rules(small_straights=(500, 750)))


def test_scoring_keep_takes_all_scoring_dice():
    r = Rules()
    assert scoring_keep([1, 1, 5, 2, 3, 6], r) == ((1, 1, 5), 250)
    assert scoring_keep([1, 2, 3, 4, 5, 6], r) == ((1, 2, 3, 4, 5, 6), 1500)
    assert scoring_keep([5, 5, 5, 5, 2, 1], r) == ((1, 5, 5, 5, 5), 1100)
    assert scoring_keep([3, 3, 3, 3, 5, 6], r) == ((3, 3, 3, 3, 5), 650)
    assert scoring_keep([2, 2, 3, 3, 6, 6], r) == ((2, 2, 3, 3, 6, 6), 1500)
    assert scoring_keep([5], r) == ((5,), 50)
    f4000 = preset("farkle4000")
    assert scoring_keep([1, 2, 3, 4, 5, 5], f4000) == ((1, 2, 3, 4, 5, 5), 550)
    assert scoring_keep([2, 3, 4, 5, 6, 6], f4000) == ((2, 3, 4, 5, 6), 750)


# ---------------------------------------------------------------- triples across rolls


def test_triples_across():
    r = Rules(triples_across=True)
    assert score_keep([5, 5], r, aside=(5,)) == 450
    assert score_keep([1], r, aside=(1, 1)) == 800
    assert score_keep([1, 1], r, aside=(1,)) == 900
    assert score_keep([5], r, aside=(5, 5)) == 400
    assert read_keep([5, 5], r, (5,)) == (450, (5,))
    assert read_keep([1], r, (1, 1)) == (800, (1, 1))
    assert read_keep([5, 5], r) == (100, ())
    assert score_keep([5, 5], r) == 100
    assert score_keep([1, 5, 5], r, aside=(5,)) == 550
    assert score_keep([2], r, aside=(2, 2)) is None  # only 1s and 5s are open singles
    assert keeps([1, 2, 3], r, aside=(1, 1)) == [((1,), 800)]
    assert best_score([1, 2, 3], r, aside=(1, 1)) == 800
    assert best_score([5, 5, 3], r, aside=(5,)) == 450
    # ones_triple 300: the triple minus the singles already counted.
    assert score_keep([1], r.replace(ones_triple=300), aside=(1, 1)) == 100


def test_triples_across_off_ignores_aside():
    r = Rules()
    assert score_keep([5, 5], r, aside=(5,)) == 100
    assert score_keep([1], r, aside=(1, 1)) == 100
    assert read_keep([1], r, (1, 1)) == (100, ())
    assert keeps([1, 2, 3], r, aside=(1, 1)) == [((1,), 100)]
    assert best_score([1, 2, 3], r, aside=(1, 1)) == 100


# ---------------------------------------------------------------- edge cases


def test_empty_and_too_many():
    r = Rules()
    assert score_keep([], r) is None
    assert score_keep((), r) is None
    assert read_keep([], r) == (None, ())
    assert keeps([], r) == []
    assert best_score([], r) == 0
    assert score_keep([1, 1, 1, 1, 1, 1, 1], r) is None
    assert score_keep([1, 1, 1, 1, 1, 1], preset("fuenf")) is None
    raises(ValueError, best_score, [1, 1, 1, 1, 1, 1, 1], r)
    raises(ValueError, best_score, [1, 2, 3, 4, 5, 6], preset("fuenf"))


def test_bad_dice_raise():
    r = Rules()
    for bad in ([0], [7], [1, 2, 7], [-1], ["1"], [1.0], [None], [True]):
        raises(ValueError, score_keep, bad, r)
        raises(ValueError, best_score, bad, r)
        raises(ValueError, keeps, bad, r)
        raises(ValueError, is_farkle, bad, r)
        raises(ValueError, read_keep, bad, r)
        raises(ValueError, scoring_keep, bad, r)


def test_results_repeat():
    # The memo must give the same answers on repeated and mixed questions.
    r = Rules()
    for _ in range(2):
        assert best_score([2, 2, 2, 2, 3, 3], r) == 400
        assert score_keep([2, 2, 2, 2, 3, 3], r) is None
        assert score_keep([2, 2, 2, 2], r) == 400
        assert best_score([2, 3], r) == 0
        assert score_keep([2, 3], r) is None


def test_whole_hand_reads_all_six_dice_as_one_hand():
    rules = Rules()
    assert whole_hand([2, 2, 3, 3, 6, 6], rules) == rules.three_pairs
    assert whole_hand([1, 2, 3, 4, 5, 6], rules) == rules.straight
    assert whole_hand([2, 2, 3, 3, 4, 6], rules) == -1
    assert whole_hand([2, 2, 3, 3, 6], rules) == -1  # five dice are no whole hand
    assert whole_hand([2, 2, 3, 3, 6, 6], Rules(three_pairs=0)) == -1
    assert whole_hand([4, 4, 4, 4, 6, 6], Rules(quad_pair=1500)) == 1500
