"""A small client of the room server (docs/protocol.md): the tests, the
benchmark and any program that wants to play use it.

    info = create_room("http://127.0.0.1:8000", "Anna", people=2, computers=["profi"])
    c = Client("http://127.0.0.1:8000", info["code"], info["token"])
    await c.connect()
    await c.until(lambda c: c.my_turn())
    await c.act(c.choose())

`Client.state` is the room's public state after the last event, `n` the
number of that event, `events` every (n, event) received."""

import asyncio
import json
import time
import urllib.error
import urllib.request

from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

PROTOCOL = 2  # the protocol version this client is written for (docs/protocol.md, "Versions")

# The tests set this to a function (schema name, message) that checks every
# message received against docs/protocol.schema.json (tests/server/schema.py).
CHECK = None
# Seconds an HTTP request may take. The tests raise it (tests/server/
# conftest.py): on a busy machine a request queued behind solving plans
# is slow, not lost.
HTTP_TIMEOUT = 10


def _answer_schema(method, path):
    """The schema definition of an HTTP answer, or None (not described)."""
    parts = path.strip("/").split("/")
    if parts[:2] != ["api", "rooms"]:
        return None
    if method == "POST":
        return "http_seat"
    if len(parts) == 3:
        return "state"
    if len(parts) == 5 and parts[3] == "games":
        return "http_record"
    return None


class ServerRefused(Exception):
    """The server answered an HTTP request with a refusal: `why`, `values`."""

    def __init__(self, status, body):
        super().__init__(status, body)
        self.status = status
        self.why = body.get("why", "")
        self.values = body.get("values", [])


