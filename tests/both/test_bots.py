"""Computer players: legal moves in whole games, and the decisions that matter."""

from engine import levels
from engine.bots import Expert, bold, cautious, make_bot
from engine.dice import ScriptedDice, SeededDice
from engine.game import BANK, PASS, ROLL, TAKE, Game
from engine.levels import LEVELS
from engine.rules import PRESETS, Rules, preset
from engine.view import View
from tests.both.helpers import raises, shipped_plan

_plan = shipped_plan


def _expert(rules):
    return Expert(_plan(rules))


def _game(rules, faces, seats=2, scores=None):
    game = Game(rules, ["A", "B", "C", "D"][:seats], ScriptedDice(faces))
    for i, score in enumerate(scores or []):
        game.seats[i].score = score
        game.seats[i].entered = score > 0
    return game


def test_every_level_plays_legal_moves_through_whole_games():
    for i, key in enumerate(PRESETS):
        rules = preset(key)
        bots = [_expert(rules), bold(), cautious()]
        game = Game(rules, [("E", "profi"), ("B", "mutig"), ("C", "vorsichtig")], SeededDice(i))
        steps = 0
        while game.phase != "over":
            view = View(game)
            action = bots[game.current].decide(view)
            assert action in view.legal, (key, action)
            game.apply(action)
            steps += 1
            assert steps < 5000
        assert game.winner >= 0
        bots = game = view = None  # let the next preset's plan have the heap


def test_expert_banks_at_its_thresholds():
    rules = preset("zehntausend")
    expert = _expert(rules)
    # 1,1,5,5 then 2,3 left: keep everything scoring and stand with 2 dice.
    game = _game(rules, [1, 5, 2, 3, 4, 6], scores=[1000, 1000])
    game.apply(ROLL)
    game.apply(("keep", (1, 5)))  # 150 with 4 dice: below 1050, roll on
    assert expert.decide(View(game)) == ROLL
    game = _game(rules, [1, 1, 5, 5, 3, 2], scores=[1000, 1000])
    game.apply(ROLL)
    game.apply(("keep", (1, 1, 5, 5)))  # 300 with 2 dice: above 250, bank
    assert expert.decide(View(game)) == BANK


def test_expert_rolls_hot_dice_and_passes_farkles():
    rules = preset("zehntausend")
    expert = _expert(rules)
    game = _game(rules, [1, 1, 1, 5, 5, 5, 2, 2, 3, 3, 4, 6])
    game.apply(ROLL)
    game.apply(("keep", (1, 1, 1, 5, 5, 5)))
    assert game.hot()
    assert expert.decide(View(game)) == ROLL
    game.apply(ROLL)  # 2,2,3,3,4,6: a farkle
    assert expert.decide(View(game)) == PASS


def test_expert_keeps_the_bigger_prize():
    rules = preset("zehntausend")
    expert = _expert(rules)
    game = _game(rules, [2, 2, 2, 2, 3, 4])
    game.apply(ROLL)
    action = expert.decide(View(game))
    assert action == ("keep", (2, 2, 2, 2))


def test_expert_on_its_last_turn_rolls_until_it_passes_the_leader():
    rules = preset("zehntausend")
    expert = _expert(rules)
    game = _game(rules, [1, 1, 5, 5, 2, 3], seats=2, scores=[0, 0])
    game.seats[0].score = 9000
    game.seats[1].score = 10200
    game.seats[1].entered = game.seats[0].entered = True
    game.final = 1
    game.pending = [0]
    game.apply(ROLL)
    game.apply(("keep", (1, 1, 5, 5)))  # 300, far from the 1250 it needs
    view = View(game)
    assert view.last_chance()
    assert expert.decide(view) == ROLL
    game.turn_total = 1250  # now past the leader: bank
    assert expert.decide(View(game)) == BANK


def test_expert_lands_exactly_when_it_can():
    rules = Rules(exact=True, finish="exact", dice=5, n_of_kind="triple_only", straight=0,
                  three_pairs=0)
    expert = _expert(rules)
    game = _game(rules, [1, 5, 2, 3, 4], scores=[9950, 0])
    game.apply(ROLL)
    assert expert.decide(View(game)) == ("keep", (5,))
    game.apply(("keep", (5,)))
    assert expert.decide(View(game)) == BANK


