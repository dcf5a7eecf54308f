"""Actions carried out as they come off the socket (server.app.quick ->
Hub.act_now), in-process: saved before sent, refused as the connection's
task refuses, left to the task whenever something could wait or come
between; and over real sockets, counted in GET /api/stats."""

import asyncio
import json
import sqlite3

from engine.rules import Rules
from server.app import quick
from server.client import create_room, http, join_room
from server.config import Settings
from server.hub import Conn, Hub
from server.room import Room
from server.store import SqliteStore
from tests.server.play import play_a_game


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
    conn.waiting = True  # its task waits for the next message
    hub.conns[conn.id] = conn
    hub.local[room.code] = {conn}
    return hub, live, conn


def sent(conn):
    """The messages queued for `conn`, parsed."""
    out = []
    while not conn.queue.empty():
        out.append(json.loads(conn.queue.get_nowait()))
    return out


def test_an_action_is_saved_then_sent(tmp_path):
    async def go():
        hub, live, conn = await table(tmp_path)
        seq = live.room.seq
        assert quick(hub, conn, '{"t":"act","a":["roll"]}')
        got = sent(conn)
        assert [m["n"] for m in got] == [seq + 1] and got[0]["e"]["k"] == "act"
        saved = await hub.store.events(live.room.code, seq, 10)
        assert [json.loads(t)["n"] for t in saved] == [seq + 1]  # in the store as sent
        assert hub.stats["actions"] == 1
        await hub.store.close()

    asyncio.run(go())


def test_a_refusal_is_the_tasks_refusal(tmp_path):
    async def go():
        hub, live, conn = await table(tmp_path)
        conn.seat = 1 - conn.seat  # not this seat's turn
        assert quick(hub, conn, '{"t":"act","a":["roll"],"id":5}')
        assert sent(conn) == [{"t": "no", "why": "not_your_turn", "values": [], "re": 5}]
        conn.seat = 1 - conn.seat
        assert quick(hub, conn, '{"t":"act","a":["fly"],"id":6}')
        assert [m["why"] for m in sent(conn)] == ["action"]
        await hub.store.close()

    asyncio.run(go())


def test_a_failed_save_is_answered_server(tmp_path):
    async def go():
        hub, live, conn = await table(tmp_path)

        def broken(*args, **kwargs):
            raise sqlite3.OperationalError("disk I/O error")

        hub.store.save_now = broken
        assert quick(hub, conn, '{"t":"act","a":["roll"],"id":3}')
        assert sent(conn) == [{"t": "no", "why": "server", "values": [], "re": 3}]
        await hub.store.close()

    asyncio.run(go())


def test_left_to_the_task_when_something_could_come_between(tmp_path):
    async def go():
        hub, live, conn = await table(tmp_path)
        act = '{"t":"act","a":["roll"]}'
        async with live.lock:  # another request of the room is half done
            assert not quick(hub, conn, act)
        conn.waiting = False  # the connection's task is busy with a message before it
        assert not quick(hub, conn, act)
        conn.waiting = True
        watcher = Conn(None, hub.settings)
        watcher.code, watcher.waiting = conn.code, True  # a spectator: the task refuses it
        assert not quick(hub, watcher, act)
        conn.tokens = 0  # the rate limit: the task refuses it
        assert not quick(hub, conn, act)
        assert sent(conn) == [] and hub.stats["actions"] == 0
        await hub.store.close()

    asyncio.run(go())


def test_a_game_over_sockets_is_played_off_the_socket(server):
    info = create_room(server.base, "Anna")
    bert = join_room(server.base, info["code"], "Bert")
    before = http(server.base, "GET", "/api/stats")

    a, _ = asyncio.run(play_a_game(server.base, info["code"], [info["token"], bert["token"]]))
    after = http(server.base, "GET", "/api/stats")
    actions, acted = after["actions"] - before["actions"], after["acted"] - before["acted"]
    assert not a.refusals and actions > 10
    # Each seat sends its next action only once it has the event before: its
    # task waits then, so nearly every action is carried out off the socket.
    assert acted >= 0.9 * actions, (acted, actions)
