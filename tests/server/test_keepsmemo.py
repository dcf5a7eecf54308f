"""server/keepsmemo.py: the remembered keeps of a roll are the engine's,
for every multiset of dice, in every order, with open singles, under
every preset; each call gets a list of its own; the table stays bounded;
installed, the engine's games use it, and `python -m server` installs it."""

import asyncio
import itertools

from engine import rules as rules_mod
from engine import scoring
from server import keepsmemo
from server.client import create_room, http, join_room
from server.keepsmemo import Memo
from server.room import Room
from tests.server.play import play_a_game

KEEPS = keepsmemo._original  # the engine's own function


def test_same_as_the_engine_for_every_roll():
    memo = Memo(KEEPS)
    for key in rules_mod.PRESETS:
        rules = rules_mod.preset(key)
        for n in range(1, rules.dice + 1):
            for roll in itertools.combinations_with_replacement(range(1, 7), n):
                shuffled = roll[::-1]  # the same multiset in another order
                assert memo(roll, rules) == KEEPS(roll, rules)
                assert memo(shuffled, rules) == KEEPS(shuffled, rules)
    assert memo.hits > 0 and memo.misses > 0


def test_open_singles_are_part_of_the_key():
    rules = rules_mod.Rules(**dict(rules_mod.preset("zehntausend").to_dict(),
                                   triples_across=True))
    memo = Memo(KEEPS)
    for aside in ((), (5,), (1, 5), (5, 1), (1, 1)):
        for roll in ((5, 5, 2), (1, 1, 3, 4), (1, 5, 5, 2, 3, 6)):
            assert memo(roll, rules, aside) == KEEPS(roll, rules, aside)
    assert memo((5, 5, 2), rules, (5,)) != memo((5, 5, 2), rules, ())


def test_a_list_of_its_own_and_bounded():
    rules = rules_mod.preset("zehntausend")
    memo = Memo(KEEPS, size=8)
    first = memo((1, 5, 5), rules)
    first.clear()
    assert memo((1, 5, 5), rules) == KEEPS((1, 5, 5), rules) != []
    for roll in itertools.combinations_with_replacement(range(1, 7), 3):
        memo(roll, rules)
    assert len(memo.table) == 8


def test_installed_the_engines_games_use_it():
    memo = keepsmemo.install()
    try:
        assert scoring.keeps is memo and keepsmemo.install() is memo  # once
        room, _ = Room.create("abcdefghijkl", "Anna", 2, [], rules_mod.preset("zehntausend"))
        room.join("Bert")
        for _ in range(40):
            game = room.game
            legal = game.legal_actions()
            keeps = [a for a in legal if a[0] == "keep"]
            room.act(game.current, keeps[0] if keeps else legal[0])
        assert memo.misses > 0
        assert keepsmemo.stats()["rolls"] == len(memo.table) > 0
    finally:
        keepsmemo.uninstall()
    assert scoring.keeps is KEEPS
    assert keepsmemo.stats() == {"rolls": 0, "hits": 0, "misses": 0}


def test_the_server_process_remembers(server):
    info = create_room(server.base, "Anna")
    bert = join_room(server.base, info["code"], "Bert")

    asyncio.run(play_a_game(server.base, info["code"], [info["token"], bert["token"]]))
    got = http(server.base, "GET", "/api/stats")["keeps"]
    assert got["rolls"] > 0 and got["hits"] + got["misses"] > got["rolls"], got
