"""Property tests of engine.game (CPython, hypothesis): random walks of legal
actions through whole games under presets and random valid rules.

At every step: the walk never crashes; banked totals are multiples of 50 and
never negative; a banked total changes only by a "bank" event of that seat
(by the turn total it had) or a "penalty" event; the state survives a save
and load (engine.codec) unchanged with the same legal actions; every listed
action is allowed by `why_not`. At random steps a refused action leaves the
state exactly as it was, and `why_not` agrees with `legal_actions` on every
turn action and every keep of the dice on the table.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.codec import decode_game, encode_game
from engine.dice import SeededDice
from engine.game import BANK, MAX_SEATS, PASS, REASONS, ROLL, TAKE, Game, IllegalAction
from engine.rules import PRESETS, Rules, preset
from tests import soak

MAX_STEPS = 5000
NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gina", "Hans"]


@st.composite
def random_rules(draw):
    """Any valid combination of options, with targets small enough to finish."""
    dice = draw(st.sampled_from((5, 6)))
    opts = {"dice": dice}
    modes = ["double", "triple_only", "add", "fixed"] + (["five_flat"] if dice == 5 else [])
    opts["n_of_kind"] = draw(st.sampled_from(modes))
    opts["ones_triple"] = draw(st.sampled_from((1000, 300)))
    if dice == 6:
        opts["straight"] = draw(st.sampled_from((0, 1500)))
        opts["three_pairs"] = draw(st.sampled_from((0, 500, 750, 1500)))
        opts["quad_pair"] = draw(st.sampled_from((0, 1500)))
        opts["two_triplets"] = draw(st.sampled_from((0, 2500)))
    else:
        for key in ("straight", "three_pairs", "quad_pair", "two_triplets"):
            opts[key] = 0
    opts["small_straights"] = draw(st.sampled_from(((0, 0), (500, 750), (500, 500),
                                                    (1000, 2000))))
    opts["hot_dice"] = draw(st.sampled_from(("may", "must")))
    for key in ("auto_keep", "triples_across", "takeover"):
        opts[key] = draw(st.booleans())
    opts["penalty"] = draw(st.sampled_from((0, 500, 1000)))
    target = draw(st.sampled_from((50, 100, 200, 500, 1000, 2000, 3000, 4000)))  # small: ties
    opts["target"] = target
    opts["entry"] = draw(st.sampled_from([e for e in (0, 300, 350, 500, 1000)
                                          if e <= target // 2]))
    exact = draw(st.booleans())
    opts["exact"] = exact
    opts["finish"] = "exact" if exact else draw(
        st.sampled_from(("last_turn", "round", "immediate")))
    opts["tie"] = draw(st.sampled_from(("trigger", "playoff")))
    return Rules(**opts)


def choose(game, rng):
    """A legal turn action, leaning towards banking so games finish."""
    legal = game.legal_actions()
    assert legal, game.phase
    phase = game.phase
    if phase == "start":
        return TAKE if TAKE in legal and rng.random() < 0.5 else ROLL
    if phase == "keep":
        r = rng.random()
        if r < 0.5:
            return legal[0]  # most points
        if r < 0.75:
            return max(legal, key=lambda a: (len(a[1]), a[1]))  # most dice
        return rng.choice(legal)
    if phase == "decide":
        if BANK not in legal:
            return ROLL
        p = 0.3
        if game.dice_left() <= 2 and not game.hot():
            p = 0.75
        if game.turn_total >= 400:
            p += 0.3
        if game.rules.exact:
            p = max(p, 0.6)
        return BANK if rng.random() < p else ROLL
    return legal[0]  # farkle: pass


def keep_candidates(roll):
    """Every sub-multiset of the roll (sorted tuples), the empty one too."""
    out = {()}
    for d in roll:
        out |= {tuple(sorted(k + (d,))) for k in out}
    return sorted(out)


def check_consistency(game):
    """why_not agrees with legal_actions on turn actions and all keeps."""
    legal = game.legal_actions()
    for action in (ROLL, BANK, TAKE, PASS):
        assert (game.why_not(action) is None) == (action in legal), (action, game.phase)
    keeps = [a for a in legal if a[0] == "keep"]
    if game.phase == "keep":
        for k in keep_candidates(game.roll):
            assert (game.why_not(("keep", k)) is None) == (("keep", k) in keeps), k
    else:
        assert not keeps


def illegal_actions(game, rng):
    """A few actions, some of them refused now."""
    dice = tuple(rng.randint(1, 6) for _ in range(rng.randint(0, 7)))
    return [
        ROLL, BANK, TAKE, PASS, ("keep", dice), ("keep", tuple(sorted(dice))),
        ("keep", (rng.randint(1, 6),)), ("keep",), ("keep", 1), ("fly",), ("roll", 1),
        ("leave", rng.randint(-1, len(game.seats))), ("leave",),
        ("join", rng.choice(["", "x" * 13, "Neu"]), rng.choice(["", 5])), (),
    ]


def try_illegal(game, rng):
    before = game.to_data()
    scores = [s.score for s in game.seats]
    candidates = [a for a in illegal_actions(game, rng) if game.why_not(a) is not None]
    if not candidates:
        return
    action = rng.choice(candidates)
    try:
        game.apply(action)
    except IllegalAction as e:
        assert (e.key, e.values) == game.why_not(action) and e.key in REASONS
    else:
        raise AssertionError("%r was applied" % (action,))
    assert game.to_data() == before
    assert [s.score for s in game.seats] == scores


def check_saved(game, dice):
    blob = encode_game(game)
    back = decode_game(blob, dice)
    assert back == game
    assert back.to_data() == game.to_data()
    assert back.legal_actions() == game.legal_actions()


def check_score_changes(game, action, before, turn_total, current, events):
    banks = [e for e in events if e[0] == "bank"]
    penalties = [e for e in events if e[0] == "penalty"]
    if action[0] == "bank":
        assert len(banks) == 1 and banks[0][1] == current and banks[0][2] == turn_total
    else:
        assert not banks
    if penalties:
        assert action[0] == "pass" and len(penalties) == 1
    for i, old in enumerate(before):
        new = game.seats[i].score
        assert new >= 0 and new % 50 == 0
        delta = new - old
        bank = sum(e[2] for e in banks if e[1] == i)
        lost = sum(e[2] for e in penalties if e[1] == i)
        assert delta == bank - lost, (i, old, new, events)
        for e in penalties:
            if e[1] == i:
                assert e[2] == game.rules.penalty or new == 0
                assert 0 <= e[2] <= game.rules.penalty  # 0 when already at 0
    for s in game.seats[len(before):]:
        assert s.score == 0


def walk(rules, seats, dice_seed, choice_seed, table_actions):
    rng = random.Random(choice_seed)
    dice = SeededDice(dice_seed)
    game = Game(rules, [(NAMES[i], "" if i % 2 else "bot") for i in range(seats)], dice)
    joined = 0
    steps = 0
    while game.phase != "over" and steps < MAX_STEPS:
        steps += 1
        for s in game.seats:
            assert s.score >= 0 and s.score % 50 == 0
        assert len(game.active_seats()) <= MAX_SEATS
        for action in game.legal_actions():
            assert game.why_not(action) is None
        check_saved(game, dice)
        r = rng.random()
        check_consistency(game)
        if r < 0.1:
            try_illegal(game, rng)
        if table_actions and r > 0.985:
            if rng.random() < 0.5 and joined < 4:
                action = ("join", "Neu%d" % joined, "")
            else:
                action = ("leave", rng.choice(game.active_seats()))
            if game.why_not(action) is None:
                joined += action[0] == "join"
            else:
                action = choose(game, rng)
        else:
            action = choose(game, rng)
        before = [s.score for s in game.seats]
        turn_total, current = game.turn_total, game.current
        game.events = []
        game.apply(action)
        check_score_changes(game, action, before, turn_total, current, game.events)
    check_saved(game, dice)
    if game.phase == "over":
        assert 0 <= game.winner < len(game.seats)
        assert game.seats[game.winner].active
        assert game.legal_actions() == []
        if rules.exact:
            assert game.seats[game.winner].score == rules.target
    return game, steps


seeds = st.integers(min_value=0, max_value=2 ** 32 - 1)


# The random walks are soaks: a third of their games in make test.
@pytest.mark.soak
@settings(max_examples=soak.length(30, 80), deadline=None)
@given(key=st.sampled_from(PRESETS), seats=st.integers(1, 8), dice_seed=seeds,
       choice_seed=seeds, table_actions=st.booleans())
def test_random_walk_presets(key, seats, dice_seed, choice_seed, table_actions):
    game, steps = walk(preset(key), seats, dice_seed, choice_seed, table_actions)
    assert game.phase == "over", (key, seats, steps)


@pytest.mark.soak
@settings(max_examples=soak.length(30, 80), deadline=None)
@given(rules=random_rules(), seats=st.integers(1, 8), dice_seed=seeds,
       choice_seed=seeds, table_actions=st.booleans())
def test_random_walk_random_rules(rules, seats, dice_seed, choice_seed, table_actions):
    game, steps = walk(rules, seats, dice_seed, choice_seed, table_actions)
    assert game.phase == "over", (rules, seats, steps)


@pytest.mark.soak
@settings(max_examples=soak.length(40, 100), deadline=None)
@given(target=st.sampled_from((50, 100, 150, 200, 300)),
       finish=st.sampled_from(("last_turn", "round")), tie=st.sampled_from(("trigger", "playoff")),
       takeover=st.booleans(), seats=st.integers(2, 8), dice_seed=seeds, choice_seed=seeds,
       table_actions=st.booleans())
def test_random_walk_end_games(target, finish, tie, takeover, seats, dice_seed, choice_seed,
                               table_actions):
    """Small targets: final rounds, ties and play-offs (with joins and leaves) come often."""
    rules = Rules(target=target, finish=finish, tie=tie, takeover=takeover)
    game, steps = walk(rules, seats, dice_seed, choice_seed, table_actions)
    assert game.phase == "over", (rules, seats, steps)
    top = max(game.seats[i].score for i in game.active_seats())
    assert game.seats[game.winner].score == top
