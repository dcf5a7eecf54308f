"""A server killed in the middle of a turn comes back with the same dice
on the table and the same roll numbers: nothing is rolled again, and the
finished game passes the dice check."""

import asyncio

from server.client import Client, create_room, http, join_room
from tests.server.play import over, play_until
from tools.check_dice import check


def test_restart_mid_turn_same_dice(server_factory):
    s = server_factory()
    info = create_room(s.base, "Anna", people=2, target=1500)
    bert = join_room(s.base, info["code"], "Bert")

    async def before():
        a = Client(s.base, info["code"], info["token"])
        await a.connect()
        n = a.n
        await a.act(["roll"])
        await a.until(lambda c: c.n > n)
        await a.close()
        return a

    a = asyncio.run(before())
    assert a.state["phase"] in ("keep", "farkle") and a.state["rolls"] == 1
    s.kill9()  # no clean shutdown: what was sent was saved before
    s.start()

    async def after():
        a.ws = None
        await a.reconnect()
        seen = dict(a.state)
        b = Client(s.base, info["code"], bert["token"])
        await b.connect()
        assert b.state["roll"] == seen["roll"] and b.state["rolls"] == 1
        assert b.state["commit"] == seen["commit"]
        await play_until([a, b], over)
        await a.close()
        await b.close()

    asyncio.run(asyncio.wait_for(after(), 60))
    record = http(s.base, "GET", "/api/rooms/%s/games/1" % info["code"])
    assert record["rolls"][0] == [1, a.events[0][1]["ev"][0][2]]  # the roll before the kill
    assert check(record) == []