def test_expert_takes_a_rich_offer_and_declines_a_poor_one():
    rules = preset("zehntausend").replace(takeover=True)
    expert = _expert(rules)
    game = _game(rules, [1, 1, 1, 1, 1, 2], scores=[500, 500])
    game.apply(ROLL)
    game.apply(("keep", (1, 1, 1, 1, 1)))  # 4000 points, one die left
    game.apply(BANK)
    view = View(game)
    assert view.offer == (4000, (1, 1, 1, 1, 1))
    assert TAKE in view.legal
    # 4000 at stake on one die: a third of a chance to keep it. Worth less
    # than a fresh turn? 4000 * 1/3 > 582, so taking it is right.
    assert expert.decide(view) == TAKE
    game = _game(rules, [5, 2, 3, 4, 6, 6], scores=[500, 500])
    game.apply(ROLL)
    game.apply(("keep", (5,)))  # 50 points with five dice left
    game.apply(BANK)
    view = View(game)
    assert view.offer == (50, (5,))
    # Five dice at 50 are worth less than six fresh dice: start afresh.
    assert expert.decide(view) == ROLL


def test_no_offer_after_a_farkle():
    rules = preset("zehntausend").replace(takeover=True)
    game = _game(rules, [5, 2, 3, 4, 6, 6, 2, 3, 4, 6, 6], scores=[500, 500])
    game.apply(ROLL)
    game.apply(("keep", (5,)))
    game.apply(ROLL)  # 2,3,4,6,6: a farkle
    game.apply(PASS)
    view = View(game)
    assert view.offer is None and view.legal == (ROLL,)


def test_cautious_banks_where_bold_rolls_on():
    rules = preset("zehntausend")
    game = _game(rules, [1, 1, 5, 2, 3, 4], scores=[2000, 2000])
    game.apply(ROLL)
    game.apply(("keep", (1, 1, 5)))  # 250 with three dice left
    view = View(game)
    assert cautious().decide(view) == BANK
    assert bold().decide(view) == ROLL


def test_bold_keeps_fewer_dice_than_cautious():
    rules = preset("zehntausend")
    game = _game(rules, [1, 5, 5, 2, 3, 4])
    game.apply(ROLL)
    view = View(game)
    assert cautious().decide(view) == ("keep", (1, 5, 5))
    assert bold().decide(view) == ("keep", (1,))


def test_simple_bots_reroll_hot_dice_unless_an_exact_landing_wins():
    rules = preset("punktlandung")
    game = _game(rules, [1, 1, 1, 5, 5], scores=[8850, 500])
    game.apply(ROLL)  # auto-kept: 1000 + 100 = 1100 (hot dice), total 9950
    assert game.hot()
    for bot in (cautious(), bold()):
        assert bot.decide(View(game)) == ROLL
    game = _game(rules, [1, 1, 1, 5, 5], scores=[8900, 500])
    game.apply(ROLL)  # 1100 lands exactly on 10000
    for bot in (cautious(), bold(), _expert(rules)):
        assert bot.decide(View(game)) == BANK


def test_levels_and_unknown_keys():
    assert LEVELS == ("vorsichtig", "mutig", "profi", "meister")
    rules = preset("fuenf")
    assert make_bot("vorsichtig", rules).key == "vorsichtig"
    assert make_bot("mutig", rules).key == "mutig"
    assert make_bot("profi", rules, _plan(rules)).key == "profi"
    assert make_bot("meister", rules, _plan(rules)).key == "meister"  # engine.master
    assert "levels" in str(raises(ValueError, make_bot, "genie", rules))


def test_the_level_registry_is_read_by_make_bot():
    """engine.levels is the one list: make_bot builds every level in it
    through its factory, and what a level needs is asked there."""
    rules = preset("fuenf")
    plan = _plan(rules)
    for key in LEVELS:
        bot = make_bot(key, rules, plan if levels.needs(key, levels.PLAN) else None, None)
        assert bot.key == key and hasattr(bot, "decide")
    assert [k for k in LEVELS if levels.needs(k, levels.PLAN)] == ["profi", "meister"]
    assert [k for k in LEVELS if levels.needs(k, levels.TABLES)] == ["meister"]
    raises(ValueError, levels.needs, "genie", levels.PLAN)
    saved = levels._LEVELS
    try:  # a level added in one place: make_bot and the list know it
        levels._LEVELS = saved + (("zweiter", "bots", "make_bold", 0),)
        levels.LEVELS = tuple([entry[0] for entry in levels._LEVELS])
        assert make_bot("zweiter", rules).key == "mutig"
        assert not levels.needs("zweiter", levels.PLAN)
    finally:
        levels._LEVELS = saved
        levels.LEVELS = tuple([entry[0] for entry in saved])
