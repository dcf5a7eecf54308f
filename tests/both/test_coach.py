"""The coach behind the tips: the Expert's move, its numbers, the cost of a
decision, the time one answer takes, and the plain words that say it
(firmware/tip_words.py: which text key, with which values)."""

import time

from engine import coach as coach_mod
from engine import odds
from engine.bots import Expert
from engine.coach import CHANCE, POINTS, WIN, Coach
from engine.dice import ScriptedDice, SeededDice
from engine.game import BANK, PASS, ROLL, TAKE, Game
from engine.rules import preset
from engine.turnplan import UNIT
from engine.view import View
from firmware import strings, tip_words
from tests.both.helpers import shipped_plan

_plan = shipped_plan


def _game(rules, faces, seats=2, scores=None):
    game = Game(rules, ["A", "B", "C"][:seats], ScriptedDice(faces))
    for i, score in enumerate(scores or []):
        game.seats[i].score = score
        game.seats[i].entered = score > 0
    return game


def test_farkle_chances_match_the_odds():
    for key in ("zehntausend", "fuenf", "farkle4000"):
        rules = preset(key)
        c = Coach(_plan(rules))
        for n in range(1, rules.dice + 1):
            assert abs(c.farkle_chance(n) - odds.farkle_chance(n, rules)) < 1e-12, (key, n)


def test_keep_advice_is_the_experts_move():
    rules = preset("zehntausend")
    plan = _plan(rules)
    c = Coach(plan)
    expert = Expert(plan)
    rng = SeededDice(5)
    checked = 0
    for _ in range(40):
        game = Game(rules, ["A", "B"], rng)
        game.apply(ROLL)
        if game.phase != "keep":
            continue
        view = View(game)
        advice = c.advise(view)
        assert advice.best == expert.decide(view)
        # After the keep, the Expert's roll-or-bank matches `then`.
        game.apply(advice.best)
        if game.phase == "decide":
            assert expert.decide(View(game)) == advice.then, advice.keep
        checked += 1
    assert checked > 30


def test_the_example_roll():
    # 1,1,5,2,3,6: keeping 1,1,5 is worth 250 with three dice left.
    rules = preset("zehntausend")
    c = Coach(_plan(rules))
    game = _game(rules, [1, 1, 5, 2, 3, 6])
    game.apply(ROLL)
    view = View(game)
    mine = c.stand(view, (1, 1, 5))
    assert mine.points == 250 and mine.total == 250 and mine.left == 3
    assert mine.bank == 250 * UNIT
    assert mine.roll is not None and mine.scale == POINTS
    assert abs(mine.farkle - (1 - 156 / 216)) < 1e-9
    assert c.stand(view, (2, 3)) is None
    # Keeping a single 1 and rolling five dice is the Expert's choice here.
    advice = c.advise(view)
    assert advice.best == ("keep", (1,)) and advice.then == ROLL
    assert advice.left == 5 and advice.roll > advice.bank


def test_cost_of_banking_early():
    rules = preset("zehntausend")
    c = Coach(_plan(rules))
    game = _game(rules, [1, 2, 3, 4, 6, 6])
    game.apply(ROLL)
    view = View(game)
    lost, lost_win, scale = c.cost(view, BANK, (1,))
    assert scale == POINTS and lost_win is None
    assert 200 * UNIT < lost < 500 * UNIT  # 100 banked instead of about 400 expected
    lost, _, _ = c.cost(view, ROLL, (1,))
    assert lost == 0
    assert coach_mod.points(lost + 100 * UNIT) == 100


def test_decide_phase_with_auto_keep():
    rules = preset("punktlandung")  # auto-keep: the person decides in phase "decide"
    c = Coach(_plan(rules))
    game = _game(rules, [1, 1, 1, 5, 2], scores=[2000, 2000])
    game.apply(ROLL)
    assert game.phase == "decide"
    view = View(game)
    advice = c.advise(view)
    assert advice.best in (ROLL, BANK) and advice.then == advice.best
    assert advice.bank == 1050 * UNIT and advice.left == 1
    assert advice.best == BANK  # 1050 with one die: bank
    lost, _, _ = c.cost(view, ROLL)
    assert lost > 0


def test_entry_hurdle_refuses_the_bank_number():
    rules = preset("kneipe")
    c = Coach(_plan(rules))
    game = _game(rules, [1, 5, 2, 2, 3, 4])
    game.apply(ROLL)
    view = View(game)
    mine = c.stand(view, (1, 5))
    assert mine.bank is None and mine.then == ROLL
    assert c.cost(view, BANK, (1, 5)) == (0, None, POINTS)


