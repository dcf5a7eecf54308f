"""The hub's clock visits only the rooms with a clock running (a
person's seat without a connection, or nobody there): /api/stats counts
them as `timed`. A room whose seats are all connected leaves the clock;
a seat that goes brings it back, and the seat is marked away on time."""

import asyncio
import time

from server.client import Client, create_room, http, join_room


def timed(s):
    return http(s.base, "GET", "/api/stats")["timed"]


def until(test, limit=10.0):
    end = time.monotonic() + limit
    while not test():
        assert time.monotonic() < end, "never"
        time.sleep(0.05)


def test_only_rooms_with_a_running_clock(server_factory):
    s = server_factory()
    info = create_room(s.base, "Anna", people=2)
    bert = join_room(s.base, info["code"], "Bert")
    assert timed(s) == 1  # nobody connected yet: the away clocks run

    async def run():
        a = Client(s.base, info["code"], info["token"])
        b = Client(s.base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        await asyncio.to_thread(until, lambda: timed(s) == 0)  # both there: no clock
        await b.close()
        await asyncio.to_thread(until, lambda: timed(s) == 1)  # Bert went: his clock
        await a.until(lambda c: c.state["seats"][1]["away"], 10)  # ... marks him away
        await b.reconnect()
        await asyncio.to_thread(until, lambda: timed(s) == 0)
        await a.until(lambda c: not c.state["seats"][1]["away"], 10)  # back
        await a.close()
        await b.close()

    asyncio.run(asyncio.wait_for(run(), 60))
