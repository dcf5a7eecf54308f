"""Room.public reuses the seats' rows while nothing of theirs changed
(server/room.py, _public_seats): after every event of played games, with
seats going away, coming back, stand-ins and leaving, it is the same JSON
as made from nothing, and plain JSON values (in-process callers such as
server.client.choose read it as such)."""

import random

import orjson

from engine import rules as rules_mod
from server.client import choose
from server.room import Refused, Room, parse_action


def fresh(room):
    """public() with the seats' rows made again."""
    room._seats_cache = None
    return orjson.dumps(room.public())


def test_public_same_as_made_from_nothing():
    rnd = random.Random(7)
    checks = 0
    for g in range(12):
        room, _ = Room.create("room%08d" % g, "Anna", 3, [], rules_mod.preset("zehntausend"))
        room.join("Bert")
        room.start(0)
        for step in range(300):
            seat = rnd.randrange(len(room.state["seats"]))
            x = rnd.random()
            if x < 0.04:
                room.set_away(seat, True, 1000.0 + step)
            elif x < 0.08:
                room.set_away(seat, False)
            elif x < 0.1:
                room.set_standin(seat)
            elif x < 0.102:
                try:
                    room.leave(seat)
                except Refused:
                    pass
            elif room.state["status"] == "playing":
                state = orjson.loads(orjson.dumps(room.public()))
                room.act(state["cur"], parse_action(choose(state)))
            public = room.public()
            cached = orjson.dumps(public)
            assert cached == fresh(room)
            assert public == orjson.loads(cached)  # plain JSON values: lists, not tuples
            checks += 1
    assert checks == 12 * 300
