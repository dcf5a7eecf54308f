"""Tests of engine.game against docs/rules.md, with scripted dice.

Run under CPython (pytest) and MicroPython (tests/mprun.py).
"""

from engine.dice import ScriptedDice
from engine.game import BANK, PASS, REASONS, ROLL, TAKE, Game, IllegalAction
from engine.rules import Rules, preset
from tests.both.helpers import raises

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gina", "Hans", "Ida"]
FARKLE6 = [2, 3, 4, 6, 6, 2]  # no 1, no 5, no triple, no three pairs, no straight
FARKLE5 = [2, 3, 4, 6, 6]


def new_game(rules, seats, faces):
    return Game(rules, NAMES[:seats], ScriptedDice(faces))


def keep(*dice):
    return ("keep", tuple(dice))


def play(game, *actions):
    for action in actions:
        game.apply(action)


def refused(game, action):
    """Apply `action`, expect IllegalAction with the why_not reason (a key of
    REASONS and its values) and no change; returns the reason."""
    before = game.to_data()
    legal = game.legal_actions()
    reason = game.why_not(action)
    assert reason is not None, action
    key, values = reason
    assert key in REASONS and isinstance(values, tuple), reason
    err = raises(IllegalAction, game.apply, action)
    assert (err.key, err.values) == reason
    assert game.to_data() == before
    assert game.legal_actions() == legal
    assert repr(action) not in [repr(a) for a in legal]
    return reason


def kinds(game):
    return [e[0] for e in game.events]


def set_score(game, seat, score):
    game.seats[seat].score = score
    game.seats[seat].entered = True


# ---------------------------------------------------------------- worked examples


def test_001_example_turn_banked():
    g = new_game(preset("zehntausend"), 2, [1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5])
    assert g.phase == "start" and g.current == 0 and g.legal_actions() == [ROLL]
    g.apply(ROLL)
    assert g.phase == "keep"
    assert g.roll == (1, 3, 3, 5, 6, 6)
    assert keep(1) in g.legal_actions() and keep(1, 5) in g.legal_actions()
    g.apply(keep(1))
    assert g.phase == "decide"
    assert g.turn_total == 100
    assert g.dice_left() == 5
    assert g.aside == (1,) and g.roll == (3, 3, 5, 6, 6)
    g.apply(ROLL)
    assert g.roll == (4, 4, 4, 2, 5)
    g.apply(keep(4, 4, 4, 5))
    assert g.turn_total == 550
    assert g.dice_left() == 1 and not g.hot()
    g.apply(BANK)
    assert g.seats[0].score == 550 and g.seats[0].entered
    assert g.seats[0].turns == 1 and g.seats[0].best_turn == 550
    assert g.current == 1 and g.phase == "start" and g.turn_total == 0
    assert ("bank", 0, 550, 550) in g.events


def test_001_example_last_die_hot():
    g = new_game(preset("zehntausend"), 2,
                 [1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5, 1, 2, 3, 4, 6, 6, 1])
    play(g, ROLL, keep(1), ROLL, keep(4, 4, 4, 5), ROLL)
    assert g.roll == (1,)
    g.apply(keep(1))
    assert g.turn_total == 650
    assert g.hot()
    assert g.dice_left() == 6
    assert ("hot", 0, 650) in g.events
    assert "hot" in kinds(g)
    g.apply(ROLL)
    assert len(g.roll) == 6 and g.aside == ()
    assert g.turn_total == 650  # hot dice keep the turn total
    g.apply(keep(1))
    assert g.turn_total == 750


def test_000_example_two_ones_and_five():
    g = new_game(preset("zehntausend"), 2, [1, 1, 5, 2, 3, 6])
    g.apply(ROLL)
    assert g.legal_actions()[0] == keep(1, 1, 5)  # the best keep first
    g.apply(keep(1, 1, 5))
    assert g.turn_total == 250 and g.dice_left() == 3
    g.apply(BANK)
    assert g.seats[0].score == 250


def test_keep_order_and_list_accepted():
    g = new_game(preset("zehntausend"), 1, [5, 1, 2, 3, 6, 6])
    g.apply(ROLL)
    g.apply(("keep", [5, 1]))
    assert g.aside == (1, 5) and g.turn_total == 150


# ---------------------------------------------------------------- hot dice, farkle


def test_hot_dice_keep_turn_total_through_next_roll():
    g = new_game(preset("zehntausend"), 2, [1, 1, 1, 5, 5, 5, 2, 3, 4, 6, 6, 1])
    play(g, ROLL, keep(1, 1, 1, 5, 5, 5))
    assert g.turn_total == 1500 and g.hot() and g.dice_left() == 6
    g.apply(ROLL)
    assert g.phase == "keep" and g.turn_total == 1500 and len(g.roll) == 6
    g.apply(keep(1))
    assert g.turn_total == 1600
    g.apply(BANK)
    assert g.seats[0].score == 1600


