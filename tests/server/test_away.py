"""An absent person's seat: shown away, its turn played by a computer
marked as a stand-in, and given back when the person returns (short
timings: away after 0.4 s, the stand-in after 0.8 s more)."""

import asyncio

from server.client import Client, create_room, join_room


async def finish_turn(c):
    """Play this seat's turn to its end."""
    while c.my_turn():
        await c.play(c.choose())


def test_absent_seat_taken_over_and_given_back(server):
    info = create_room(server.base, "Anna", people=2)
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        await b.close()
        await a.until(lambda c: any(e["k"] == "away" and e["seat"] == 1 for _, e in c.events), 10)
        assert a.state["seats"][1]["away"] and not a.state["seats"][1]["standin"]
        await finish_turn(a)
        await a.until(lambda c: c.state["seats"][1]["standin"], 10)
        # The stand-in plays Bert's turn, each action marked as its own.
        await a.until(lambda c: c.state["cur"] == 0, 20)
        played = [e for _, e in a.events if e["k"] == "act" and e["seat"] == 1]
        assert played and all(e["by"] == "s" for e in played)
        # Bert comes back: the seat is his again.
        await b.reconnect()
        await a.until(lambda c: any(e["k"] == "back" and e["seat"] == 1 for _, e in c.events), 10)
        assert not a.state["seats"][1]["standin"] and not a.state["seats"][1]["away"]
        await finish_turn(a)
        await b.until(lambda c: c.my_turn(), 10)
        n = b.n
        await b.act(b.choose())
        await b.until(lambda c: c.n > n)
        assert b.events[-1][1]["by"] == "p" and b.events[-1][1]["seat"] == 1
        await a.close()
        await b.close()

    asyncio.run(asyncio.wait_for(go(), 60))
