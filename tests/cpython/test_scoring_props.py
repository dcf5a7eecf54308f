"""Property tests of engine.scoring against random rules and rolls (CPython, hypothesis).

The reference scorer below is written from docs/rules.md (and the decisions
recorded in engine/scoring.py), independently of the engine: it lists every
combination the rules allow as a multiset of dice with its points, then
tries every way of splitting a keep into such combinations.
"""

from functools import lru_cache
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.rules import Rules
from engine.scoring import best_score, is_farkle, keeps, score_keep, scoring_keep
from tests import soak

FACES = (1, 2, 3, 4, 5, 6)

# ---------------------------------------------------------------- reference scorer


def _triple(face, rules):
    if face == 1:
        return rules.ones_triple
    return face * 100


def _of_a_kind(face, n, rules):
    """Points for n (4..6) equal dice as one combination, None when the mode has none."""
    triple = _triple(face, rules)
    mode = rules.n_of_kind
    if mode == "double":  # each die beyond three doubles the triple
        return {4: 2, 5: 4, 6: 8}[n] * triple
    if mode == "add":  # each die beyond three adds the triple again
        return {4: 2, 5: 3, 6: 4}[n] * triple
    if mode == "fixed":
        return {4: 1000, 5: 2000, 6: 3000}[n]
    if mode == "five_flat":  # five of a kind 5000, four of a kind a double triple
        return {4: 2 * triple, 5: 5000}.get(n)
    assert mode == "triple_only", mode
    return None


def reference_combinations(rules):
    """Every combination of the rules as (sorted dice tuple, points)."""
    out = [((1,), 100), ((5,), 50)]
    for face in FACES:
        out.append(((face,) * 3, _triple(face, rules)))
        for n in range(4, rules.dice + 1):
            points = _of_a_kind(face, n, rules)
            if points:
                out.append(((face,) * n, points))
    if rules.dice == 6 and rules.straight:
        out.append(((1, 2, 3, 4, 5, 6), rules.straight))
    low, high = rules.small_straights
    if low:
        out.append(((1, 2, 3, 4, 5), low))
    if high:
        out.append(((2, 3, 4, 5, 6), high))
    if rules.dice == 6:
        # Three DIFFERENT pairs; four of a kind plus a pair of another face;
        # two triples of two different faces.
        if rules.three_pairs:
            for a, b, c in combinations(FACES, 3):
                out.append((tuple(sorted((a, a, b, b, c, c))), rules.three_pairs))
        for a in FACES:
            for b in FACES:
                if a == b:
                    continue
                if rules.quad_pair:
                    out.append((tuple(sorted((a,) * 4 + (b,) * 2)), rules.quad_pair))
                if rules.two_triplets and a < b:
                    out.append(((a,) * 3 + (b,) * 3, rules.two_triplets))
    return out


def _remove(dice, part):
    """dice minus the multiset part (both sorted tuples), or None when part is not inside."""
    rest = list(dice)
    for d in part:
        if d not in rest:
            return None
        rest.remove(d)
    return tuple(rest)


def make_reference(rules):
    """A function scoring a keep (any sequence) by trying every partition into combinations."""
    combos = reference_combinations(rules)

    @lru_cache(maxsize=None)
    def best(dice):
        # Highest total over all ways to use every die of `dice`; None if impossible.
        if not dice:
            return 0
        found = None
        for part, points in combos:
            rest = _remove(dice, part)
            if rest is None:
                continue
            sub = best(rest)
            if sub is not None and (found is None or sub + points > found):
                found = sub + points
        return found

    def score(keep, aside=()):
        keep = tuple(sorted(keep))
        if not keep or len(keep) > rules.dice:
            return None
        results = []
        plain = best(keep)
        if plain is not None:
            results.append(plain)
        if rules.triples_across:
            # Open singles set aside earlier (1 or 2 of a face) plus new dice of
            # that face make a triple; it adds the triple minus the singles'
            # points already counted.
            open1, open5 = aside.count(1), aside.count(5)
            for u1 in range(min(open1, 2) + 1):
                for u5 in range(min(open5, 2) + 1):
                    if u1 == 0 and u5 == 0:
                        continue
                    rest, gain = keep, 0
                    if u1:
                        rest = _remove(rest, (1,) * (3 - u1))
                        gain += _triple(1, rules) - 100 * u1
                    if u5 and rest is not None:
                        rest = _remove(rest, (5,) * (3 - u5))
                        gain += 500 - 50 * u5
                    if rest is None:
                        continue
                    sub = best(rest)
                    if sub is not None:
                        results.append(sub + gain)
        return max(results) if results else None

    return score


# ---------------------------------------------------------------- reference self-checks


def test_reference_matches_rules_md_examples():
    default = make_reference(Rules())
    assert default([1, 1, 5]) == 250
    assert default([2, 2, 2, 2]) == 400
    assert default([1, 1, 1, 1, 1]) == 4000
    assert default([4] * 6) == 3200
    assert default([2, 2, 3, 3, 6, 6]) == 1500
    assert default([2, 2, 2, 2, 3, 3]) is None  # not three pairs
    assert default([1, 2, 3, 4, 5, 6]) == 1500
    assert default([2, 3]) is None
    only = make_reference(Rules(n_of_kind="triple_only"))
    assert only([5, 5, 5, 5]) == 550
    assert only([2, 2, 2, 2]) is None
    assert only([2] * 6) == 400
    f4000 = make_reference(Rules(small_straights=(500, 750), three_pairs=0, target=4000))
    assert f4000([1, 2, 3, 4, 5, 5]) == 550
    across = make_reference(Rules(triples_across=True))
    assert across([5, 5], aside=(5,)) == 450
    assert across([1], aside=(1, 1)) == 800


