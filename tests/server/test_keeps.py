"""server/keeps.py: the remembered keeps of a roll are scoring.keeps's,
for every multiset of dice, in every order, with open singles, under
every preset; each call gets a list of its own; the table stays bounded."""

import itertools

from engine import rules as rules_mod
from engine import scoring
from server.keeps import Memo, RoomGame
from server.room import Room


def test_same_as_scoring_for_every_roll():
    memo = Memo()
    for key in rules_mod.PRESETS:
        rules = rules_mod.preset(key)
        for n in range(1, rules.dice + 1):
            for roll in itertools.combinations_with_replacement(range(1, 7), n):
                shuffled = roll[::-1]  # the same multiset in another order
                assert memo(roll, rules) == scoring.keeps(roll, rules)
                assert memo(shuffled, rules) == scoring.keeps(shuffled, rules)
    assert memo.hits > 0 and memo.misses > 0


def test_open_singles_are_part_of_the_key():
    rules = rules_mod.Rules(**dict(rules_mod.preset("zehntausend").to_dict(),
                                   triples_across=True))
    memo = Memo()
    for aside in ((), (5,), (1, 5), (5, 1), (1, 1)):
        for roll in ((5, 5, 2), (1, 1, 3, 4), (1, 5, 5, 2, 3, 6)):
            assert memo(roll, rules, aside) == scoring.keeps(roll, rules, aside)
    assert memo((5, 5, 2), rules, (5,)) != memo((5, 5, 2), rules, ())


def test_a_list_of_its_own_and_bounded():
    rules = rules_mod.preset("zehntausend")
    memo = Memo(size=8)
    first = memo((1, 5, 5), rules)
    first.clear()
    assert memo((1, 5, 5), rules) == scoring.keeps((1, 5, 5), rules) != []
    for roll in itertools.combinations_with_replacement(range(1, 7), 3):
        memo(roll, rules)
    assert len(memo.table) == 8


def test_rooms_play_with_the_memo():
    room, _ = Room.create("abcdefghijkl", "Anna", 2, [], rules_mod.preset("zehntausend"))
    room.join("Bert")
    assert type(room.game) is RoomGame
    assert type(Room(room.state).game) is RoomGame  # loaded from the state