def test_start_farkle_and_takeover():
    rules = preset("zehntausend")
    c = Coach(_plan(rules))
    game = _game(rules, [2, 3, 4, 6, 6, 2])
    view = View(game)
    advice = c.advise(view)
    assert advice.best == ROLL and advice.left == 6
    assert abs(advice.roll / UNIT - 582.3) < 1
    game.apply(ROLL)
    assert game.phase == "farkle"
    advice = c.advise(View(game))
    assert advice.best == PASS and advice.left == 6
    rules = preset("punktlandung")
    c = Coach(_plan(rules))
    game = _game(rules, [1, 1, 1, 2, 3], scores=[4000, 5200])
    game.apply(ROLL)
    game.apply(BANK)
    view = View(game)
    assert TAKE in view.legal
    advice = c.advise(view)
    assert advice.best in (ROLL, TAKE)
    assert c.cost(view, advice.best)[0] == 0


def test_last_turn_is_on_the_chance_scale():
    rules = preset("zehntausend")
    c = Coach(_plan(rules))
    game = _game(rules, [1, 1, 1, 1, 5, 2] + [1, 5, 2, 3, 4, 6], scores=[9200, 8000])
    game.apply(ROLL)
    game.apply(("keep", (1, 1, 1, 1, 5)))
    game.apply(BANK)  # A opens the final round; B has one last turn
    game.apply(ROLL)
    view = View(game)
    assert view.last_chance()
    advice = c.advise(view)
    assert advice.scale == CHANCE
    assert 0 <= advice.roll <= 65536
    assert 0 <= coach_mod.percent(advice.roll, CHANCE) <= 100


def test_instant_win_is_marked():
    rules = preset("punktlandung")
    c = Coach(_plan(rules))
    game = _game(rules, [1, 1, 1, 2, 3], scores=[9000, 100])
    game.apply(ROLL)  # auto-keep 1000: banking lands exactly on 10000
    assert game.phase == "decide"
    view = View(game)
    advice = c.advise(view)
    assert advice.best == BANK and advice.bank == WIN
    assert c.cost(view, ROLL)[0] == WIN


def test_master_win_chances_where_a_table_exists():
    try:
        from engine.master import Master, open_table
    except ImportError:
        return
    rules = preset("farkle4000")
    try:
        f = open_table(rules, "tables")
    except (AttributeError, OSError):
        f = None
    if f is None:
        return
    try:
        master = Master(_plan(rules), f)
        c = Coach(_plan(rules), master)
        game = _game(rules, [1, 1, 5, 2, 3, 6], scores=[1500, 2000])
        game.apply(ROLL)
        view = View(game)
        advice = c.advise(view)
        assert advice.win_roll is not None and 0 <= advice.win_roll <= 1
        assert advice.win_bank is not None and 0 <= advice.win_bank <= 1
        lost, lost_win, _ = c.cost(view, BANK, (5,))
        assert lost_win is not None and lost_win >= 0
    finally:
        f.close()


def _clock():
    try:
        return time.ticks_us()  # MicroPython
    except AttributeError:
        return int(time.perf_counter() * 1000000)


def test_an_answer_takes_well_under_five_ms():
    rules = preset("zehntausend")
    c = Coach(_plan(rules))
    for n in range(1, 7):
        c.farkle_chance(n)  # made once per game
    rng = SeededDice(11)
    total = count = worst = 0
    game = Game(rules, ["A", "B"], rng)
    expert = Expert(_plan(rules))
    while count < 150 and game.phase != "over":
        view = View(game)
        if game.phase in ("keep", "decide"):
            start = _clock()
            advice = c.advise(view)
            if advice.best and advice.best[0] == "keep":
                c.stand(view, view.keeps[0][0])
            spent = _clock() - start
            total += spent
            worst = max(worst, spent)
            count += 1
        game.apply(expert.decide(view))
    assert count >= 100
    mean = total // count
    print("coach: %d answers, mean %d us, worst %d us" % (count, mean, worst))
    assert mean < 2500, mean


# ---------------------------------------------------------------- plain words


def _said(found):
    """The German and English sentences of a (key, values) pair; both exist."""
    key, values = found
    out = []
    for lang in ("de", "en"):
        text = strings.text(lang, key)
        assert text != key, (lang, key)  # an unknown key comes back unchanged
        out.append(text % values if values else text)
    return out