# ---------------------------------------------------------------- strategies

POINTS = (0, 500, 750, 1000, 1500, 2000, 2500)
# Usual values most of the time, any multiple of 50 up to 10000 sometimes.
points_st = st.one_of(
    st.sampled_from(POINTS), st.sampled_from(POINTS), st.integers(1, 200).map(lambda n: n * 50)
)


@st.composite
def rules_st(draw):
    """Random valid Rules: each option drawn from its allowed values; the
    six-dice options lean to 0 in 5-dice games, impossible mixes are assumed away."""
    dice = draw(st.sampled_from((6, 5)))
    six_only = points_st if dice == 6 else st.sampled_from((0,) * 9 + (1500,))
    target = draw(st.integers(1, 400)) * 50
    exact = draw(st.booleans())
    options = {
        "dice": dice,
        "target": target,
        "entry": draw(st.sampled_from((0, 300, 350, 500, 1000, target))),
        "n_of_kind": draw(st.sampled_from(("double", "triple_only", "add", "fixed", "five_flat"))),
        "ones_triple": draw(st.sampled_from((1000, 300))),
        "straight": draw(six_only),
        "small_straights": (draw(points_st), draw(points_st)),
        "three_pairs": draw(six_only),
        "quad_pair": draw(six_only),
        "two_triplets": draw(six_only),
        "hot_dice": draw(st.sampled_from(("may", "must"))),
        "auto_keep": draw(st.booleans()),
        "triples_across": draw(st.booleans()),
        "penalty": draw(st.sampled_from((0, 500, 1000))),
        "takeover": draw(st.booleans()),
        "exact": exact,
        "finish": "exact" if exact else draw(st.sampled_from(("last_turn", "round", "immediate"))),
        "tie": draw(st.sampled_from(("trigger", "playoff"))),
    }
    try:
        rules = Rules(**options)
    except ValueError:
        assume(False)
    return rules


@st.composite
def rules_and_roll(draw):
    rules = draw(rules_st())
    n = draw(st.integers(1, rules.dice))
    roll = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    return rules, roll


@st.composite
def rules_roll_aside(draw):
    rules, roll = draw(rules_and_roll())
    aside = draw(st.lists(st.sampled_from((1, 5)), max_size=rules.dice - len(roll)))
    return rules, roll, tuple(aside)


def _is_sub_multiset(part, whole):
    rest = list(whole)
    for d in part:
        if d not in rest:
            return False
        rest.remove(d)
    return True


# ---------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(rules_and_roll())
def test_keeps_are_consistent(case):
    rules, roll = case
    found = keeps(roll, rules)
    assert len(found) == len(set(k for k, _ in found)), found
    for keep, points in found:
        assert _is_sub_multiset(keep, roll), (keep, roll)
        assert list(keep) == sorted(keep)
        assert points > 0 and points % 50 == 0, (keep, points)
        assert score_keep(keep, rules) == points, (keep, points)
        assert score_keep(list(reversed(keep)), rules) == points
    assert [p for _, p in found] == sorted((p for _, p in found), reverse=True)
    best = max([p for _, p in found] or [0])
    assert best_score(roll, rules) == best
    assert is_farkle(roll, rules) == (not found)
    chosen = scoring_keep(roll, rules)
    if found:
        most = max(len(k) for k, _ in found)
        assert len(chosen[0]) == most
        assert chosen[1] == max(p for k, p in found if len(k) == most)
    else:
        assert chosen is None


@settings(max_examples=300, deadline=None)
@given(rules_and_roll())
def test_keeps_lists_every_valid_keep(case):
    rules, roll = case
    reference = make_reference(rules)
    expected = {}
    for size in range(1, len(roll) + 1):
        for keep in combinations(sorted(roll), size):
            points = reference(keep)
            if points is not None:
                expected[keep] = points
    assert dict(keeps(roll, rules)) == expected


@settings(max_examples=300, deadline=None)
@given(rules_and_roll())
def test_score_keep_matches_reference(case):
    rules, keep = case
    expected = make_reference(rules)(keep)
    assert score_keep(keep, rules) == expected, (rules, keep)
    # The same rules rebuilt from their encoding (shared, memoised object).
    assert score_keep(keep, Rules.decode(rules.encode())) == expected, (rules, keep)


@settings(max_examples=300, deadline=None)
@given(rules_roll_aside())
def test_score_keep_with_aside_matches_reference(case):
    rules, keep, aside = case
    assert score_keep(keep, rules, aside) == make_reference(rules)(keep, aside), (
        rules, keep, aside,
    )


@settings(max_examples=300, deadline=None)
@given(rules_roll_aside())
def test_keeps_with_aside_are_consistent(case):
    rules, roll, aside = case
    found = keeps(roll, rules, aside)
    assert len(found) == len(set(k for k, _ in found))
    for keep, points in found:
        assert _is_sub_multiset(keep, roll)
        assert points > 0 and points % 50 == 0
        assert score_keep(keep, rules, aside) == points
    assert best_score(roll, rules, aside) == max([p for _, p in found] or [0])


@pytest.mark.soak
@settings(max_examples=soak.length(100, 300), deadline=None)  # rule sets (make soak: 300)
@given(rules_st())
def test_every_small_keep_matches_reference(rules):
    # Exhaustive over every multiset of 1..dice dice for the drawn rules.
    reference = make_reference(rules)

    def multisets(size, low):
        if size == 0:
            yield ()
            return
        for face in range(low, 7):
            for rest in multisets(size - 1, face):
                yield (face,) + rest

    for size in range(1, rules.dice + 1):
        for keep in multisets(size, 1):
            assert score_keep(keep, rules) == reference(keep), (rules, keep)
