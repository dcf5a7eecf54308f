"""The rooms a process serves: connections, the owner's single writer per
room, computers, away seats and (with Redis) the hand-over between
processes.

One process owns a room at a time (with SQLite: this one, always; with
Redis: whoever holds the room's lease). The owner alone changes the room,
one change at a time under the room's lock, in three steps (`_change`):
decide (the request is applied to a copy of the room), save (the copy's
new numbered messages, and its state when due), tell (only then is the
copy the room, and are the messages sent: server/pipeline.py). A save
that fails leaves the room as it was: nobody saw anything of it, and no
number was used. A process that serves a connection to a room it does
not own forwards the connection's requests and its comings and goings to
the owner over Redis, and passes the owner's events on to the connection.

The hub is this class and its parts, each a file with one job and only
the pipeline changing a room: server/pipeline.py (decide, save, tell),
server/delivery.py (connections, the hello and catch-up, events to the
sockets), server/presence.py (comings and goings, away seats, stand-ins,
the clock), server/computers.py (computer seats and stand-ins playing),
server/ownership.py (owning, loading and taking rooms over), and
server/live.py (a room in memory and how a saved one is read back).
Here: starting and stopping, and routing a connection's messages.
"""

import asyncio
import logging
import os

from engine.rules import Rules
from server.computers import Computers
from server.delivery import (  # noqa: F401  (the names app.py and the tests import from here)
    CLOSE_LEFT,
    CLOSE_NO_ROOM,
    CLOSE_PROTOCOL,
    CLOSE_REPLACED,
    CLOSE_SLOW,
    CLOSE_TOKEN,
    CLOSE_TRY_LATER,
    PROTOCOL,
    QUEUE_MAX,
    SNAP_COST,
    Conn,
    Delivery,
    frames_offer,
)
from server.limits import Lru, Window
from server.live import STATE_EVERY, Live, load_room, snap_message, state_due  # noqa: F401
from server.names import new_code
from server.ownership import Ownership
from server.pipeline import Pipeline
from server.presence import Presence
from server.room import Refused

log = logging.getLogger("server")


class Hub(Pipeline, Delivery, Presence, Computers, Ownership):
    """Every room of this process (see the module docstring), in parts,
    each a file with one job: the pipeline that alone changes a room
    (server/pipeline.py), delivery and catch-up (server/delivery.py),
    presence and the clock (server/presence.py), the computers
    (server/computers.py), ownership and take-over (server/ownership.py)."""

    def __init__(self, settings, store, bus=None):
        self.settings = settings
        self.store = store
        self.bus = bus  # server.bus.RedisBus, or None for one process
        self.proc = "%s-%d-%s" % (os.uname().nodename, os.getpid(), new_code()[:6])
        self.live = {}  # code -> Live (rooms owned here)
        # code -> the task loading it (_own): requests, presence and the
        # clock that want the same room at once wait for one load, so a
        # process never holds two copies of a room (two events numbered n).
        self.loading = {}
        # The owned rooms with a clock running (a person's seat without a
        # connection: away, stand-in; nobody there: unload): the only ones
        # the ticker visits. A room joins on any coming or going and leaves
        # once every person's seat is connected (`_clock_runs`).
        self.timed = set()
        self.local = {}  # code -> set of Conn (connections served here)
        self.conns = {}  # conn id -> Conn
        # Bounded: strangers choose the rules, so each table drops the
        # least recently used entry when full (a plan is solved again).
        self.plans = Lru(settings.plans_kept)  # rules fingerprint -> TurnPlan
        self.bots = Lru(4 * settings.plans_kept)  # (level, fingerprint) -> bot
        self.created = Window(settings.room_limit, settings.room_window)  # rooms per address
        self.tasks = []
        self.fills = set()  # running Hub._fill_gap tasks
        self.store_down = None  # monotonic time the Redis store began to fail, or None
        # Where the time goes (GET /api/stats, read by tools/serve_bench.py):
        # seconds in the engine and the room's messages, in the store, and
        # handing the messages to the connections (or to Redis).
        self.stats = {"actions": 0, "apply": 0.0, "store": 0.0, "send": 0.0}

    async def start(self):
        """Start the clock (and the Redis listener)."""
        if self.bus is not None:
            await self.store.alive(self.proc)
            await self.bus.start(self)
        self.tasks.append(asyncio.create_task(self._ticker()))

    async def stop(self):
        """Stop the clock and release the rooms."""
        for t in self.tasks:
            t.cancel()
        try:
            for live in list(self.live.values()):
                if live.bot_task is not None:
                    live.bot_task.cancel()
                await self.store.release(live.room.code, self.proc)
            if self.bus is not None:
                await self.bus.stop()
            await self.store.close()
        except Exception:  # Redis gone first: its leases expire by themselves
            log.warning("stopping: the store was not reachable")

    async def message(self, conn, msg):
        """A message after the hello (a dict): act, start, rematch, leave,
        ping, beat, snap."""
        t = msg.get("t")
        if t == "ping" or t == "beat":
            self.heartbeat(conn, t)
            return
        if t == "snap":
            if not conn.take(SNAP_COST - 1):
                conn.refuse("slow", ref=msg.get("id"))
                return
            await self.snapshot(conn)
            return
        if t not in ("act", "start", "rematch", "leave"):
            conn.refuse("message", ref=msg.get("id"))
            return
        if conn.seat < 0:
            conn.refuse("spectator", ref=msg.get("id"))
            return
        live = self.live.get(conn.code)
        if live is None and self.bus is not None:
            owner, alive = await self.store.owner_alive(conn.code)
            if owner and owner != self.proc:
                if not alive and owner in await self.bus.listening([owner]):
                    # frozen (it listens but has not said it lives for ALIVE_MS):
                    # "retry" now rather than a request it may never answer
                    conn.refuse("retry", ref=msg.get("id"))
                    return
                sent = await self.bus.to_proc(owner, {
                    "op": "msg", "code": conn.code, "seat": conn.seat, "m": msg,
                    "proc": self.proc, "conn": conn.id})
                if sent:
                    return
                # Nobody listens for the owner: it died. Take the room now.
                try:
                    await self._own(conn.code, dead=owner)
                except Refused as e:
                    conn.refuse(e.key, e.values, ref=msg.get("id"))
                    return
        await self.request(conn.code, conn.seat, msg, self.proc, conn.id)

    def rules_of(self, code):
        """The Rules of an owned room (for tests and tools)."""
        return Rules.decode(self.live[code].room.state["rules"])