def test_farkle_loses_turn_total():
    g = new_game(preset("zehntausend"), 2,
                 [5, 2, 3, 4, 6, 6] + FARKLE6 + [1, 1, 1, 5, 5, 5] + FARKLE6)
    play(g, ROLL, keep(5), BANK, ROLL, PASS)
    assert g.current == 0 and g.seats[0].score == 50
    play(g, ROLL, keep(1, 1, 1, 5, 5, 5), ROLL)
    assert g.phase == "farkle"
    assert g.lost_kind == "farkle"
    assert g.lost == 1500
    assert g.legal_actions() == [PASS]
    assert ("farkle", 0, 1500) in g.events
    g.apply(PASS)
    assert g.current == 1 and g.phase == "start"
    assert g.seats[0].score == 50
    assert g.seats[0].farkles == 1 and g.seats[0].farkle_turns == 1
    assert g.seats[0].turns == 2
    assert g.turn_total == 0 and g.lost == 0


# ---------------------------------------------------------------- entry hurdle


def test_entry_hurdle_refuses_300():
    g = new_game(preset("kneipe"), 2, [3, 3, 3, 2, 4, 6, 5, 2, 4])
    play(g, ROLL, keep(3, 3, 3))
    assert g.turn_total == 300
    reason = refused(g, BANK)
    assert reason == ("entry", (350,))
    assert g.legal_actions() == [ROLL]
    play(g, ROLL, keep(5))
    assert g.turn_total == 350
    assert BANK in g.legal_actions() and g.why_not(BANK) is None
    g.apply(BANK)
    assert g.seats[0].score == 350 and g.seats[0].entered


def test_bank_refusal_answers_before_the_keep():
    """bank_refusal(keep) says, before the keep, what why_not(BANK) says after it."""
    g = new_game(preset("kneipe"), 2, [3, 3, 3, 5, 4, 6])
    g.apply(ROLL)
    assert g.bank_refusal() == ("nothing_to_bank", ())  # the roll is not kept yet
    assert g.bank_refusal((3, 3, 3)) == ("entry", (350,))
    assert g.bank_refusal((3, 3, 3, 5)) is None
    play(g, keep(3, 3, 3, 5))
    assert g.bank_refusal() is None and g.why_not(BANK) is None
    g2 = new_game(preset("kneipe"), 2, [1, 1, 1, 5, 5, 5])
    g2.apply(ROLL)
    assert g2.bank_refusal((1, 1, 1, 5, 5)) is None
    assert g2.bank_refusal((1, 1, 1, 5, 5, 5)) == ("hot_must", ())
    play(g2, keep(1, 1, 1, 5, 5, 5))
    assert g2.why_not(BANK) == ("hot_must", ())


def test_entry_farkle_scores_zero_then_small_bank_counts():
    g = new_game(preset("kneipe"), 2,
                 [4, 4, 4, 2, 3, 6] + FARKLE6 + [5, 2, 3, 4, 6, 6] + [5, 2, 3, 4, 6, 6])
    play(g, ROLL, keep(4, 4, 4), BANK)
    assert g.seats[0].score == 400
    play(g, ROLL, PASS)  # seat 1 farkles on the attempt: 0, not entered
    assert g.seats[1].score == 0 and not g.seats[1].entered
    play(g, ROLL, keep(5))
    assert g.legal_actions() == [ROLL, BANK]  # after entry even 50 counts
    g.apply(BANK)
    assert g.seats[0].score == 450
    play(g, ROLL, keep(5))
    assert refused(g, BANK) == ("entry", (350,))  # seat 1 is still below the hurdle


# ---------------------------------------------------------------- hot dice option


def test_hot_dice_must_refuses_bank():
    g = new_game(preset("kneipe"), 2, [1, 1, 1, 5, 5, 5])
    play(g, ROLL, keep(1, 1, 1, 5, 5, 5))
    assert g.hot()
    reason = refused(g, BANK)
    assert reason == ("hot_must", ())
    assert g.legal_actions() == [ROLL]


def test_hot_dice_may_allows_bank():
    g = new_game(preset("zehntausend"), 2, [1, 1, 1, 5, 5, 5])
    play(g, ROLL, keep(1, 1, 1, 5, 5, 5))
    assert g.legal_actions() == [ROLL, BANK]
    g.apply(BANK)
    assert g.seats[0].score == 1500


# ---------------------------------------------------------------- auto keep, triples across


def test_auto_keep_after_roll():
    g = new_game(preset("punktlandung"), 2, [1, 5, 2, 3, 6, 1, 1, 1])
    g.apply(ROLL)
    assert g.phase == "decide"
    assert g.turn_total == 150
    assert g.aside == (1, 5) and g.roll == (2, 3, 6)
    assert g.dice_left() == 3
    assert "keep" in kinds(g)
    assert g.legal_actions() == [ROLL]  # below the entry hurdle 350
    g.apply(ROLL)
    assert g.phase == "decide" and g.turn_total == 1150 and g.hot()
    assert g.legal_actions() == [ROLL, BANK]


def test_auto_keep_farkle():
    g = new_game(preset("punktlandung"), 2, FARKLE5)
    g.apply(ROLL)
    assert g.phase == "farkle" and g.lost_kind == "farkle"


