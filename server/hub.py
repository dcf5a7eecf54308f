"""The rooms a process serves: connections, the owner's single writer per
room, computers, away seats and (with Redis) the hand-over between
processes.

One process owns a room at a time (with SQLite: this one, always; with
Redis: whoever holds the room's lease). The owner alone changes the room,
one change at a time under the room's lock, in three steps (`_change`):
decide (the request is applied to a copy of the room), save (the copy's
new numbered messages, and its state when due), tell (only then is the
copy the room, and are the messages sent). A save that fails leaves the
room as it was: nobody saw anything of it, and no number was used. A process that serves a
connection to a room it does not own forwards the connection's requests
and its comings and goings to the owner over Redis, and passes the
owner's events on to the connection.
"""

import asyncio
import logging
import os
import time

import orjson

from engine.bots import make_bot
from engine.levels import PLAN, TABLES, needs
from engine.plan_solver import solve_plan
from engine.rules import Rules
from engine.turnplan import TurnPlan
from engine.view import View
from server.limits import Lru, Window
from server.liveness import CLOSE_SILENT, silent, wall
from server.names import code_tag, new_code
from server.room import Refused, Room, check_token, compact, parse_action, parse_rules
from server.store import STORE_ERRORS, StoreUnsure
from server.wsfast import EXTENSION, text_frame

log = logging.getLogger("server")

CLOSE_LEFT = 4000  # the person left the game for good
CLOSE_TOKEN = 4001  # the seat token is not one of this room's
CLOSE_REPLACED = 4002  # the same seat connected from another tab or device
CLOSE_NO_ROOM = 4003  # the room does not exist (any more)
CLOSE_PROTOCOL = 4004  # no hello in time, or not a hello first
CLOSE_SLOW = 4008  # far too many messages, or a reader too slow to keep up
CLOSE_TRY_LATER = 1013  # the store fails: reconnect later (reason "store")
QUEUE_MAX = 512  # messages waiting for one connection before it is dropped
# What a snapshot costs a connection's budget, in messages: the whole state
# is some 30 times the work of a ping, so a flood of snapshots within the
# rate limit would cost the server 30 times a flood of pings. At the
# default --rate a connection gets one a second (a client that lost track
# needs one).
SNAP_COST = 10
# The room's whole state is written with its events at least every this
# many events, and whenever an event is not an action; in between only the
# events are appended (load_room replays them).
STATE_EVERY = 16
ACT = '"e":{"k":"act"'  # in the first 48 characters of an action's event message
# The protocol's version (docs/protocol.md, "Versions"): in the welcome; a
# hello or watch that names another one is refused ("version") and closed.
PROTOCOL = 2


def state_due(room, saved, messages):
    """True when the room's whole state must be written with `messages`
    (its new event messages; the state was last written at event `saved`):
    STATE_EVERY events since, or an event other than an action (a seat
    joined or went away, a game began or ended ...), which a replay could
    not make again."""
    if room.seq - saved > STATE_EVERY:
        return True
    return not all(text.find(ACT, 0, 48) >= 0 for _, text in messages)


def snap_message(room):
    """The snapshot message of `room`: its whole public state and the
    number of its last event."""
    return compact({"t": "snap", "n": room.seq, "s": room.public()})


def load_room(state, texts):
    """The Room of a written `state` and the event messages saved after it
    (texts, in order): each is an action (Hub._keep wrote the state for
    anything else), carried out again, a turn it began stamped with the
    time it began then (`at`). The dice of a roll depend only on the
    room's secret and the roll's number: the replay rolls what was
    rolled."""
    room = Room(state)
    for text in texts:
        msg = orjson.loads(text)
        e = msg["e"]
        if e.get("k") != "act" or msg["n"] != room.seq + 1:
            log.error("room %s: event %d cannot be replayed", code_tag(room.code), msg["n"])
            break
        room.act(e["seat"], parse_action(e["a"]), e["by"], e.get("at"))
    room.take_messages()
    room.rebase()
    return room


def frames_offer(ws, name):
    """What server.wsfast.FramesProtocol offers under `name` ("write",
    "receive", "listen") in WebSocket `ws`'s scope, or None (another
    protocol, debugging, or no socket)."""
    extensions = (getattr(ws, "scope", None) or {}).get("extensions") or {}
    return (extensions.get(EXTENSION) or {}).get(name)


