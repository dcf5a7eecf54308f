"""docs/protocol.schema.json is a real check: the messages of a live room
are checked against it (and the check is really made), the client's
messages of docs/protocol.md are valid, and messages it does not describe
(a field too many, a wrong value, a missing field) are refused."""

import asyncio

import pytest

from server import client as client_mod
from server.client import Client, create_room, http, join_room
from tests.server import schema
from tests.server.play import over, play_until


def test_every_message_of_a_live_game_is_checked(server):
    seen = {}
    real = client_mod.CHECK
    assert real is schema.check  # conftest installed it

    def counting(name, msg):
        seen[name] = seen.get(name, 0) + 1
        real(name, msg)

    client_mod.CHECK = counting
    try:
        info = create_room(server.base, "Anna", people=2, target=1000)
        bert = join_room(server.base, info["code"], "Bert")

        async def go():
            a = Client(server.base, info["code"], info["token"])
            b = Client(server.base, info["code"], bert["token"])
            w = Client(server.base, info["code"])
            await a.connect()
            await b.connect()
            await w.connect()
            await a.send({"t": "ping"})
            await a.until(lambda c: c.pongs == 1)
            await w.act(["roll"], ref={"any": ["json"]})  # refused: a spectator
            await w.until(lambda c: c.refusals)
            await play_until([a, b], over)
            for c in (a, b, w):
                await c.close()

        asyncio.run(asyncio.wait_for(go(), 90))
        http(server.base, "GET", "/api/rooms/" + info["code"])
        http(server.base, "GET", "/api/rooms/%s/games/1" % info["code"])
        with pytest.raises(client_mod.ServerRefused):
            join_room(server.base, info["code"], "Cleo")
    finally:
        client_mod.CHECK = real
    assert seen["server_message"] > 20
    assert seen["http_seat"] == 2 and seen["state"] == 1 and seen["http_record"] == 1
    assert seen["http_refusal"] == 1


CLIENT_OK = [
    {"t": "hello", "token": "x" * 32, "since": 4}, {"t": "hello", "token": "x" * 32},
    {"t": "watch"}, {"t": "watch", "since": 0}, {"t": "act", "a": ["roll"], "id": 7},
    {"t": "act", "a": ["keep", [1, 5, 5]]}, {"t": "act", "a": ["take"]}, {"t": "start"},
    {"t": "rematch"}, {"t": "leave"}, {"t": "ping"}, {"t": "beat"},
]
CLIENT_BAD = [
    {"t": "hello"}, {"t": "act", "a": ["keep", [7]]}, {"t": "act", "a": ["jump"]},
    {"t": "act", "a": ["roll", 1]}, {"t": "ping", "x": 1}, {"t": "beat", "now": 1},
    {"t": "watch", "since": -1}, {"t": "bye"},
]


@pytest.mark.parametrize("msg", CLIENT_OK)
def test_the_documented_client_messages_are_valid(msg):
    assert schema.problems("client_message", msg) == []


@pytest.mark.parametrize("msg", CLIENT_BAD)
def test_other_client_messages_are_not(msg):
    assert schema.problems("client_message", msg)


def test_messages_the_schema_does_not_describe_fail():
    pong = {"t": "pong", "now": 1796417998.5}
    assert schema.problems("server_message", pong) == []
    for bad in ({"t": "pong"}, dict(pong, extra=1), {"t": "pong", "now": "soon"},
                {"t": "welcome", "room": "short", "seat": 0, "n": 0, "now": 1.0},
                {"t": "no", "values": []},
                {"t": "ev", "n": 1, "e": {"k": "away", "seat": 1},
                 "s": {"code": "A" * 12, "status": "playing", "rules": "R", "seats": [],
                       "g": 1, "commit": "", "rolls": 0}}):
        assert schema.problems("server_message", bad), bad
    with pytest.raises(AssertionError):
        schema.check("server_message", {"t": "pong"})