def test_chances_as_small_fractions():
    f = tip_words.fraction
    assert f(2 / 6) == (1, 3)  # one die
    assert f(20 / 36) == (1, 2)  # two dice: about a coin toss
    assert f(156 / 216) == (3, 4)  # three dice
    assert f(1092 / 1296) == (5, 6)  # four dice
    assert f(0.923) == (9, 10)  # five dice: the closest with a small den
    assert f(0.977) == (1, 1) and f(0.023) == (0, 1)  # almost always, almost never
    for n in range(1, 10):
        num, den = f(n / 10)
        assert 0 < num < den <= 10 and abs(num / den - n / 10) < 0.06, n


def test_hits_and_farkles_in_words():
    assert tip_words.hits(0.75) == ("tip_hits", (3, 4))
    assert tip_words.hits(1 / 3) == ("tip_hits_one", (3,))
    assert tip_words.hits(0.98) == ("tip_hits_sure", ())
    assert tip_words.farkles(4 / 9) == ("tip_farkles_one", (2,))
    assert tip_words.farkles(2 / 3) == ("tip_farkles", (2, 3))
    assert tip_words.farkles(0.02) == ("tip_farkles_rare", ())
    assert _said(tip_words.hits(0.75)) == ["3 von 4 Würfen treffen", "3 rolls in 4 score"]


def _keep_words(rules, faces, scores=None):
    c = Coach(_plan(rules))
    game = _game(rules, faces, scores=scores)
    game.apply(ROLL)
    a = c.advise(View(game))
    wins = a.bank is not None and a.bank >= WIN

    def move(chosen):
        return tip_words.move("keep", a.best, a.then, a.keep, chosen, len(game.roll), wins)

    return a, move, tip_words.reason(a.then, a.farkle, wins)


def test_the_move_step_by_step():
    # 1,1,5,2,3,6: take one 1, roll five dice (they score 9 times in 10).
    a, move, why = _keep_words(preset("zehntausend"), [1, 1, 5, 2, 3, 6])
    assert move(()) == ("tip_take1", (1,))
    assert _said(move(())) == ["Nimm die 1", "Take the 1"]
    assert move((1, 1)) == ("tip_take1", (1,))  # another pick: the tip stays
    assert move((1,)) == ("tip_then_roll", ())
    assert why == ("tip_hits", (9, 10))
    # 1,1,1,5,2,3 at 3000: take all four, bank (two dice farkle 4 times in 9).
    a, move, why = _keep_words(preset("zehntausend"), [1, 1, 1, 5, 2, 3], [3000, 3000])
    assert move(()) == ("tip_take4", (1, 1, 1, 5))
    assert move((1, 1, 1, 5)) == ("tip_then_bank", ())
    assert why == ("tip_farkles_one", (2,))
    _said(move(()))
    _said(why)


def test_the_dice_named_by_count():
    assert tip_words.take((5, 5), 6) == ("tip_take2", (5, 5))
    assert tip_words.take((1, 5, 5), 6) == ("tip_take3", (1, 5, 5))
    assert tip_words.take((1, 1, 1, 1, 5), 6) == ("tip_take_marked", (5,))
    assert tip_words.take((2, 2, 2), 3) == ("tip_take_all", ())
    for found in (tip_words.take((1, 1, 1, 1, 5), 6), tip_words.take((2, 2, 2), 3)):
        _said(found)


def test_words_to_decide_to_win_and_at_the_start():
    rules = preset("punktlandung")
    c = Coach(_plan(rules))
    game = _game(rules, [1, 1, 1, 2, 3], scores=[9000, 100])
    game.apply(ROLL)  # auto-keep 1000: banking lands exactly on 10000
    a = c.advise(View(game))
    assert tip_words.move("decide", a.best, a.then, a.keep, (), 5, True) == ("tip_wins", ())
    assert tip_words.reason(a.then, a.farkle, True) == ("tip_wins_now", ())
    assert tip_words.move("decide", BANK, BANK, None, (), 5, False) == ("tip_bank", ())
    assert tip_words.move("decide", ROLL, ROLL, None, (), 5, False) == ("tip_roll", ())
    assert tip_words.move("start", TAKE, None, None, (), 0, False) == ("tip_take_over", ())
    assert tip_words.move("start", ROLL, None, None, (), 0, False) == ("tip_fresh", ())
    assert tip_words.reason(ROLL, 0.5, False, chance=0.25) == ("tip_win_chance", (1, 4))
    assert tip_words.reason(ROLL, 0.5, False, chance=0.01) == ("tip_win_none", ())
    for found in (("tip_wins", ()), ("tip_wins_now", ()), ("tip_take_over", ()),
                  ("tip_fresh", ()), ("tip_win_chance", (1, 4)), ("tip_win_none", ()),
                  ("tip_win_sure", ()), ("tip_then_win", ())):
        _said(found)