def test_triples_across_completes_triple():
    g = new_game(Rules(triples_across=True), 1, [5, 2, 3, 4, 6, 6, 5, 5, 2, 3, 4])
    play(g, ROLL, keep(5))
    assert g.open_singles == (5,)
    assert g.turn_total == 50
    g.apply(ROLL)
    assert (keep(5, 5)) in g.legal_actions()
    g.apply(keep(5, 5))
    assert g.turn_total == 500  # +450: the triple of 5s minus the single counted
    assert g.open_singles == ()
    assert g.aside == (5, 5, 5)


def test_triples_across_off_scores_singles():
    g = new_game(Rules(), 1, [5, 2, 3, 4, 6, 6, 5, 5, 2, 3, 4])
    play(g, ROLL, keep(5), ROLL, keep(5, 5))
    assert g.turn_total == 150
    assert g.open_singles == ()


def test_triples_across_open_singles_tracked():
    g = new_game(Rules(triples_across=True), 1, [1, 5, 2, 3, 6, 6, 1, 2, 3, 4])
    play(g, ROLL, keep(1, 5))
    assert g.open_singles == (1, 5)
    play(g, ROLL, keep(1))
    assert g.open_singles == (1, 1, 5)
    assert g.turn_total == 250


def test_triples_across_open_singles_end_with_hot_dice():
    g = new_game(Rules(triples_across=True), 1, [5, 5, 2, 3, 4, 6, 1, 1, 1, 1, 5, 2, 3, 4, 6, 6])
    play(g, ROLL, keep(5, 5))
    assert g.open_singles == (5, 5)
    play(g, ROLL, keep(1, 1, 1, 1))
    assert g.hot() and g.turn_total == 2100
    g.apply(ROLL)
    assert g.open_singles == () and g.aside == ()
    g.apply(keep(5))
    assert g.turn_total == 2150  # a single 5: the 5s before the hot dice are gone


# ---------------------------------------------------------------- penalty


def test_penalty_500_three_farkles():
    g = new_game(Rules(penalty=500), 1, [6, 6, 6, 2, 3, 4] + FARKLE6 * 3)
    play(g, ROLL, keep(6, 6, 6), BANK)
    assert g.seats[0].score == 600
    play(g, ROLL, PASS, ROLL, PASS)
    assert g.seats[0].farkles == 2 and g.seats[0].score == 600
    play(g, ROLL, PASS)
    assert g.seats[0].score == 100
    assert g.seats[0].farkles == 0  # reset after the penalty
    assert ("penalty", 0, 500, 100) in g.events


def test_penalty_never_below_zero():
    g = new_game(Rules(penalty=500), 1, [6, 6, 6, 2, 3, 4] + FARKLE6 * 6)
    play(g, ROLL, keep(6, 6, 6), BANK)
    for _ in range(6):
        play(g, ROLL, PASS)
    assert g.seats[0].score == 0
    assert ("penalty", 0, 100, 0) in g.events


def test_penalty_counter_resets_after_bank():
    g = new_game(Rules(penalty=500), 1,
                 [6, 6, 6, 2, 3, 4] + FARKLE6 * 2 + [5, 2, 3, 4, 6, 6] + FARKLE6 * 3)
    play(g, ROLL, keep(6, 6, 6), BANK, ROLL, PASS, ROLL, PASS)
    assert g.seats[0].farkles == 2
    play(g, ROLL, keep(5), BANK)
    assert g.seats[0].farkles == 0 and g.seats[0].score == 650
    play(g, ROLL, PASS, ROLL, PASS)
    assert g.seats[0].score == 650 and "penalty" not in kinds(g)
    play(g, ROLL, PASS)
    assert g.seats[0].score == 150


def test_penalty_1000():
    g = new_game(Rules(penalty=1000), 1, [1, 1, 1, 5, 5, 5] + FARKLE6 * 3)
    play(g, ROLL, keep(1, 1, 1, 5, 5, 5), BANK)
    for _ in range(3):
        play(g, ROLL, PASS)
    assert g.seats[0].score == 500
    assert ("penalty", 0, 1000, 500) in g.events


def test_no_penalty_when_off():
    g = new_game(Rules(), 1, [6, 6, 6, 2, 3, 4] + FARKLE6 * 3)
    play(g, ROLL, keep(6, 6, 6), BANK)
    for _ in range(3):
        play(g, ROLL, PASS)
    assert g.seats[0].score == 600 and g.seats[0].farkles == 3


# ---------------------------------------------------------------- takeover


def takeover_game(faces, seats=2, **options):
    """Both seats entered (set directly) under takeover rules."""
    opts = {"takeover": True, "entry": 350}
    opts.update(options)
    g = new_game(Rules(**opts), seats, faces)
    for i in range(seats):
        set_score(g, i, 1000)
    return g


def test_takeover_offered_after_bank_to_entered_seat():
    g = takeover_game([1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5])
    play(g, ROLL, keep(1), ROLL, keep(4, 4, 4, 5), BANK)
    assert g.current == 1
    assert g.offer == (550, (1, 4, 4, 4, 5))
    assert g.legal_actions() == [ROLL, TAKE]