def http(base, method, path, body=None, headers=None):
    """One JSON request; the answer's JSON, or ServerRefused."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers=dict({"Content-Type": "application/json"},
                                              **(headers or {})))
    try:
        with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT) as r:
            answer = json.loads(r.read())
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            body = json.loads(raw)
        except ValueError:
            body = {"why": "http", "values": [e.code]}
        else:
            if CHECK is not None:
                CHECK("http_refusal", body)
        raise ServerRefused(e.code, body)
    name = _answer_schema(method, path)
    if CHECK is not None and name is not None:
        CHECK(name, answer)
    return answer


def create_room(base, name, people=2, computers=(), preset=None, rules=None, target=None,
                wait=None):
    """Create a room: {"code", "seat", "token"}; `wait` the seconds before a
    stand-in plays an away person's turn (None: the server's)."""
    body = {"name": name, "people": people, "computers": list(computers)}
    if preset is not None:
        body["preset"] = preset
    if rules is not None:
        body["rules"] = rules
    if target is not None:
        body["target"] = target
    if wait is not None:
        body["wait"] = wait
    return http(base, "POST", "/api/rooms", body)


def join_room(base, code, name):
    """Join room `code`: {"code", "seat", "token"}."""
    return http(base, "POST", "/api/rooms/%s/join" % code, {"name": name})


def followed(state, msg):
    """The public state after event message `msg`, for a client that held
    `state` after the event before it: the whole state (`s`) or `state`
    with the entries that changed (`d`), docs/protocol.md "Events"."""
    if "s" in msg:
        return msg["s"]
    if state is None:  # a connection that asked for events since N holds the state at N
        raise ValueError("event %d carries only what changed, and no state came before it"
                         % msg["n"])
    out = dict(state)
    out.update(msg["d"])
    return out


def choose(state):
    """A plain move in a room's public state: the keep of most dice, bank
    from 350 on when allowed, else roll; pass a farkle."""
    legal = state["legal"]
    keeps = [a for a in legal if a[0] == "keep"]
    if keeps:
        return max(keeps, key=lambda a: len(a[1]))
    if ["pass"] in legal:
        return ["pass"]
    if ["bank"] in legal and state["tt"] >= 350:
        return ["bank"]
    return ["roll"]


HEARTBEAT = 3.0  # seconds: the server counts a seat silent for 7 s as gone (docs/protocol.md)


class Client:
    """One WebSocket to a room: a seat (with its token) or a spectator.
    While connected it sends a heartbeat whenever it has sent nothing for
    `heartbeat` seconds (None: never), as the page does: `{"t": "beat"}`
    when a message came within them, else `{"t": "ping"}`, whose answers
    are not counted in `pongs`."""

    def __init__(self, base, code, token=None, origin=None, heartbeat=HEARTBEAT, full=False):
        self.url = base.replace("http", "ws", 1) + "/ws/" + code
        self.code = code
        self.token = token
        self.origin = origin
        self.ws = None
        self.seat = -1
        self.n = 0
        self.state = None
        self.events = []
        self.seen_rolls = []  # [[k, faces], ...]: every roll this client was shown
        self.refusals = []
        self.pongs = 0
        self.close_code = None
        self.received_at = 0.0  # time.perf_counter() of the last message
        self.heartbeat = heartbeat
        self.full = full  # every event with the whole state (docs/protocol.md, "Versions")
        self.sent_at = 0.0  # time.monotonic() of the last message sent
        self.auto_pings = 0  # heartbeat pings not answered yet
        self.pinger = None

    async def connect(self, since=None):
        """Open the socket and say hello (or watch); returns the welcome.
        `since`: the number of the last event seen (None: a snapshot)."""
        headers = {"Origin": self.origin} if self.origin else None
        self.ws = await ws_connect(self.url, additional_headers=headers, compression=None,
                                   max_size=2 ** 20, open_timeout=20)
        hello = {"t": "hello", "token": self.token} if self.token else {"t": "watch"}
        hello["v"] = PROTOCOL
        if self.full:
            hello["full"] = True
        if since is not None:
            hello["since"] = since
        await self.ws.send(json.dumps(hello))
        self.sent_at = time.monotonic()
        self.auto_pings = 0
        if self.pinger is not None:
            self.pinger.cancel()  # the old socket's
        if self.heartbeat:
            self.pinger = asyncio.create_task(self._beat())
        welcome = await self.recv()
        if welcome is None or welcome.get("t") != "welcome":
            raise ConnectionError("no welcome: closed with %s" % self.close_code)
        self.seat = welcome["seat"]
        if since is not None:
            self.n = since
        while self.n < welcome["n"] or self.state is None and since is None:
            if await self.recv() is None:
                raise ConnectionError("closed with %s while catching up" % self.close_code)
        return welcome

    async def reconnect(self, base=None):
        """Connect again after a reload or a lost connection (to server
        `base`, or the same one), catching up from the last event seen."""
        if base is not None:
            self.url = base.replace("http", "ws", 1) + "/ws/" + self.code
        return await self.connect(since=self.n)

    async def recv(self, timeout=30):
        """The next message (also applied to `state`); None once closed."""
        assert self.ws is not None
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
        except asyncio.TimeoutError:
            raise
        except Exception:
            self.close_code = self.ws.close_code
            return None
        self.received_at = time.perf_counter()
        msg = json.loads(raw)
        if CHECK is not None:
            CHECK("server_message", msg)
        t = msg.get("t")
        if t == "ev":
            if msg["n"] != self.n + 1 and self.n:
                raise AssertionError("event %d after %d: a gap" % (msg["n"], self.n))
            self.n = msg["n"]
            self.state = followed(self.state, msg)
            self.events.append((msg["n"], msg["e"]))
            self._note_rolls(msg["e"], self.state)
        elif t == "snap":
            self.n = msg["n"]
            self.state = msg["s"]
        elif t == "welcome":
            pass
        elif t == "no":
            self.refusals.append(msg)
        elif t == "pong":
            if self.auto_pings:
                self.auto_pings -= 1  # the heartbeat's own
            else:
                self.pongs += 1
        return msg

    def _note_rolls(self, event, state):
        """Keep the rolls of an act event with their numbers: the state
        after it counts the game's rolls, its last roll is that number."""
        if event.get("k") != "act":
            return
        rolls = [e[2] for e in event.get("ev", []) if e and e[0] == "roll"]
        for j, faces in enumerate(rolls):
            self.seen_rolls.append([state["rolls"] - (len(rolls) - 1 - j), list(faces)])

    async def _beat(self):
        """The heartbeat after `heartbeat` seconds of sending nothing: a
        beat when the server's messages came within them, else a ping
        (docs/protocol.md)."""
        while True:
            await asyncio.sleep(0.5)
            ws = self.ws
            if ws is None or ws.close_code is not None:
                return  # closed: a reconnect starts a new heartbeat
            if time.monotonic() - self.sent_at >= self.heartbeat:
                heard = time.perf_counter() - self.received_at < self.heartbeat
                if not heard:
                    self.auto_pings += 1
                self.sent_at = time.monotonic()
                try:
                    await ws.send('{"t":"beat"}' if heard else '{"t":"ping"}')
                except Exception:  # closed: a reconnect starts a new heartbeat
                    return

    async def send(self, msg):
        """Send one message (a dict, or raw text or bytes as they are)."""
        assert self.ws is not None
        self.sent_at = time.monotonic()
        try:
            await self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))
        except ConnectionClosed:
            self.close_code = self.ws.close_code
            raise ConnectionError("closed with %s" % self.close_code)

    async def act(self, action, ref=None):
        """Send a turn action (a list such as ["keep", [1, 5]])."""
        msg = {"t": "act", "a": action}
        if ref is not None:
            msg["id"] = ref
        await self.send(msg)

    async def play(self, action, timeout=30):
        """Send a turn action and wait for its event (or a refusal)."""
        n = self.n
        refused = len(self.refusals)
        await self.act(action)
        await self.until(lambda c: c.n > n or len(c.refusals) > refused, timeout)

    async def until(self, test, timeout=30):
        """Receive until `test(self)` holds (checked first); the last message."""
        end = time.monotonic() + timeout
        msg = None
        while not test(self):
            left = end - time.monotonic()
            if left <= 0:
                raise asyncio.TimeoutError("condition not met in %s s" % timeout)
            msg = await self.recv(left)
            if msg is None:
                raise ConnectionError("closed with %s" % self.close_code)
        return msg

    def my_turn(self):
        """True when this seat is to act in a running game."""
        s = self.state
        return (s is not None and s["status"] == "playing" and s.get("cur") == self.seat
                and not s["seats"][self.seat]["standin"])

    def choose(self):
        """A plain move for this seat (`choose`)."""
        assert self.state is not None
        return choose(self.state)

    async def close(self):
        """Close the socket."""
        if self.pinger is not None:
            self.pinger.cancel()
            self.pinger = None
        if self.ws is not None:
            await self.ws.close()
            self.close_code = self.ws.close_code
