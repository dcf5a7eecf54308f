"""SQLite keeps a room as its last written state plus the events after it
(server/hub.py: the state only every few events and with anything but an
action).
A server killed (kill -9) after any action of a turn comes back with the
same room: the events after the state are replayed, rolling the same
dice. Killed with an action in flight, the room is the one before or the
one after it, and the finished game passes the dice check. Replayed
actions that span turns make exactly the room that was saved, the
time each turn began included."""

import asyncio
import json
import sqlite3

import orjson

from engine import rules as rules_mod
from server import room as room_mod
from server.client import Client, choose, create_room, http, join_room
from server.hub import STATE_EVERY, load_room, state_due
from server.room import Room
from tests.server.play import over, play_until
from tools.check_dice import check

KILLS = 14  # about three turns of two players, a kill after every action
IN_FLIGHT = 4  # every 4th kill comes right after sending an action, unanswered


def comparable(public):
    """The public state without what a restart changes by design: who is
    connected (away, gone, stand-ins) and the stand-in's deadline."""
    out = dict(public)
    out.pop("standin_at", None)
    out["seats"] = [None if s is None else {k: v for k, v in s.items()
                                            if k not in ("away", "gone", "standin")}
                    for s in public["seats"]]
    return out


def written(folder, code):
    """(seq of the written state, number of the last event) in the SQLite file."""
    db = sqlite3.connect(str(folder / "rooms.sqlite3"))
    try:
        state = json.loads(db.execute("SELECT state FROM rooms WHERE code = ?",
                                      (code,)).fetchone()[0])
        last = db.execute("SELECT MAX(n) FROM events WHERE code = ?", (code,)).fetchone()[0]
        return state["seq"], last
    finally:
        db.close()


def test_kill_at_every_point_of_a_turn(server_factory, tmp_path):
    s = server_factory()
    info = create_room(s.base, "Anna", people=2, target=2000)
    bert = join_room(s.base, info["code"], "Bert")
    code = info["code"]
    clients = [Client(s.base, code, info["token"]), Client(s.base, code, bert["token"])]
    replayed = 0  # kills that left events after the written state

    async def connect():
        for c in clients:
            c.ws = None
            if c.n:
                await c.reconnect()
            else:
                await c.connect()
            await c.until(lambda c: c.state is not None and c.state["status"] == "playing"
                          or c.state is not None and c.state["seats"][1] is not None)

    async def start():
        await connect()
        await clients[0].send({"t": "start"})
        for c in clients:
            await c.until(lambda c: c.state["status"] == "playing")

    async def step(k):
        """One action of the seat to move; True when it was answered before the kill."""
        await connect()
        state = clients[0].state
        mover = clients[state["cur"]]
        if k % IN_FLIGHT == IN_FLIGHT - 1:
            await mover.act(choose(mover.state))
            return False
        n = mover.n
        await mover.play(choose(mover.state))
        assert not mover.refusals, mover.refusals
        for c in clients:
            await c.until(lambda c: c.n > n)
        return True

    async def run():
        nonlocal replayed
        await start()
        for k in range(KILLS):
            answered = await step(k)
            if answered:
                before = http(s.base, "GET", "/api/rooms/" + code)
                assert before == clients[0].state == clients[1].state
            s.kill9()
            state_seq, last = written(tmp_path, code)
            replayed += state_seq < last
            s.start()
            after = http(s.base, "GET", "/api/rooms/" + code)
            if answered:
                assert comparable(after) == comparable(before), "kill %d" % k
            await connect()
            for c in clients:  # the events after the restart lead to the same room
                assert comparable(c.state) == comparable(after), "kill %d" % k
        await play_until(clients, over, timeout=120)
        for c in clients:
            await c.close()

    asyncio.run(asyncio.wait_for(run(), 300))
    assert replayed >= KILLS // 3, replayed  # most kills left a tail to replay
    record = http(s.base, "GET", "/api/rooms/%s/games/1" % code)
    assert check(record) == []
    # every roll a seat saw before and after the kills is the record's
    seen = {n: faces for c in clients for n, faces in c.seen_rolls}
    assert all(record["rolls"][n - 1] == [n, faces] for n, faces in seen.items())


class Clock:
    """server.room's time module, standing still until moved."""

    def __init__(self, now):
        self.now = now

    def time(self):
        return self.now


def test_replay_across_turns_makes_the_same_room(monkeypatch):
    # The state is written every STATE_EVERY events, not at each turn's end:
    # the actions replayed on a load span turns, and a turn's start (the
    # stand-in's clock) comes from the event, not from the clock of the load.
    clock = Clock(1_000_000.0)
    monkeypatch.setattr(room_mod, "time", clock)
    room, _ = Room.create("replayroom01", "Anna", 2, ["mutig"], rules_mod.preset("zehntausend"))
    room.join("Bert")  # the room is full: the game starts
    room.take_messages()
    saved, base = orjson.loads(orjson.dumps(room.state)), room.seq
    for _ in range(STATE_EVERY):
        clock.now += 1.3
        room.act(room.game.current, tuple(choose(room.public())))
    texts = [text for _, text in room.take_messages()]
    assert not state_due(room, base, list(enumerate(texts)))  # appended only
    assert sum('"at":' in t for t in texts) >= 2  # turns began among them
    clock.now += 500.0  # the server comes back later
    again = load_room(saved, texts)
    assert again.seq == room.seq
    mine = dict(room.state, touched=None)
    theirs = dict(again.state, touched=None)
    assert theirs == orjson.loads(orjson.dumps(mine))
    assert again.public() == room.public()