def test_takeover_not_offered_to_seat_not_entered():
    g = new_game(Rules(takeover=True, entry=350), 2,
                 [4, 4, 4, 2, 3, 6, 4, 4, 4, 2, 3, 6])
    play(g, ROLL, keep(4, 4, 4), BANK)
    assert g.current == 1 and not g.seats[1].entered
    assert g.offer is None and g.legal_actions() == [ROLL]
    refused(g, TAKE)
    play(g, ROLL, keep(4, 4, 4), BANK)  # seat 1 enters on its own
    assert g.current == 0 and g.offer == (400, (4, 4, 4))  # seat 0 is entered


def test_takeover_with_entry_0_everyone_is_in():
    # No hurdle: every seat is in the game from the start (docs/rules.md "past the entry").
    g = new_game(Rules(takeover=True), 2, [4, 4, 4, 2, 3, 6])
    play(g, ROLL, keep(4, 4, 4), BANK)
    assert g.offer == (400, (4, 4, 4))


def test_takeover_not_offered_after_farkle():
    g = takeover_game([1, 3, 3, 5, 6, 6] + FARKLE6)
    play(g, ROLL, keep(1), ROLL)
    assert g.phase == "farkle"
    g.apply(PASS)
    assert g.current == 1 and g.offer is None
    assert g.legal_actions() == [ROLL]


def test_takeover_not_offered_past_exact_target():
    g = new_game(preset("punktlandung"), 2, [4, 4, 4, 2, 3])
    set_score(g, 0, 1000)
    set_score(g, 1, 9650)  # 9650 + 400 would pass 10000
    g.apply(ROLL)
    assert g.turn_total == 400
    g.apply(BANK)
    assert g.current == 1 and g.offer is None
    assert g.legal_actions() == [ROLL]


def test_takeover_not_offered_when_it_reaches_exactly():
    # 9600 + 400 is the target: the taker would have to roll, and every
    # score would bust; such a bust-only turn is not offered.
    g = new_game(preset("punktlandung"), 2, [4, 4, 4, 2, 3])
    set_score(g, 0, 1000)
    set_score(g, 1, 9600)
    play(g, ROLL, BANK)
    assert g.current == 1 and g.offer is None


def test_takeover_offered_below_an_exact_target():
    g = new_game(preset("punktlandung"), 2, [4, 4, 4, 2, 3])
    set_score(g, 0, 1000)
    set_score(g, 1, 9550)  # 50 still to go: a single 5 would land exactly
    play(g, ROLL, BANK)
    assert g.current == 1 and g.offer == (400, (4, 4, 4))


def test_taker_must_roll_first():
    g = takeover_game([1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5])
    play(g, ROLL, keep(1), ROLL, keep(4, 4, 4, 5), BANK, TAKE)
    assert g.phase == "start"
    assert g.turn_total == 550
    assert g.aside == (1, 4, 4, 4, 5) and g.dice_left() == 1
    assert g.legal_actions() == [ROLL]
    refused(g, BANK)
    refused(g, TAKE)
    assert ("take", 1, 550, 1) in g.events


def test_taker_farkle_loses_everything():
    g = takeover_game([1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5, 3])
    play(g, ROLL, keep(1), ROLL, keep(4, 4, 4, 5), BANK, TAKE, ROLL)
    assert g.phase == "farkle" and g.lost == 550
    g.apply(PASS)
    assert g.seats[1].score == 1000 and g.seats[0].score == 1550
    assert g.seats[1].farkles == 1


def test_taker_success_banks_inherited_and_new():
    g = takeover_game([1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5, 1])
    play(g, ROLL, keep(1), ROLL, keep(4, 4, 4, 5), BANK, TAKE, ROLL)
    assert g.roll == (1,)
    g.apply(keep(1))
    assert g.turn_total == 650 and g.hot()
    assert BANK in g.legal_actions()
    g.apply(BANK)
    assert g.seats[1].score == 1650


def test_takeover_declined_starts_fresh():
    g = takeover_game([1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5, 1, 2, 3, 4, 6, 6])
    play(g, ROLL, keep(1), ROLL, keep(4, 4, 4, 5), BANK, ROLL)
    assert g.offer is None
    assert g.turn_total == 0 and g.aside == ()
    assert len(g.roll) == 6
    g.apply(keep(1))
    assert g.turn_total == 100


def test_takeover_after_hot_dice_rolls_all():
    g = takeover_game([1, 1, 1, 5, 5, 5, 1, 2, 3, 4, 6, 6])
    play(g, ROLL, keep(1, 1, 1, 5, 5, 5), BANK)
    assert g.offer == (1500, ())
    g.apply(TAKE)
    assert g.dice_left() == 6 and g.turn_total == 1500
    g.apply(ROLL)
    assert len(g.roll) == 6
    play(g, keep(1), BANK)
    assert g.seats[1].score == 1000 + 1600


def test_takeover_offer_goes_to_next_seat_only():
    g = takeover_game([4, 4, 4, 2, 3, 6] + FARKLE6, seats=3)
    play(g, ROLL, keep(4, 4, 4), BANK)
    assert g.current == 1 and g.offer is not None
    play(g, ROLL, PASS)  # declined and farkled
    assert g.current == 2 and g.offer is None


