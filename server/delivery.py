"""Delivery and catch-up: each WebSocket's connection (`Conn`: its queue,
its budget, the frames written straight to its socket), the hello and
the catch-up after it, the events passed to the connections of a room
(filling a gap from the store), snapshots, and closing or answering a
connection here or on another process. Nothing here changes a room."""

import asyncio
import logging
import time

import orjson

from server.live import snap_message
from server.names import code_tag
from server.room import Refused, check_token, compact
from server.store import STORE_ERRORS
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
# The protocol's version (docs/protocol.md, "Versions"): in the welcome; a
# hello or watch that names another one is refused ("version") and closed.
PROTOCOL = 2


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


class Delivery:
    """The hub's part that hands saved events to connections (server/hub.py)."""

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

    @staticmethod
    def heartbeat(conn, t):
        """Answer a ping (`t`) with a pong; a beat wants no answer and is
        only counted (server/liveness.py). Also straight from the socket:
        app.quick."""
        if t == "ping":
            conn.send(compact({"t": "pong", "now": round(time.time(), 1)}))
        else:
            Conn.beats += 1

    async def reply(self, proc, conn_id, text):
        """Send `text` to one connection, here or on another process."""
        if proc == self.proc:
            conn = self.conns.get(conn_id)
            if conn is not None:
                conn.send(text)
        elif self.bus is not None:
            await self.bus.to_proc(proc, {"op": "reply", "conn": conn_id, "text": text})

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
