"""The room pipeline in-process (server/hub.py `_change`): an action is
played on a copy, saved, and only then the room and sent; a save that
fails or still waits shows nothing of it, uses no event number, and the
resend once the store is back is carried out as the first try would have
been."""

import asyncio
import json
import sqlite3

from engine.rules import Rules
from server.config import Settings
from server.hub import Conn, Hub
from server.room import Room
from server.store import SqliteStore


async def table(tmp_path):
    """A hub owning a started room of two, and a connection of the seat to move."""
    store = SqliteStore(tmp_path)
    room, _ = Room.create("c" * 12, "Anna", 2, [], Rules())
    room.join("Bert")  # the last free seat: the game starts
    await store.save(room.code, room.state, room.take_messages())
    hub = Hub(Settings(data=tmp_path), store)
    live = await hub._own(room.code)
    conn = Conn(None, hub.settings)  # no socket: what it sends waits in its queue
    conn.code = room.code
    conn.seat = live.room.game.current
    conn.last = live.room.seq  # caught up
    hub.conns[conn.id] = conn
    hub.local[room.code] = {conn}
    return hub, live, conn


def sent(conn):
    """The messages queued for `conn`, parsed."""
    out = []
    while not conn.queue.empty():
        out.append(json.loads(conn.queue.get_nowait()))
    return out


ROLL = {"t": "act", "a": ["roll"], "id": 3}


def test_an_action_is_saved_then_sent(tmp_path):
    async def go():
        hub, live, conn = await table(tmp_path)
        seq = live.room.seq
        await hub.message(conn, ROLL)
        got = sent(conn)
        assert [m["n"] for m in got] == [seq + 1] and got[0]["e"]["k"] == "act"
        saved = await hub.store.events(live.room.code, seq, 10)
        assert [json.loads(t)["n"] for t in saved] == [seq + 1]  # in the store as sent
        assert hub.stats["actions"] == 1 and live.room.seq == seq + 1
        await hub.store.close()

    asyncio.run(go())


def test_a_failed_save_changes_nothing_and_the_resend_works(tmp_path):
    async def go():
        hub, live, conn = await table(tmp_path)
        code = live.room.code
        before = await hub.public(code)
        seq = live.room.seq
        save = hub.store.save

        async def broken(*args, **kwargs):
            raise sqlite3.OperationalError("database is locked")

        hub.store.save = broken
        await hub.message(conn, ROLL)
        assert sent(conn) == [{"t": "no", "why": "server", "values": [], "re": 3}]
        assert await hub.public(code) == before and live.room.seq == seq
        assert await hub.store.events(code, seq, 10) == []
        hub.store.save = save  # the store is back: the same message again
        await hub.message(conn, ROLL)
        got = sent(conn)
        assert [m["n"] for m in got] == [seq + 1], got  # the number the first try did not use
        assert (await hub.public(code))["phase"] != before["phase"]
        await hub.store.close()

    asyncio.run(go())


def test_nothing_is_shown_while_the_save_waits(tmp_path):
    async def go():
        hub, live, conn = await table(tmp_path)
        code = live.room.code
        before = await hub.public(code)
        save = hub.store.save
        go_on = asyncio.Event()
        waiting = asyncio.Event()

        async def slow(*args, **kwargs):
            waiting.set()
            await go_on.wait()
            return await save(*args, **kwargs)

        hub.store.save = slow
        task = asyncio.create_task(hub.message(conn, ROLL))
        await asyncio.wait_for(waiting.wait(), 10)
        # decided, not yet saved: the room, its GET and its connections show nothing
        assert await hub.public(code) == before and sent(conn) == []
        go_on.set()
        await asyncio.wait_for(task, 10)
        assert [m["n"] for m in sent(conn)] == [live.room.seq]
        assert await hub.public(code) != before
        await hub.store.close()

    asyncio.run(go())