# ---------------------------------------------------------------- exact target


def test_exact_bust_scores_zero_and_offers_last_roll():
    g = new_game(preset("punktlandung"), 2, [2, 2, 2, 3, 4])
    set_score(g, 0, 9900)
    set_score(g, 1, 5000)
    g.apply(ROLL)
    assert g.phase == "farkle" and g.lost_kind == "bust"
    assert g.lost == 0
    assert "bust" in kinds(g)
    assert g.legal_actions() == [PASS]
    g.apply(PASS)
    assert g.seats[0].score == 9900
    assert g.seats[0].farkles == 1  # a bust counts as a farkled turn
    assert g.current == 1
    assert g.offer == (200, (2, 2, 2))
    g.apply(TAKE)
    assert g.turn_total == 200 and g.dice_left() == 2


def test_exact_bust_with_turn_total_offers_dice_left():
    g = new_game(preset("punktlandung"), 2, [5, 2, 3, 4, 6, 1, 2, 3, 4])
    set_score(g, 0, 9900)
    set_score(g, 1, 5000)
    g.apply(ROLL)
    assert g.turn_total == 50 and g.phase == "decide"
    g.apply(ROLL)  # a 1 would make 10050
    assert g.phase == "farkle" and g.lost_kind == "bust" and g.lost == 50
    g.apply(PASS)
    assert g.seats[0].score == 9900
    assert g.offer == (100, (1, 5))


def test_exact_bust_no_offer_without_takeover():
    g = new_game(Rules(exact=True, finish="exact"), 2, [1, 1, 2, 3, 4, 6])
    set_score(g, 0, 9950)
    set_score(g, 1, 5000)
    g.apply(ROLL)
    assert g.phase == "farkle" and g.lost_kind == "bust"
    g.apply(PASS)
    assert g.offer is None and g.seats[0].score == 9950


def test_exact_keep_past_target_refused_when_smaller_fits():
    g = new_game(Rules(exact=True, finish="exact"), 2, [1, 1, 5, 2, 3, 6])
    set_score(g, 0, 9900)
    g.apply(ROLL)
    assert g.phase == "keep"
    assert sorted(g.legal_actions()) == sorted([keep(1), keep(5)])
    reason = refused(g, keep(1, 1, 5))
    assert reason == ("past_target", (10000,))
    refused(g, keep(1, 5))
    g.apply(keep(1))
    assert g.turn_total == 100 and g.phase == "decide"
    g.apply(BANK)
    assert g.phase == "over" and g.winner == 0
    assert g.seats[0].score == 10000
    assert "win" in kinds(g)
    assert g.legal_actions() == []


def test_exact_landing_wins_at_once_punktlandung():
    g = new_game(preset("punktlandung"), 3, [5, 2, 3, 4, 6])
    set_score(g, 0, 9950)
    g.apply(ROLL)
    assert g.turn_total == 50
    g.apply(BANK)
    assert g.phase == "over" and g.winner == 0
    assert g.seats[1].turns == 0


def test_exact_bank_below_target_continues():
    g = new_game(preset("punktlandung"), 2, [5, 2, 3, 4, 6])
    set_score(g, 0, 9900)
    play(g, ROLL, BANK)
    assert g.seats[0].score == 9950
    assert g.phase == "start" and g.current == 1 and g.final == -1


# ---------------------------------------------------------------- end of game


T1000 = [1, 1, 1, 2, 3, 4]  # keep (1, 1, 1): 1000
T500 = [5, 5, 5, 2, 3, 4]  # keep (5, 5, 5): 500
T1100 = [1, 1, 1, 5, 5, 2]  # keep (1, 1, 1, 5, 5): 1100
T100 = [1, 2, 3, 4, 6, 6]  # keep (1,): 100


def test_last_turn_final_round_highest_wins():
    g = new_game(Rules(target=1000), 3, T1000 + T1100 + FARKLE6)
    play(g, ROLL, keep(1, 1, 1), BANK)
    assert g.final == 0 and g.pending == [1, 2]
    assert "final" in kinds(g)
    assert g.phase == "start" and g.current == 1
    play(g, ROLL, keep(1, 1, 1, 5, 5), BANK)
    assert g.final == 0 and g.pending == [2]
    play(g, ROLL, PASS)
    assert g.phase == "over" and g.winner == 1
    assert [s.turns for s in g.seats] == [1, 1, 1]


def test_last_turn_each_other_seat_one_turn_in_order():
    g = new_game(Rules(target=1000), 4, T100 + T1000 + FARKLE6 * 3)
    play(g, ROLL, keep(1), BANK)
    play(g, ROLL, keep(1, 1, 1), BANK)  # seat 1 opens the final round
    assert g.pending == [0, 2, 3]
    play(g, ROLL, PASS)
    assert g.current == 3
    play(g, ROLL, PASS)
    assert g.current == 0
    play(g, ROLL, PASS)
    assert g.phase == "over" and g.winner == 1
    assert [s.turns for s in g.seats] == [2, 1, 1, 1]