class Conn:
    """One WebSocket: its room, its seat (-1: spectator), a send queue and
    a token bucket for the rate limit. A frame goes straight to the socket
    (server/wsfast.py) while nothing waits in the queue before it."""

    counter = 0
    written = 0  # messages written straight to a socket (GET /api/stats)
    # pings answered and beats taken as they came off the socket (app.quick; GET /api/stats)
    quick = 0
    beats = 0  # heartbeats that wanted no answer (server/liveness.py; GET /api/stats)

    def __init__(self, ws, settings):
        Conn.counter += 1
        self.id = Conn.counter
        self.ws = ws
        self.code = ""
        self.seat = -1
        self.last = 0  # number of the last event sent
        self.catching_up = False
        self.held = []  # events that came while catching up
        self.queue = asyncio.Queue()
        # server.wsfast.FramesProtocol's write (None under another protocol)
        self.write = frames_offer(ws, "write")
        self.sending = False  # the writer took a text from the queue and has not sent it yet
        self.closed = False
        self.close_code = 1000
        self.close_reason = ""  # a reason code sent with the close (e.g. "lost")
        self.rate = settings.rate
        self.burst = settings.burst
        self.tokens = settings.burst
        self.stamp = time.monotonic()
        self.heard = self.stamp  # when the last message came (server/liveness.py)
        self.refused = 0
        self.waiting = False  # app.py's task waits for the next message (app.quick)
        # Whole states in every event (the hello's "full"): the public state
        # after the last event sent, which each event's `d` is applied to.
        self.full = False
        self.state = None

    def allow(self):
        """Take one message from the bucket; False when it is empty. Every
        message after the hello comes here: it shows the line is alive."""
        now = time.monotonic()
        self.heard = now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def whole(self, text):
        """Event message `text` as this connection takes it: with the whole
        state (`s`) instead of what changed (`d`) when it asked for `full`."""
        if not self.full:
            return text
        msg = orjson.loads(text)
        if "s" in msg:
            self.state = msg["s"]
            return text
        self.state = dict(self.state or {}, **msg.pop("d"))
        msg["s"] = self.state
        return compact(msg)

    def snap(self, room, text=None):
        """Send `room`'s snapshot (`text`: its message, made already) and
        keep its state for `whole`."""
        self.send(text or snap_message(room))
        if self.full:
            self.state = room.public()

    def take(self, n):
        """Take `n` more messages' worth from the bucket (a costly
        request, SNAP_COST); False, taking nothing, when it has not that many."""
        if self.tokens < n:
            return False
        self.tokens -= n
        return True

    def send(self, text, frame=None):
        """Send a text message (`frame`: its text_frame, when made already):
        written at once when nothing waits before it, else queued for the
        writer; a reader that fell far behind is dropped."""
        if self.closed:
            return
        if (self.write is not None and not self.sending and self.queue.empty()
                and self.write(frame if frame is not None else text_frame(text.encode()))):
            Conn.written += 1
            return
        if self.queue.qsize() >= QUEUE_MAX:
            self.close(CLOSE_SLOW)
            return
        self.queue.put_nowait(text)

    def event(self, n, text, frame=None):
        """Send event message `n` (`frame`: see send) unless it was sent already."""
        if self.catching_up:
            self.held.append((n, text))
        elif n > self.last:
            self.last = n
            if self.full:
                self.send(self.whole(text))
            else:
                self.send(text, frame)

    def caught_up(self):
        """Stop holding events (`catching_up`) and send those held, each
        unless it was sent already."""
        self.catching_up = False
        held, self.held = self.held, []
        for n, text in held:
            self.event(n, text)

    def refuse(self, key, values=(), ref=None):
        """Queue a refusal with its reason code."""
        msg = {"t": "no", "why": key, "values": list(values)}
        if ref is not None:
            msg["re"] = ref
        self.send(compact(msg))

    def close(self, code, reason=""):
        """Close after what is queued (the writer does it)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            self.close_reason = reason
            self.queue.put_nowait(None)


class Live:
    """A room this process owns: the room, its lock, who is connected to
    each seat (process, connection id), and the clocks of away seats."""

    def __init__(self, room, now, settings):
        self.room = room
        room.wait = settings.standin_after  # the stand-in's deadline in the state
        self.lock = asyncio.Lock()
        self.present = {}  # seat -> (proc, conn id)
        self.gone = {i: now for i in range(len(room.state["seats"]))}
        self.watchers = 0
        self.bot_task = None
        self.idle_since = now
        self.saved = -1  # the seq of the state last written (-1: none yet)
        self.snap = (None, "")  # (room, its snapshot message): made once per change

    def snap_text(self):
        """The snapshot message of the room as it is (made once per change)."""
        room, text = self.snap
        if room is not self.room:
            text = snap_message(self.room)
            self.snap = (self.room, text)
        return text


class Hub:
    """Every room of this process (see the module docstring)."""

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

    # ------------------------------------------------------------ life

    async def start(self):
        """Start the clock (and the Redis listener)."""
        if self.bus is not None:
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

    # ------------------------------------------------------------ rooms

    async def create(self, address, body):
        """A new room from a create request (a dict): its code, seat 0, token."""
        if self.created.full(address):
            raise Refused("too_many_rooms")  # its text takes no values
        rules = parse_rules(body.get("preset"), body.get("rules"), body.get("target"))
        computers = body.get("computers", [])
        room, token = Room.create(new_code(), body.get("name"), body.get("people", 2),
                                  computers, rules)
        # Counted before anything is awaited: requests sent at once would
        # otherwise all pass the check above while the first plan is solved.
        self.created.add(address)
        for kind in set(computers):
            if needs(kind, PLAN):
                await self._plan(rules)  # solved now, not in the first computer's turn
        code = room.code
        if not await self.store.acquire(code, self.proc):
            raise Refused("retry")
        live = Live(room, time.monotonic(), self.settings)
        await self._keep(live, room, room.take_messages())  # saved before it exists here
        self.live[code] = live
        self.timed.add(code)
        return {"code": code, "seat": 0, "token": token}

    async def join(self, code, body):
        """A person joins room `code`: seat and token (asked of the room's
        owner when that is another process)."""
        if code not in self.live and self.bus is not None:
            owner = await self.store.owner(code)
            if owner and owner != self.proc:
                return await self.bus.call(owner, {"op": "join", "code": code, "body": body})
        live = await self._own(code)
        async with live.lock:
            seat, token = await self._change(live, lambda room: room.join(body.get("name")))
            live.gone[seat] = time.monotonic()
            self.timed.add(code)
            self._resize(live)
        return {"code": code, "seat": seat, "token": token}

    async def public(self, code):
        """The public state of room `code` (any process can read it)."""
        live = self.live.get(code)
        if live is not None:
            return live.room.public()
        room, _ = await self._read(code)
        if room is None:
            raise Refused("no_room")
        return room.public()

    async def _read(self, code):
        """(Room, the seq of its written state) of room `code` from the
        store, the events after the state replayed; (None, -1) when none."""
        state = await self.store.get(code)
        if state is None:
            return None, -1
        texts = []
        if self.store.partial:
            texts = await self.store.events(code, state["seq"], 1 << 30)
        return load_room(state, texts), state["seq"]

    async def record(self, code, g):
        """The dice record of finished game `g` of room `code`."""
        live = self.live.get(code)
        room = live.room if live is not None else None
        if room is None:
            room, _ = await self._read(code)
            if room is None:
                raise Refused("no_room")
        return room.record(g)

    async def _own(self, code, dead=""):
        """The Live of room `code`, loading it (and taking its lease) when
        no process owns it, or when `dead` does: a process found gone
        (nobody listens for it, server/bus.py); Refused("no_room") or
        Refused("retry"). One load a room at a time (`loading`)."""
        live = self.live.get(code)
        if live is not None:
            return live
        task = self.loading.get(code)
        if task is None:
            task = asyncio.ensure_future(self._load(code, dead))
            self.loading[code] = task
            task.add_done_callback(lambda t: self.loading.pop(code, None)
                                   if self.loading.get(code) is t else None)
        return await asyncio.shield(task)

    async def _load(self, code, dead):
        """Take room `code`'s lease and load it (see _own)."""
        if not await self.store.acquire(code, self.proc):
            if not dead or not await self.store.replace(code, self.proc, dead):
                raise Refused("retry")
            log.info("room %s: its owner is gone, taken at once", code_tag(code))
        live = self.live.get(code)
        if live is not None:
            return live
        room, saved = await self._read(code)
        if room is None:
            await self.store.release(code, self.proc)
            raise Refused("no_room")
        live = Live(room, time.monotonic(), self.settings)
        live.saved = saved
        self.live[code] = live
        self.timed.add(code)
        log.info("room %s: owned here from event %d on", code_tag(code), live.room.seq)
        if self.bus is not None:
            await self.bus.ask_presence(code)
            # The last owner may have died after saving its last events and
            # before publishing them: publish the last one again, so that
            # every process's connections fill what they missed (deliver).
            seq = live.room.seq
            if seq:
                last = await self.store.events(code, seq - 1, 1)
                if last:
                    await self.bus.publish_events(code, [(seq, last[0])])
        self._kick_bots(live)
        return live

    def _resize(self, live):
        for i in range(len(live.room.state["seats"])):
            live.gone.setdefault(i, time.monotonic())

    async def _change(self, live, change):
        """Decide, save, tell (the caller holds `live.lock`): `change(room)`
        is done on a copy of the room (Refused: nothing happened); the
        events it made are saved (`_keep`); only then is the copy the room
        and are they sent. A save that fails raises its error and leaves
        the room as it was: no event number used, nothing shown. What
        `change` returns."""
        work = live.room.copy()
        result = change(work)
        messages = work.take_messages()
        if messages:
            await self._keep(live, work, messages)
        else:  # nothing to save or tell
            live.room = work
        return result

    async def _keep(self, live, work, messages):
        """Save `messages` (made by `work`, the room to be) and then make
        `work` the room and send them. A process that lost the lease
        stops owning the room (Refused("retry")). When Redis failed after
        the save was sent (StoreUnsure), what was saved is read back: the
        save stands when it is there, fails when not; when even that
        cannot be read, the room leaves memory (it is read again from
        the store at the next request) and StoreUnsure goes on: the
        caller's connection is told to reconnect (1013 "store"), never
        that nothing happened. The state goes with the events only when
        `state_due` (else they are appended: load_room replays them)."""
        code = work.code
        began = time.perf_counter()
        full = state_due(work, live.saved, messages)
        try:
            ok = await self.store.save(code, work.state, messages, self.proc, full)
        except StoreUnsure as e:
            ok = await self._saved_after_all(live, code, messages, e)
        if not ok:
            log.warning("room %s: lease lost, another process owns it now", code_tag(code))
            self._drop(code)
            raise Refused("retry")
        if full:
            live.saved = work.seq
        live.room = work
        saved = time.perf_counter()
        self.stats["store"] += saved - began
        live.idle_since = time.monotonic()
        self.deliver(code, messages)
        if self.bus is not None:
            try:
                await self.bus.publish_events(code, messages)
            except STORE_ERRORS as e:  # saved all the same: other processes catch up (resync)
                log.warning("room %s: events saved, not published (%s)", code_tag(code),
                            type(e).__name__)
        self.stats["send"] += time.perf_counter() - saved
        self._kick_bots(live)

    async def _saved_after_all(self, live, code, messages, unsure):
        """Whether a save whose outcome was unknown happened (see _keep)."""
        try:
            last = await self.store.saved_up_to(code)
        except STORE_ERRORS:
            last = -1
        if last >= messages[-1][0]:
            log.warning("room %s: the store failed after saving event %d", code_tag(code),
                        messages[-1][0])
            return True
        if last == messages[0][0] - 1:  # not saved, and never will be (the save's deadline)
            raise unsure.__cause__ or unsure
        log.warning("room %s: not known what the store holds: read again at the next request",
                    code_tag(code))
        self._drop(code)
        raise unsure

    def deliver(self, code, messages):
        """Pass saved event messages to this process's connections of the room.
        A connection they would reach with a gap (an owner died between saving
        events and publishing them) first gets the missing ones from the store.
        Each message becomes one WebSocket frame, written to every seat."""
        conns = self.local.get(code)
        if not conns:
            return
        framed = [(n, text, text_frame(text.encode())) for n, text in messages]
        for conn in conns:
            if messages and not conn.catching_up and messages[0][0] > conn.last + 1:
                conn.catching_up = True
                conn.held.extend(messages)
                self._spawn(self._fill_gap(conn))
                continue
            for n, text, frame in framed:
                conn.event(n, text, frame)

    async def _fill_gap(self, conn):
        """Send `conn` the saved events between its last one and the first
        held one, then what was held (see deliver)."""
        try:
            missing = conn.held[0][0] - 1 - conn.last
            if missing <= self.settings.catchup:
                for text in await self.store.events(conn.code, conn.last, missing):
                    conn.last += 1
                    conn.send(conn.whole(text))
            else:  # too far behind to resend: the page starts from a snapshot
                conn.close(CLOSE_SLOW)
        except Exception:
            log.warning("room %s: missed events not readable", code_tag(conn.code),
                        exc_info=True)
            conn.close(CLOSE_SLOW)
        finally:
            conn.caught_up()

    def _spawn(self, coro):
        """Run `coro` as a task kept until it ends (`fills`)."""
        task = asyncio.create_task(coro)
        self.fills.add(task)  # a reference, so the task is not collected
        task.add_done_callback(self.fills.discard)

    async def resync(self):
        """After Redis was away: every connection here gets the saved
        events it missed meanwhile (published while the bus was not
        listening), from the store."""
        for code, conns in list(self.local.items()):
            for conn in list(conns):
                if conn.catching_up or conn.closed:
                    continue
                conn.catching_up = True
                try:
                    texts = await self.store.events(code, conn.last, self.settings.catchup + 1)
                    if len(texts) > self.settings.catchup:
                        conn.close(CLOSE_SLOW)  # too far behind: the page starts from a snapshot
                        continue
                    for text in texts:
                        conn.last += 1
                        conn.send(conn.whole(text))
                except STORE_ERRORS:
                    log.warning("room %s: missed events not readable", code_tag(code))
                finally:
                    conn.caught_up()

    def _drop(self, code):
        live = self.live.pop(code, None)
        if live is not None and live.bot_task is not None:
            live.bot_task.cancel()

    # ------------------------------------------------------------ connections

    async def attach(self, conn, hello):
        """The first message of a connection: a seat's hello with its token,
        or a spectator's watch. Sends the welcome and the catch-up;
        returns a close code when the connection must end instead.

        The connection is registered before the room is read: an event
        saved later is held for it, one saved earlier is in what is read
        (events are saved before they are published), so none falls in
        between."""
        code = conn.code
        conn.catching_up = True
        self.local.setdefault(code, set()).add(conn)
        self.conns[conn.id] = conn
        try:
            rc = await self._welcome(conn, hello)
        except BaseException:  # the store failed: not left registered for ever
            self._unregister(conn)
            raise
        if rc:
            self._unregister(conn)
            return rc
        conn.caught_up()
        await self.presence(code, conn.seat, self.proc, conn.id, True)
        return 0

    async def _welcome(self, conn, hello):
        code = conn.code
        live = self.live.get(code)
        if live is None and self.bus is None:
            try:
                live = await self._own(code)
            except Refused:
                return CLOSE_NO_ROOM
        if live is None:
            room, _ = await self._read(code)
            if room is None:
                return CLOSE_NO_ROOM
            return await self._catch_up(conn, hello, room)
        async with live.lock:  # no event half made (counted, not yet saved) meanwhile
            return await self._catch_up(conn, hello, live.room)

    async def _catch_up(self, conn, hello, room):
        code = conn.code
        if hello.get("t") == "hello":
            try:
                conn.seat = check_token(room, hello.get("token"))
            except Refused:
                return CLOSE_TOKEN
        since = hello.get("since")
        # (a connection that wants whole states starts from a snapshot)
        since = since if type(since) is int and 0 <= since and not conn.full else -1
        seq = room.seq
        conn.send(compact({"t": "welcome", "v": PROTOCOL, "room": code, "seat": conn.seat,
                           "n": seq, "now": round(time.time(), 1)}))
        if 0 <= since <= seq and seq - since <= self.settings.catchup:
            missed = await self.store.events(code, since, seq - since)
            for text in missed:
                conn.send(text)
            conn.last = since + len(missed)
        else:
            conn.snap(room)
            conn.last = seq
        return 0

    def _unregister(self, conn):
        """Forget connection `conn` (attach registered it)."""
        self.conns.pop(conn.id, None)
        conns = self.local.get(conn.code)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.local[conn.code]

    async def detach(self, conn):
        """A connection ended."""
        self._unregister(conn)
        if conn.code:
            try:
                await self.presence(conn.code, conn.seat, self.proc, conn.id, False)
            except Exception:  # the owner may be gone: its successor asks anew
                log.debug("presence lost for %s", code_tag(conn.code), exc_info=True)

    async def presence(self, code, seat, proc, conn_id, up, went=None):
        """A seat's connection came or went (on the owner, or sent to it).
        `went`: when a connection found silent last said something (the
        wall clock, epoch seconds, so that it can cross to the owner's
        process): the seat went then, not now."""
        live = self.live.get(code)
        if live is None:
            if self.bus is not None:
                msg = {"op": "up" if up else "down", "code": code, "seat": seat, "proc": proc,
                       "conn": conn_id}
                if went is not None:
                    msg["went"] = went
                await self.bus.to_owner(code, msg)
            return
        self.timed.add(code)
        if seat < 0:
            live.watchers += 1 if up else -1
            return
        async with live.lock:
            now = time.monotonic()
            old = live.present.get(seat)
            if up:
                if old is not None and old != (proc, conn_id):
                    await self.kick(old[0], old[1], CLOSE_REPLACED)
                live.present[seat] = (proc, conn_id)
                try:
                    await self._change(live, lambda room: room.set_away(seat, False))
                except STORE_ERRORS as e:  # still shown away: the clock tries again
                    log.warning("room %s: the store failed (%s): seat %d back later",
                                code_tag(code), type(e).__name__, seat)
                    self.timed.add(code)
                except Refused:  # the lease was lost meanwhile: the room's new owner says it
                    return
                self._kick_bots(live)
            elif old == (proc, conn_id):
                del live.present[seat]
                live.gone[seat] = now if went is None else now - max(0.0, time.time() - went)

    async def kick(self, proc, conn_id, code, reason=""):
        """Close connection `conn_id` of process `proc` with `code` (and `reason`)."""
        if proc == self.proc:
            conn = self.conns.get(conn_id)
            if conn is not None:
                conn.close(code, reason)
        elif self.bus is not None:
            msg = {"op": "kick", "conn": conn_id, "code": code}
            if reason:
                msg["reason"] = reason
            await self.bus.to_proc(proc, msg)

    @staticmethod
    def heartbeat(conn, t):
        """Answer a ping (`t`) with a pong; a beat wants no answer and is
        only counted (server/liveness.py). Also straight from the socket:
        app.quick."""
        if t == "ping":
            conn.send(compact({"t": "pong", "now": round(time.time(), 1)}))
        else:
            Conn.beats += 1

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
            owner = await self.store.owner(conn.code)
            if owner and owner != self.proc:
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

    async def snapshot(self, conn):
        """The room's whole public state to `conn` on its request (a client
        that lost track of the events: `d` builds on the state before).
        As at the hello (attach): events published meanwhile are held and
        sent after it when newer, so the events go on from its `n`."""
        conn.catching_up = True
        try:
            live = self.live.get(conn.code)
            if live is not None:
                room = live.room  # (the room as saved and sent: a change is made on a copy)
                conn.snap(room, live.snap_text())
            else:  # another process owns the room (Redis): what it saved
                room, _ = await self._read(conn.code)
                if room is None:
                    raise Refused("no_room")
                conn.snap(room)
            conn.last = max(conn.last, room.seq)
        finally:
            conn.caught_up()

    def _act(self, room, seat, msg):
        """Seat `seat` carries out the action of `msg` in `room` (Refused
        when it may not), counted in `stats`."""
        began = time.perf_counter()
        room.act(seat, parse_action(msg.get("a")))
        self.stats["actions"] += 1
        self.stats["apply"] += time.perf_counter() - began

    async def request(self, code, seat, msg, proc, conn_id):
        """Carry out a seat's request on the owner; a refusal goes back to
        the connection that sent it: `server` when the store failed (the
        room is as it was), and a close with 1013 "store" when it is not
        known whether the store kept it (see _keep)."""
        try:
            live = await self._own(code)
            t = msg.get("t")
            async with live.lock:
                if t == "act":
                    await self._change(live, lambda room: self._act(room, seat, msg))
                elif t == "start":
                    await self._change(live, lambda room: room.start(seat))
                elif t == "rematch":
                    g = live.room.state["g"]
                    await self._change(live, lambda room: room.rematch(seat))
                    if live.room.state["g"] != g:  # everybody agreed: a new game's clocks
                        now = time.monotonic()
                        live.gone = {i: now for i in range(len(live.room.state["seats"]))}
                        self.timed.add(code)
                else:
                    await self._change(live, lambda room: room.leave(seat))
            if t == "leave":
                await self.kick(proc, conn_id, CLOSE_LEFT)
        except Refused as e:
            await self._refuse(proc, conn_id, msg, e.key, e.values)
            if e.key == "no_room":  # gone under a connected seat: say so, not every action
                await self.kick(proc, conn_id, CLOSE_NO_ROOM)
        except StoreUnsure:
            await self.kick(proc, conn_id, CLOSE_TRY_LATER, "store")
        except STORE_ERRORS as e:
            log.warning("room %s: the store failed (%s): refused, nothing changed",
                        code_tag(code), type(e).__name__)
            await self._refuse(proc, conn_id, msg, "server", [])

    async def _refuse(self, proc, conn_id, msg, key, values):
        """Refuse message `msg` of connection `conn_id` of process `proc`."""
        reply = {"t": "no", "why": key, "values": values}
        if msg.get("id") is not None:
            reply["re"] = msg.get("id")
        try:
            await self.reply(proc, conn_id, compact(reply))
        except STORE_ERRORS:  # Redis down: the other process's connection hears nothing
            log.warning("a refusal for process %s was lost: Redis failed", proc)

    async def reply(self, proc, conn_id, text):
        """Send `text` to one connection, here or on another process."""
        if proc == self.proc:
            conn = self.conns.get(conn_id)
            if conn is not None:
                conn.send(text)
        elif self.bus is not None:
            await self.bus.to_proc(proc, {"op": "reply", "conn": conn_id, "text": text})

    # ------------------------------------------------------------ computers

    def _kick_bots(self, live):
        """Start the room's computer task when a computer or a stand-in is
        to move and a person is there to watch it."""
        if live.room.to_move() is None or not self._people_here(live):
            return
        if live.bot_task is None or live.bot_task.done():
            live.bot_task = asyncio.create_task(self._bots(live))

    def _people_here(self, live):
        seats = live.room.state["seats"]
        return any(not seats[i]["kind"] for i in live.present if i < len(seats))

    async def _bots(self, live):
        """Play the computers' and stand-ins' actions at the device's pace
        (a save that fails is tried again at the next pace)."""
        try:
            while True:
                await asyncio.sleep(self.settings.bot_pace)
                if self.live.get(live.room.code) is not live:
                    return
                try:
                    async with live.lock:
                        room = live.room
                        who = room.to_move()
                        if who is None or not self._people_here(live):
                            return
                        seat, by = who
                        game = room.game
                        assert game is not None
                        kind = room.state["seats"][seat]["kind"] or self.settings.standin_level
                        bot = await self._bot(kind, game.rules)
                        action = bot.decide(View(game))
                        live.bot_task = None  # _change may start the next one; this one ends
                        await self._change(
                            live, lambda room, s=seat, a=action, b=by: room.act(s, a, b))
                        return
                except StoreUnsure:
                    return  # the room left memory (_keep)
                except STORE_ERRORS as e:  # nothing played: again at the next pace
                    live.bot_task = asyncio.current_task()
                    log.warning("room %s: the store failed (%s): the computer waits",
                                code_tag(live.room.code), type(e).__name__)
        except Refused:
            return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer failed in room %s", code_tag(live.room.code))

    async def _plan(self, rules):
        fp = rules.plan_rules().fingerprint()  # one plan for every target of a scoring
        plan = self.plans.get(fp)
        if plan is None:
            path = self.settings.tables / ("plan-%s.bin" % fp)
            if path.exists():
                with path.open("rb") as f:
                    plan = TurnPlan.from_file(f, rules)
            else:
                plan = await asyncio.to_thread(solve_plan, rules)
            self.plans[fp] = plan
        return plan

    async def _bot(self, kind, rules):
        key = (kind, rules.fingerprint())
        bot = self.bots.get(key)
        if bot is None:
            plan = await self._plan(rules) if needs(kind, PLAN) else None
            tables = str(self.settings.tables) if needs(kind, TABLES) else None
            bot = make_bot(kind, rules, plan, tables)
            self.bots[key] = bot
        return bot

    # ------------------------------------------------------------ clock

    async def _ticker(self):
        """Away seats, stand-ins, idle rooms, leases and take-overs."""
        last_renew = 0.0
        last_expire = 0.0
        last_checkpoint = 0.0
        last_store_warning = -10.0
        while True:
            await asyncio.sleep(0.25)
            try:
                now = time.monotonic()
                await self._silence(now)
                for code in list(self.timed):
                    live = self.live.get(code)
                    if live is not None:
                        try:
                            await self._tick(live, now)
                        except Refused:  # the lease was lost meanwhile (_keep dropped the room)
                            pass
                    if live is None or self.live.get(code) is not live \
                            or not self._clock_runs(live):
                        self.timed.discard(code)
                if self.bus is not None and now - last_renew >= self.settings.lease / 4:
                    last_renew = now
                    for code in await self.store.renew(list(self.live), self.proc):
                        log.warning("room %s: lease lost, another process owns it",
                                    code_tag(code))
                        self._drop(code)
                    if await self.bus.forgot():
                        await self._forgotten()
                    if self.store_down is not None:  # back after a failure
                        self._spawn(self.resync())
                    self.store_down = None  # it answered
                    await self._take_over()
                checkpoint = getattr(self.store, "checkpoint", None)
                if checkpoint is not None and now - last_checkpoint >= 2:
                    last_checkpoint = now
                    left = await asyncio.to_thread(checkpoint)
                    await self.store.settle(left)
                if now - last_expire >= 60:
                    last_expire = now
                    self.created.prune()
                    for code in await self.store.expire(time.time() - self.settings.idle_expire):
                        self._drop(code)
                        for conn in list(self.local.get(code, ())):
                            conn.close(CLOSE_NO_ROOM)  # the room is closed
            except asyncio.CancelledError:
                raise
            except STORE_ERRORS as e:  # down for now: tried again next tick
                if now - last_store_warning >= 10:
                    last_store_warning = now
                    log.warning("clock: the store failed (%s)", type(e).__name__)
                if self.bus is not None:
                    self._store_failing(now)
            except Exception:
                log.exception("ticker")

    async def _silence(self, now):
        """Close the seat connections that stopped talking and count their
        seats gone from their last message (server/liveness.py)."""
        for conn in silent(list(self.conns.values()), now):
            log.info("room %s: seat %d silent for %.1f s: gone", code_tag(conn.code), conn.seat,
                     now - conn.heard)
            conn.close(CLOSE_SILENT)  # a frozen peer may never read it: the seat goes anyway
            try:
                await self.presence(conn.code, conn.seat, self.proc, conn.id, False,
                                    wall(conn.heard, now))
            except Exception:  # the owner may be gone: its successor asks anew
                log.debug("presence lost for %s", code_tag(conn.code), exc_info=True)

    async def _tick(self, live, now):
        async with live.lock:
            if self._clock_due(live, now):
                await self._change(live, lambda room: self._presence_clock(live, room, now))
            self._kick_bots(live)  # (again, after a failed save)
        room = live.room
        if (not live.present and not live.watchers and room.code not in self.local
                and now - live.idle_since >= self.settings.unload_after):
            self._drop(room.code)
            await self.store.release(room.code, self.proc)

    def _clock_runs(self, live):
        """True while the room needs the ticker: a person's seat (with a
        token: not left) has no connection here, or nobody is there at all."""
        if not live.present and not live.watchers:
            return True
        for i, seat in enumerate(live.room.state["seats"]):
            if seat is not None and not seat["kind"] and seat["token"] and i not in live.present:
                return True
        return False

    def _clock_due(self, live, now):
        """True when `_presence_clock` has something to change in live's room."""
        room = live.room
        st = room.state
        game = room.game
        playing = game is not None and st["status"] == "playing"
        for i, seat in enumerate(st["seats"]):
            if seat is None or seat["kind"] or not seat["token"]:
                continue
            if i in live.present:
                if seat["away"]:
                    return True
                continue
            if not seat["away"]:
                if now - live.gone.get(i, now) >= self.settings.away_after:
                    return True
            elif (not seat["standin"] and playing and game.current == i
                    and time.time() >= room.standin_at(i)):
                return True
        return False

    def _presence_clock(self, live, room, now):
        """In `room` (a copy of live's): mark seats away after `away_after`
        without a connection (counted from the connection's last message);
        give an away seat's turn to a stand-in at Room.standin_at
        (`standin_after` after the later of the person going and the
        turn's start); mark a connected seat back when the save of its
        coming failed (`presence`)."""
        st = room.state
        game = room.game
        playing = game is not None and st["status"] == "playing"
        for i, seat in enumerate(st["seats"]):
            if seat is None or seat["kind"] or not seat["token"]:
                continue
            if i in live.present:
                if seat["away"]:
                    room.set_away(i, False)
                continue
            gone = live.gone.get(i, now)
            if not seat["away"] and now - gone >= self.settings.away_after:
                room.set_away(i, True, wall(gone, now))
            if (seat["away"] and not seat["standin"] and playing and game.current == i
                    and time.time() >= room.standin_at(i)):
                room.set_standin(i)

    async def _take_over(self):
        """Rooms this process serves connections of, whose owner is gone:
        take them over, all at once. Gone: its lease expired, or nobody
        listens for it any more (it died: server/bus.py)."""
        assert self.bus is not None  # (only with Redis)
        codes = [code for code in self.local if code not in self.live]
        if not codes:
            return
        owners = await self.store.owners(codes)
        alive = await self.bus.listening(sorted({o for o in owners if o and o != self.proc}))
        orphans = [(code, owner) for code, owner in zip(codes, owners, strict=True)
                   if owner != self.proc and owner not in alive]
        if not orphans:
            return

        async def one(code, owner):
            try:
                await self._own(code, dead=owner)
                log.info("took room %s over", code_tag(code))
            except Refused:
                pass

        await asyncio.gather(*[one(code, owner) for code, owner in orphans])

    def store_failing(self):
        """True while Redis has failed for --store-patience (a new
        connection is closed with 1013 "store" at once)."""
        return (self.store_down is not None
                and time.monotonic() - self.store_down >= self.settings.store_patience)

    def _store_failing(self, now):
        """Redis failed on this tick: once it has failed for
        --store-patience, every connection here is closed with 1013
        "store" (the page says why and reconnects; the rooms are not
        lost, so not 4003), and so is every new one until Redis answers
        again (app.py)."""
        if self.store_down is None:
            self.store_down = now
        elif now - self.store_down >= self.settings.store_patience and self.conns:
            log.warning("the store has failed for %.0f s: %d connections told",
                        now - self.store_down, len(self.conns))
            for conn in list(self.conns.values()):
                conn.close(CLOSE_TRY_LATER, "store")

    async def _forgotten(self):
        """Redis came back empty: the rooms it no longer has are closed for
        their connections with 4003 "lost" (the page says so) instead of
        refusing each action."""
        for code in set(self.live) | set(self.local):
            if await self.store.get(code) is not None:
                continue
            self._drop(code)
            for conn in list(self.local.get(code, ())):
                conn.close(CLOSE_NO_ROOM, "lost")

    def rules_of(self, code):
        """The Rules of an owned room (for tests and tools)."""
        return Rules.decode(self.live[code].room.state["rules"])
