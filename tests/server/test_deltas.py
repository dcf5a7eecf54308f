"""An event message carries what changed in the public state (`d`), or
the whole state (`s`) where nothing came before it to build on
(server/room.py, docs/protocol.md "Events"). A client that follows the
events in order from any state it was given holds, after every event,
exactly the room's public state: through whole games, rematches, seats
going away and coming back, stand-ins, leaving, and a room loaded again
from its written state and events. A client that lost track asks for the
whole state (`snap`) and follows on from it."""

import asyncio
import random

import orjson

from engine import rules as rules_mod
from server.client import Client, choose, create_room, followed, join_room
from server.hub import load_room
from server.room import Room


def shown(room):
    """The room's public state as a client reads it (through JSON)."""
    return orjson.loads(orjson.dumps(room.public()))


def messages(room):
    """The room's new event messages, read as a client reads them."""
    return [orjson.loads(text) for _, text in room.take_messages()]


class Follower:
    """A client holding the public state from the snapshot it was given on."""

    def __init__(self, room):
        self.state = shown(room)
        self.n = room.seq

    def follow(self, msgs):
        for msg in msgs:
            assert msg["n"] == self.n + 1
            self.state = followed(self.state, msg)
            self.n = msg["n"]


def play(room, rng, followers, steps, outlines):
    """`steps` things a table does, each checked for every follower; the
    public state's JSON of each event, kept to be compared later with the
    dicts public() returned then (never changed in place)."""
    seats = len(room.state["seats"])
    for _ in range(steps):
        st = room.state
        game = room.game
        roll = rng.random()
        if st["status"] == "over":
            for seat in range(seats):  # the people say yes; the game starts once enough did
                if st["status"] == "over" and st["seats"][seat]["token"]:
                    room.rematch(seat)
        elif roll < 0.04:
            room.set_away(rng.randrange(seats), True, at=1000.0)
        elif roll < 0.07:
            room.set_standin(rng.randrange(seats))
        elif roll < 0.12:
            room.set_away(rng.randrange(seats), False)
        else:
            public = room.public()
            room.act(game.current, tuple(choose(public)))
        before = room.public()
        outlines.append((before, orjson.dumps(before)))
        msgs = messages(room)
        for f in followers:
            f.follow(msgs)
            assert f.state == shown(room)


def started_room(people=3):
    room, _ = Room.create("deltaroom001", "Anna", people, ["mutig"],
                          rules_mod.preset("zehntausend"))
    for name in ("Bert", "Cleo", "Dora")[:people - 1]:
        room.join(name)
    if room.state["status"] == "lobby":
        room.start(0)
    return room


def test_following_every_event_gives_the_public_state():
    rng = random.Random(7)
    room = started_room()
    outlines = []
    first = Follower(room)
    room.take_messages()
    play(room, rng, [first], 150, outlines)
    late = Follower(room)  # a second client, starting from a later snapshot
    play(room, rng, [first, late], 600, outlines)
    assert room.state["g"] >= 2  # a rematch happened: `s` where entries came or went
    # public()'s values are never changed in place once handed out: the
    # identity shortcut of the comparison depends on it
    for before, text in outlines:
        assert orjson.dumps(before) == text


def test_most_events_are_small():
    room = started_room(people=4)
    room.take_messages()
    whole = partial = 0
    sizes = []
    for _ in range(300):
        if room.state["status"] == "over":
            break
        room.act(room.game.current, tuple(choose(room.public())))
        for _, text in room.take_messages():
            msg = orjson.loads(text)
            if "d" in msg:
                partial += 1
                sizes.append(len(text))
                assert "rules" not in msg["d"] and "commit" not in msg["d"]
            else:
                whole += 1
    assert partial > 10 * max(whole, 1)
    sizes.sort()  # within a turn the seats stay as they were: most events are a third
    assert len(orjson.dumps(room.public())) > 2.5 * sizes[len(sizes) // 2]


def test_a_loaded_room_sends_the_whole_state_first():
    rng = random.Random(11)
    room = started_room()
    f = Follower(room)
    room.take_messages()
    play(room, rng, [f], 40, [])
    saved = orjson.loads(orjson.dumps(room.state))
    for _ in range(3):
        room.act(room.game.current, tuple(choose(room.public())))
    texts = [text for _, text in room.take_messages()]
    again = load_room(saved, texts)  # a restarted server: the state and the events after it
    f.follow([orjson.loads(t) for t in texts])
    assert f.state == shown(again)
    again.act(again.game.current, tuple(choose(again.public())))
    (msg,) = messages(again)
    assert "s" in msg and "d" not in msg
    f.follow([msg])
    assert f.state == shown(again)


def test_a_snapshot_on_request(server):
    """A seat or a spectator that lost track asks with {"t": "snap"}: the
    whole state and the last event's number, and the events go on from it."""
    info = create_room(server.base, "Anna", people=2, target=2000)
    bert = join_room(server.base, info["code"], "Bert")
    code = info["code"]

    async def snap(c):
        await c.send({"t": "snap"})
        while True:
            msg = await c.recv(10)
            assert msg is not None
            if msg["t"] == "snap":
                return msg

    async def go():
        a = Client(server.base, code, info["token"])
        b = Client(server.base, code, bert["token"])
        w = Client(server.base, code, None)  # a spectator
        for c in (a, b, w):
            await c.connect()
        for _ in range(5):
            mover = a if a.my_turn() else b
            await mover.play(mover.choose())
            for c in (a, b, w):  # everyone has the event before the next move is chosen
                await c.until(lambda c, n=mover.n: c.n >= n)
        for c in (w, b):
            got = await snap(c)
            assert got["n"] == a.n and got["s"] == a.state
        mover = a if a.my_turn() else b
        await mover.play(mover.choose())
        for c in (a, b, w):
            await c.until(lambda c: c.n == mover.n)
            assert c.events[-1][0] == got["n"] + 1  # no gap, nothing twice
            assert c.state == a.state
        for c in (a, b, w):
            await c.close()

    asyncio.run(go())