def test_tie_trigger_first_banker_wins():
    g = new_game(Rules(target=1000), 3, T1000 + T1000 + FARKLE6)
    play(g, ROLL, keep(1, 1, 1), BANK, ROLL, keep(1, 1, 1), BANK, ROLL, PASS)
    assert g.phase == "over" and g.winner == 0


def test_tie_trigger_later_seat_wins_tie():
    g = new_game(Rules(target=1000), 3, T500 + T1000 + FARKLE6 + T500)
    play(g, ROLL, keep(5, 5, 5), BANK)
    play(g, ROLL, keep(1, 1, 1), BANK)
    assert g.final == 1
    play(g, ROLL, PASS, ROLL, keep(5, 5, 5), BANK)
    assert g.seats[0].score == 1000 == g.seats[1].score
    assert g.phase == "over" and g.winner == 1


def test_tie_trigger_not_leading_earlier_seat_wins():
    g = new_game(Rules(target=1000), 3, T1000 + T1100 + T1100)
    play(g, ROLL, keep(1, 1, 1), BANK)
    play(g, ROLL, keep(1, 1, 1, 5, 5), BANK)
    play(g, ROLL, keep(1, 1, 1, 5, 5), BANK)
    assert g.phase == "over" and g.winner == 1


def test_tie_playoff_only_leaders_play():
    g = new_game(Rules(target=1000, tie="playoff"), 3,
                 T1000 + T1000 + FARKLE6 + T100 + T100 + T100 + FARKLE6)
    play(g, ROLL, keep(1, 1, 1), BANK, ROLL, keep(1, 1, 1), BANK, ROLL, PASS)
    assert g.phase == "start"
    assert g.playoff == [0, 1]
    assert g.pending == [0, 1]
    assert g.current == 0
    assert "playoff" in kinds(g)
    play(g, ROLL, keep(1), BANK)
    assert g.current == 1  # seat 2 does not play
    play(g, ROLL, keep(1), BANK)
    assert g.phase == "start" and g.current == 0  # tied again: another round
    assert g.playoff == [0, 1]
    play(g, ROLL, keep(1), BANK)
    play(g, ROLL, PASS)
    assert g.phase == "over" and g.winner == 0
    assert g.seats[2].turns == 1
    assert g.seats[0].score == 1200


def test_tie_playoff_no_takeover_offer():
    g = new_game(Rules(target=1000, tie="playoff", takeover=True), 2,
                  T1000 + T1000 + T100)
    play(g, ROLL, keep(1, 1, 1), BANK, ROLL, keep(1, 1, 1), BANK)
    assert g.playoff == [0, 1] and g.offer is None
    play(g, ROLL, keep(1), BANK)
    assert g.current == 1 and g.offer is None


def test_finish_round_same_number_of_turns():
    g = new_game(Rules(finish="round", target=1000), 3, FARKLE6 + T1000 + FARKLE6)
    play(g, ROLL, PASS)
    play(g, ROLL, keep(1, 1, 1), BANK)
    assert g.final == 1 and g.pending == [2]
    play(g, ROLL, PASS)
    assert g.phase == "over" and g.winner == 1
    assert [s.turns for s in g.seats] == [1, 1, 1]


def test_finish_round_first_seat_triggers():
    g = new_game(Rules(finish="round", target=1000), 3, T1000 + T1100 + FARKLE6)
    play(g, ROLL, keep(1, 1, 1), BANK)
    assert g.pending == [1, 2]
    play(g, ROLL, keep(1, 1, 1, 5, 5), BANK, ROLL, PASS)
    assert g.phase == "over" and g.winner == 1


def test_finish_round_last_seat_ends_at_once():
    g = new_game(Rules(finish="round", target=1000), 3, FARKLE6 * 2 + T1000)
    play(g, ROLL, PASS, ROLL, PASS, ROLL, keep(1, 1, 1), BANK)
    assert g.phase == "over" and g.winner == 2


def test_finish_round_fuenf_playoff():
    rules = preset("fuenf").replace(target=1000)
    t5 = [1, 1, 1, 2, 3]
    g = new_game(rules, 2, t5 + t5 + [1, 2, 3, 4, 6] + FARKLE5)
    play(g, ROLL, keep(1, 1, 1), BANK, ROLL, keep(1, 1, 1), BANK)
    assert g.playoff == [0, 1] and g.phase == "start"
    play(g, ROLL, keep(1), BANK, ROLL, PASS)
    assert g.phase == "over" and g.winner == 0


def test_finish_immediate():
    g = new_game(Rules(finish="immediate", target=1000), 2, T1000)
    play(g, ROLL, keep(1, 1, 1), BANK)
    assert g.phase == "over" and g.winner == 0
    assert g.seats[1].turns == 0
    assert g.pending == []


def test_one_seat_alone():
    g = new_game(Rules(target=1000), 1, T500 + FARKLE6 + T500)
    play(g, ROLL, keep(5, 5, 5), BANK)
    assert g.current == 0 and g.phase == "start"
    play(g, ROLL, PASS)
    assert g.current == 0
    play(g, ROLL, keep(5, 5, 5), BANK)
    assert g.phase == "over" and g.winner == 0
    assert g.seats[0].turns == 3 and g.seats[0].farkle_turns == 1


