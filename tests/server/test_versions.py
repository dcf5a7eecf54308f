"""The protocol's version (docs/protocol.md, "Versions"): the welcome
names it, a hello of another version is refused with `version` and
closed, and a client that asks for `full` gets the whole state in every
event: the same states as a client that builds them from `d`."""

import asyncio
import json

from websockets.asyncio.client import connect as ws_connect

from server.client import PROTOCOL, Client, create_room, join_room
from tests.server.play import play_until


def test_the_welcome_names_the_version_and_another_is_refused(server):
    info = create_room(server.base, "Anna")

    async def go():
        c = Client(server.base, info["code"], info["token"])
        welcome = await c.connect()
        assert welcome["v"] == PROTOCOL == 2
        await c.close()
        url = server.base.replace("http", "ws", 1) + "/ws/" + info["code"]
        async with ws_connect(url) as ws:
            await ws.send(json.dumps({"t": "hello", "token": info["token"], "v": 1}))
            assert json.loads(await ws.recv()) == {"t": "no", "why": "version",
                                                   "values": [PROTOCOL]}
            await ws.wait_closed()
            assert ws.close_code == 4004 and ws.close_reason == "version"

    asyncio.run(go())


def test_full_events_carry_the_whole_state(server):
    info = create_room(server.base, "Anna")
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"], full=True)
        watcher = Client(server.base, info["code"], full=True)
        for c in (a, b, watcher):
            await c.connect()
        raw = []
        receive = watcher.recv

        async def keep(timeout=30):
            msg = await receive(timeout)
            raw.append(msg)
            return msg

        watcher.recv = keep
        await play_until([a, b], lambda c: c.n >= 12)
        await watcher.until(lambda c: c.n >= a.n)
        events = [m for m in raw if m and m["t"] == "ev"]
        assert len(events) >= 8 and all("s" in m and "d" not in m for m in events)
        assert watcher.state == a.state == b.state  # built from d, and sent whole
        for c in (a, b, watcher):
            await c.close()
        # a full client reconnecting with since starts from a snapshot
        await b.reconnect()
        assert b.state == a.state and b.n == a.n
        await b.close()

    asyncio.run(go())