# ---------------------------------------------------------------- join and leave


def test_join_mid_game_plays_in_order():
    g = new_game(Rules(), 2, FARKLE6 * 4)
    assert g.why_not(("join", "Cleo", "")) is None
    g.apply(("join", "Cleo", ""))
    assert len(g.seats) == 3 and g.seats[2].score == 0 and g.seats[2].active
    assert ("join", 2, "Cleo") in g.events
    assert g.current == 0
    play(g, ROLL, PASS)
    assert g.current == 1
    play(g, ROLL, PASS)
    assert g.current == 2
    play(g, ROLL, PASS)
    assert g.current == 0


def test_join_computer():
    g = new_game(Rules(), 1, [])
    g.apply(("join", "Robo", "aggressive"))
    assert g.seats[1].is_bot and not g.seats[0].is_bot


def test_leave_current_seat_passes_turn():
    g = new_game(Rules(), 3, [1, 2, 3, 4, 6, 6] + FARKLE6 * 3)
    play(g, ROLL, keep(1))
    g.apply(("leave", 0))
    assert not g.seats[0].active
    assert g.current == 1 and g.phase == "start" and g.turn_total == 0
    assert g.seats[0].turns == 0
    assert "leave" in kinds(g)
    play(g, ROLL, PASS)
    assert g.current == 2
    play(g, ROLL, PASS)
    assert g.current == 1  # seat 0 is skipped
    assert g.active_seats() == [1, 2]


def test_leave_other_seat_keeps_turn():
    g = new_game(Rules(), 3, [1, 2, 3, 4, 6, 6])
    play(g, ROLL)
    before = g.roll
    g.apply(("leave", 2))
    assert g.current == 0 and g.phase == "keep" and g.roll == before
    refused(g, ("leave", 2))  # already gone


def test_last_seat_cannot_leave():
    g = new_game(Rules(), 2, [])
    g.apply(("leave", 1))
    reason = refused(g, ("leave", 0))
    assert reason == ("last_seat", ())


def test_leave_during_final_round_decides():
    g = new_game(Rules(target=1000), 3, T1000)
    play(g, ROLL, keep(1, 1, 1), BANK)
    assert g.pending == [1, 2]
    g.apply(("leave", 2))
    assert g.pending == [1]
    g.apply(("leave", 1))
    assert g.phase == "over" and g.winner == 0


def test_no_join_after_final_round_began():
    g = new_game(Rules(target=1000), 2, T1000)
    play(g, ROLL, keep(1, 1, 1), BANK)
    reason = refused(g, ("join", "Late", ""))
    assert reason == ("final", ())


def test_at_most_eight_active_seats():
    g = new_game(Rules(), 8, [])
    assert refused(g, ("join", "Ida", "")) == ("full", (8,))
    g.apply(("leave", 3))
    g.apply(("join", "Ida", ""))
    assert len(g.seats) == 9 and len(g.active_seats()) == 8
    refused(g, ("join", "Jan", ""))


def test_join_refuses_bad_names():
    g = new_game(Rules(), 2, [])
    for name in ("", "   ", "x" * 13, 5):
        assert refused(g, ("join", name, "")) == ("name", (12,))
    assert refused(g, ("join", "Ok", 3)) == ("action", ())
    assert refused(g, ("join", "Ok")) == ("action", ())
    g.apply(("join", "x" * 12, ""))


# ---------------------------------------------------------------- illegal actions


COMMON_BAD = [
    ("fly",),
    (),
    ["roll"],
    "roll",
    None,
    (5,),
    ("keep",),
    ("keep", 1),
    ("keep", "15"),
    ("keep", (1.0,)),
    ("keep", (True,)),
    ("keep", (0,)),
    ("keep", (7,)),
    ("leave",),
    ("leave", "0"),
    ("leave", 0, 1),
    ("leave", 9),
    ("leave", -1),
    ("join",),
    ("join", "Name"),
    ("roll", 6),
    ("bank", 500),
    ("pass", 1),
    ("take", 1),
]


def check_common_bad(g):
    for action in COMMON_BAD:
        refused(g, action)


def test_illegal_in_start():
    g = new_game(Rules(), 2, [1, 2, 3, 4, 6, 6])
    check_common_bad(g)
    refused(g, keep(1))
    refused(g, BANK)
    refused(g, TAKE)
    refused(g, PASS)


def test_illegal_in_keep():
    g = new_game(Rules(), 2, [1, 1, 5, 2, 3, 6])
    g.apply(ROLL)
    check_common_bad(g)
    refused(g, ROLL)
    refused(g, BANK)
    refused(g, TAKE)
    refused(g, PASS)
    refused(g, ("keep", ()))
    assert refused(g, keep(4)) == ("not_on_table", (4,))  # not on the table
    refused(g, keep(1, 1, 1))  # only two 1s on the table
    refused(g, keep(2))  # does not score
    refused(g, keep(1, 2))  # a non-scoring die with a scoring one
    refused(g, keep(1, 1, 5, 2, 3, 6))
    refused(g, keep(1, 1, 5, 2, 3, 6, 1))


def test_illegal_in_decide():
    g = new_game(Rules(entry=350), 2, [1, 1, 5, 2, 3, 6])
    play(g, ROLL, keep(1))
    check_common_bad(g)
    refused(g, keep(1))
    refused(g, keep(5))
    refused(g, TAKE)
    refused(g, PASS)
    refused(g, BANK)  # below the hurdle


def test_illegal_in_farkle():
    g = new_game(Rules(), 2, FARKLE6)
    g.apply(ROLL)
    check_common_bad(g)
    refused(g, ROLL)
    refused(g, BANK)
    refused(g, TAKE)
    refused(g, keep(2))


def test_illegal_in_over():
    g = new_game(Rules(finish="immediate", target=1000), 2, T1000)
    play(g, ROLL, keep(1, 1, 1), BANK)
    check_common_bad(g)
    for action in (ROLL, BANK, TAKE, PASS, keep(1), ("join", "New", ""), ("leave", 1)):
        refused(g, action)


def test_illegal_after_take():
    g = takeover_game([4, 4, 4, 2, 3, 6])
    play(g, ROLL, keep(4, 4, 4), BANK, TAKE)
    check_common_bad(g)
    for action in (BANK, TAKE, PASS, keep(4)):
        refused(g, action)


def test_no_dice_source_refuses_roll():
    g = Game(Rules(), ["A"])
    before = g.to_data()
    err = raises(IllegalAction, g.apply, ROLL)
    assert err.key == "no_dice"
    assert g.to_data() == before


# ---------------------------------------------------------------- legal actions, constructor


def test_legal_actions_each_phase():
    g = takeover_game([1, 1, 5, 2, 3, 6] + FARKLE6)
    assert g.legal_actions() == [ROLL]
    g.apply(ROLL)
    legal = g.legal_actions()
    assert legal[0] == keep(1, 1, 5)
    assert sorted(legal) == sorted([keep(1), keep(5), keep(1, 1), keep(1, 5), keep(1, 1, 5)])
    for action in legal:
        assert g.why_not(action) is None
    g.apply(keep(1, 1, 5))
    assert g.legal_actions() == [ROLL, BANK]
    g.apply(BANK)
    assert g.legal_actions() == [ROLL, TAKE]
    g.apply(ROLL)
    assert g.legal_actions() == [PASS]


def test_constructor_checks():
    r = Rules()
    raises(ValueError, Game, r, [])
    raises(ValueError, Game, r, NAMES[:9])
    Game(r, NAMES[:8])
    Game(r, NAMES[:1])
    raises(ValueError, Game, r, [""])
    raises(ValueError, Game, r, ["  "])
    raises(ValueError, Game, r, ["x" * 13])
    raises(ValueError, Game, r, [5])
    raises(ValueError, Game, r, [("Bot", 7)])
    g = Game(r, [("Bot", "careful"), "Me"])
    assert g.seats[0].is_bot and g.seats[0].name == "Bot"
    assert g.phase == "start" and g.current == 0 and g.winner == -1
    assert g.events == [("turn", 0)]


def test_exact_landing_on_hot_dice_may_bank_even_when_hot_dice_must_roll():
    rules = Rules(exact=True, finish="exact", hot_dice="must")
    g = new_game(rules, 2, [1, 1, 1, 5, 5, 5])
    set_score(g, 0, 8500)
    play(g, ROLL, keep(1, 1, 1, 5, 5, 5))  # 1500 on hot dice lands on 10000
    assert g.hot() and g.why_not(BANK) is None
    play(g, BANK)
    assert g.phase == "over" and g.winner == 0


def test_penalty_at_zero_takes_nothing_and_says_nothing():
    g = new_game(Rules(penalty=500), 1, FARKLE6 * 3)
    for _ in range(3):
        play(g, ROLL, PASS)
    assert g.seats[0].score == 0 and g.seats[0].farkles == 0
    assert "penalty" not in kinds(g)


def test_bank_outcome_in_the_final_round():
    """engine.ending.bank_outcome: "lose" for a final-round bank that cannot win, "win"
    for the last turn that goes ahead, None elsewhere (issue 51)."""
    from engine.ending import bank_outcome

    game = new_game(preset("zehntausend").replace(tie="playoff"), 3, [1, 1, 1, 2, 3, 4])
    game.seats[0].score = 9500
    assert bank_outcome(game, 1000) is None  # no final round yet
    play(game, ROLL, keep(1, 1, 1), BANK)  # Anna: 10500, Ben and Cleo still play
    assert game.final == 0 and game.current == 1
    assert bank_outcome(game, 150) == "lose"
    assert bank_outcome(game, 10550) is None  # ahead, but Cleo may still pass him
    assert bank_outcome(game, 10500) is None  # level: a play-off, not lost
    game.pending = [1]  # Ben the last to play
    assert bank_outcome(game, 10550) == "win"
    game.rules = game.rules.replace(tie="trigger")
    assert bank_outcome(game, 10500) == "lose"  # a tie goes to Anna, who reached it
