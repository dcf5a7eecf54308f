"""The room server's benchmark (`make serve-bench`): loopback only,
bounded in time, stops by itself.

Rooms of four seats, every seat a benchmark client (server.client), each
room one action per second (the seat to move plays server.client's plain
move). Measured per action: the time from sending it to the moment every
seat of the room has received its event. Scenarios:

    small    250 rooms (1,000 connections), the server pinned to one core
             (taskset), the clients on the other
    large    1,000 rooms (4,000 connections), the same; also where the
             server's time goes (its own counters, GET /api/stats) and
             memory per connection (the server's RSS after connecting
             minus before, divided by the connections)
    redis    250 rooms on two server processes sharing a redis-server,
             each room's seats spread over both; then one process is
             killed (kill -9) and the time until every room plays again
             is the take-over time. The seats of the killed process
             reconnect to the survivor as the page does (web/online.js:
             at once on a closed socket, then BACKOFF); printed beside it
             when the rooms noticed, had every seat back, were last
             refused ("retry": the dead owner's lease) and played again

    attack   50 honest rooms, each from an address of its own, on a server
             with the documented limits (--rate, --burst, --conn-limit at
             their defaults), the server on one core: quiet; during a
             flood within those limits (128 spectator sockets from four
             addresses asking for snapshots at the rate limit); with the
             SQLite file locked by another process's exclusive
             transaction; and (a server on Redis) with Redis down. Per
             row the honest rooms' actions to every seat (p50, p99 of
             those carried out) and the time to a refusal (p99)

In every scenario some clients drop their connection now and then, miss
an event and reconnect: "reconnect" is the time from opening the new
connection to having caught up. Prints one table (medians over --runs).
"""

import argparse
import asyncio
import json
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.client import choose, create_room, followed, join_room  # noqa: E402

SEATS = 4
NAMES = ("Anna", "Bert", "Cleo", "Dora")
PING_EVERY = 3.0  # seconds, as the page (server/liveness.py)
PING = b'{"t":"ping"}'
BEAT = b'{"t":"beat"}'  # the heartbeat while the server's messages come (docs/protocol.md)
RECONNECT_SHARE = 0.03  # of the actions: one seat drops before it and reconnects after
# The page's reconnect schedule (web/online.js BACKOFF_MS): seconds before
# each new try after a connection closed.
BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0, 5.0)
LOST_AFTER = 3.0  # after a kill: seconds without an answer before an action is played again
TAKEOVER_WINDOW = 15.0  # seconds after the kill the rooms are driven on (and measured)
# The checkout whose server is measured (--tree): this one unless told,
# so two trees can be alternated with one benchmark.
TREE = ROOT
# Whether the seats' heartbeat may be a beat: a server from before the
# beat (an older --tree, no "beats" in its /api/stats) gets pings only.
BEATS = True


def free_port():
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_file_limit():
    """As many open files as allowed: 4,000 sockets and more."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def rss_kib(pid):
    """The resident memory of process `pid` in KiB."""
    for line in Path("/proc/%d/status" % pid).read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid`."""
    fields = Path("/proc/%d/stat" % pid).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_seconds(pid):
    """Seconds process `pid`'s main thread has waited for a CPU while
    runnable (/proc/PID/schedstat): the time other programs took its core."""
    try:
        return int(Path("/proc/%d/schedstat" % pid).read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return float("nan")


def get(base, path):
    """GET a JSON answer."""
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.loads(r.read())


class Server:
    """One `python -m server` process for the benchmark."""

    def __init__(self, data, core=None, redis="", limits=False):
        global BEATS  # set once the server answers: its /api/stats tells
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        options = {"--port": str(self.port), "--data": str(data),
                   "--web": str(Path(data) / "noweb"), "--rate": "50", "--burst": "50",
                   "--room-limit": "100000", "--away-after": "600", "--standin-after": "600",
                   "--unload-after": "600", "--log": "error",
                   # every benchmark client comes from 127.0.0.1
                   "--conn-limit": "100000", "--tcp-limit": "0", "--guess-limit": "100000"}
        if redis:  # the benchmark's Redis keeps nothing on disk on purpose
            options.update({"--redis": redis, "--redis-may-forget": None})
        if limits:  # the documented per-connection and per-address limits (their defaults)
            for flag in ("--rate", "--burst", "--conn-limit", "--tcp-limit"):
                del options[flag]
        # An older --tree's server is given only the options it knows.
        known = (TREE / "server" / "__main__.py").read_text()
        cmd = [sys.executable, "-m", "server"]
        for flag, value in options.items():
            if '"%s"' % flag in known:
                cmd += [flag] if value is None else [flag, value]
        # the options an older tree's server does not know (none for this tree)
        self.dropped = [flag for flag in options if flag not in cmd]
        if core is not None and shutil.which("taskset"):
            cmd = ["taskset", "-c", str(core)] + cmd
        self.proc = subprocess.Popen(cmd, cwd=TREE, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 30
        while True:
            try:
                BEATS = "beats" in get(self.base, "/api/stats")
                return
            except OSError:
                if time.monotonic() > end or self.proc.poll() is not None:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)

    def stop(self):
        """SIGTERM, wait."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Redis:
    """A redis-server on a loopback port that keeps nothing on disk
    (`keep`: its append-only file, so that a stop and start keeps the rooms)."""

    def __init__(self, folder, keep=False):
        self.port = free_port()
        self.url = "redis://127.0.0.1:%d/0" % self.port
        self.args = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                     "--save", "", "--appendonly", "yes" if keep else "no", "--dir",
                     str(folder), "--maxclients", "10000"]
        self.start()

    def start(self):
        """Start (again) and wait until it answers."""
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as c:
                    c.sendall(b"PING\r\n")
                    if c.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.05)

    def stop(self):
        """Stop it."""
        self.proc.terminate()
        self.proc.wait(10)


def make_rooms(bases, count):
    """`count` started rooms of four people: [(code, [(base, token) per seat])],
    created on the servers in turn and joined through them in turn."""

    def one(i):
        base = bases[i % len(bases)]
        info = create_room(base, NAMES[0], people=SEATS)
        seats = [(base, info["token"])]
        for k in range(1, SEATS):
            b = bases[(i + k) % len(bases)]
            seats.append((b, join_room(b, info["code"], NAMES[k])["token"]))
        return info["code"], seats

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(count)))


class Tally:
    """What the rooms measured."""

    def __init__(self):
        self.latency = []  # seconds, action to every seat
        self.reconnect = []  # seconds, new connection to caught up
        self.refused = 0
        self.refusal = []  # seconds, action to its refusal
        self.timeouts = 0
        self.resumed = []  # per room: seconds from the kill to its next event
        self.rooms = 0  # rooms driven (after a kill: how many should resume)
        self.event_bytes = 0  # payload bytes of the event frames the seats received
        self.events = 0  # ... and their number


class Socket(asyncio.Protocol):
    """A lean WebSocket client for the load (server.client's Client, with
    its task per receive and JSON of every message, costs the load
    generator more CPU than the server spends: 4,000 of them on one core
    measured the clients). Reads frames in `data_received` and stamps
    each event's arrival there; parses JSON only of what it needs."""

    def __init__(self, seat):
        self.seat = seat
        self.transport = None
        self.buf = b""
        self.open = False
        self.handshake = asyncio.get_running_loop().create_future()
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport):
        """Send the upgrade request."""
        self.transport = transport

    def data_received(self, data):
        """Collect frames; hand each text frame to the seat."""
        now = time.perf_counter()
        self.buf += data
        if not self.open:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if b" 101 " not in self.buf[:end]:
                self.handshake.set_exception(ConnectionError("handshake refused"))
                return
            self.buf = self.buf[end + 4:]
            self.open = True
            self.handshake.set_result(True)
        buf = self.buf
        while len(buf) >= 2:
            op = buf[0] & 15
            n = buf[1] & 127
            at = 2
            if n == 126:
                if len(buf) < 4:
                    break
                n = int.from_bytes(buf[2:4], "big")
                at = 4
            elif n == 127:
                if len(buf) < 10:
                    break
                n = int.from_bytes(buf[2:10], "big")
                at = 10
            if len(buf) < at + n:
                break
            payload = buf[at:at + n]
            buf = buf[at + n:]
            if op == 1:
                self.seat.heard = now
                self.seat.message(payload, now)
            elif op == 9:
                self.send(payload, 10)
            elif op == 8:
                self.transport.close()
        self.buf = buf

    def connection_lost(self, exc):
        """The socket is gone."""
        if not self.closed.done():
            self.closed.set_result(True)
        if not self.handshake.done():
            self.handshake.set_exception(ConnectionError("closed"))
        self.seat.lost(self)

    def send(self, data, op=1):
        """One masked frame."""
        if isinstance(data, str):
            data = data.encode()
        n = len(data)
        head = bytes([0x80 | op])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        self.seat.sent = time.monotonic()
        key = os.urandom(4)
        masked = (int.from_bytes(data, "big") ^ int.from_bytes((key * (n // 4 + 1))[:n], "big")
                  ).to_bytes(n, "big") if n else b""
        self.transport.write(head + key + masked)


class Seat:
    """One seat of a benchmark room and its socket."""

    def __init__(self, room, index, base, token):
        self.room = room
        self.index = index
        self.base = base
        self.token = token
        self.n = 0
        self.sock = None
        self.caught_up = None  # a future while reconnecting
        self.sent = 0.0  # when it last sent a frame (monotonic): it pings as the page does
        self.heard = 0.0  # when its last text frame came (perf_counter): a beat, not a ping
        self.greeted = False  # said hello on its socket (a ping before it is refused)
        self.rejoining = False  # reconnecting by itself after a kill (rejoin)
        self.dropped = False  # closed on purpose by `drive`, which reconnects it
        self.local = None  # the address its socket comes from (None: any)

    async def connect(self, since=None):
        """Open the socket and say hello."""
        host, port = self.base.split("//")[1].split(":")
        loop = asyncio.get_running_loop()
        self.greeted = False
        _, sock = await loop.create_connection(
            lambda: Socket(self), host, int(port),
            local_addr=(self.local, 0) if self.local else None)
        self.sock = sock
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        sock.transport.write((
            "GET /ws/%s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade"
            "\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
            % (self.room.code, host, port, key)).encode())
        await asyncio.wait_for(sock.handshake, 20)
        hello = {"t": "hello", "token": self.token}
        if since is not None:
            hello["since"] = since
        sock.send(json.dumps(hello))
        self.greeted = True

    def message(self, payload, now):
        """A text frame arrived at `now`."""
        if payload.startswith(b'{"t":"ev","n":'):
            end = payload.index(b",", 14)
            n = int(payload[14:end])
            if n > self.n:
                self.n = n
                self.room.event(self, n, payload, now)
                tally = self.room.tally
                if tally is not None:
                    tally.event_bytes += len(payload)
                    tally.events += 1
        elif payload.startswith(b'{"t":"welcome"'):
            self.target = json.loads(payload)["n"]
        elif payload.startswith(b'{"t":"snap"'):
            msg = json.loads(payload)
            self.n = msg["n"]
            self.room.snap(msg)
        elif payload.startswith(b'{"t":"no"'):
            self.room.last_no = payload
            self.room.refused(self)
        if self.caught_up is not None and getattr(self, "target", None) is not None \
                and self.n >= self.target and not self.caught_up.done():
            self.caught_up.set_result(now)

    def lost(self, sock):
        """The socket closed (by us, or the server died). After a kill a
        seat reconnects by itself as the page does (`rejoin`)."""
        if sock is self.sock:
            self.sock = None
            k = self.room.takeover
            if k is not None and k.at and not self.rejoining and not self.dropped:
                self.room.mark("lost")
                self.rejoining = True
                task = asyncio.get_running_loop().create_task(rejoin(self, k))
                k.tasks.add(task)
                task.add_done_callback(k.tasks.discard)


class Room:
    """A benchmark room: four seats, one action a second."""

    def __init__(self, code, seats):
        self.code = code
        self.seats = [Seat(self, i, b, t) for i, (b, t) in enumerate(seats)]
        self.n = 0
        self.texts = []  # the event messages since `state` was last brought up to date
        self.state = None
        self.waiting = None  # (n, future, set of seats still to receive, latest time)
        self.tally = None  # the Tally counting the event bytes, while measuring
        self.takeover = None  # the Takeover while one process is being killed
        self.marks = {}  # after a kill: what happened first/last, seconds after it

    def mark(self, what, last=False):
        """Note when `what` happened to this room after the kill (the
        first time, or with `last` the latest)."""
        k = self.takeover
        if k is None or not k.at:
            return
        if last or what not in self.marks:
            self.marks[what] = time.monotonic() - k.at

    def event(self, seat, n, payload, now):
        """A seat received event `n`."""
        if n > self.n:  # each number once, in order: every seat gets them in order
            self.n = n
            self.texts.append(payload)
        w = self.waiting
        if w is not None and n >= w[0] and seat in w[2]:
            w[2].discard(seat)
            w[3][0] = max(w[3][0], now)
            if not w[2] and not w[1].done():
                w[1].set_result(w[3][0])

    def snap(self, msg):
        """A snapshot (a connection without `since`)."""
        if msg["n"] >= self.n:
            self.n = msg["n"]
            self.texts = []
            self.state = msg["s"]

    def refused(self, seat):
        """The server refused the seat's message."""
        self.mark("refused", last=True)
        w = self.waiting
        if w is not None and not w[1].done():
            w[1].set_exception(LookupError("refused"))

    def current(self):
        """The public state after the newest event (events carry what
        changed: each is read once, when a state is asked for)."""
        if self.texts:
            for text in self.texts:
                self.state = followed(self.state, json.loads(text))
            self.texts = []
        return self.state

    async def act(self, expect, timeout=15.0):
        """The seat to move plays; the time until every seat in `expect`
        has the event (asyncio.TimeoutError after `timeout` seconds)."""
        state = self.current()
        mover = self.seats[state["cur"]]
        if mover.sock is None or not mover.greeted or mover.caught_up is not None:
            # as the page: an action only on a connection welcomed and caught up
            raise ConnectionError("the mover is not connected")
        future = asyncio.get_running_loop().create_future()
        self.waiting = (self.n + 1, future, set(expect) | {mover}, [0.0])
        began = time.perf_counter()
        mover.sock.send(json.dumps({"t": "act", "a": choose(state)}))
        try:
            done = await asyncio.wait_for(future, timeout)
        finally:
            self.waiting = None
        return done - began


async def connect_all(rooms):
    """Every seat of every room connected (50 at a time)."""
    gate = asyncio.Semaphore(50)

    async def one(seat):
        async with gate:
            seat.caught_up = asyncio.get_running_loop().create_future()
            await seat.connect()
            await asyncio.wait_for(seat.caught_up, 30)
            seat.caught_up = None

    await asyncio.gather(*[one(s) for r in rooms for s in r.seats])


async def drive(room, until, tally, measure_from, killed, bases):
    """One room: one action a second until `until` (loop time)."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.random())
    while loop.time() < until:
        tick = loop.time() + 1.0
        try:
            state = room.current()
            victim = None
            ready = [s for s in room.seats if s.index != state["cur"] and s.sock is not None
                     and not s.rejoining and s.caught_up is None]
            if ready and random.random() < RECONNECT_SHARE:
                victim = random.choice(ready)
                victim.dropped = True
                victim.sock.transport.close()
                await victim.sock.closed
            others = [s for s in room.seats if s is not victim]
            began = time.perf_counter()
            # After a kill an action may have gone to the dead process (sent
            # before, or forwarded before Redis noticed): unanswered for
            # LOST_AFTER seconds it is played again, as a player would press again.
            took = await room.act(others, LOST_AFTER if killed[0] else 15.0)
            if loop.time() >= measure_from:
                tally.latency.append(took)
                room.tally = tally
            if killed[0] and "played" not in room.marks:
                room.mark("played")
                tally.resumed.append(time.monotonic() - killed[0])
            if victim is not None:
                await reconnect(victim, bases, tally if loop.time() >= measure_from else None)
                victim.dropped = False
        except LookupError:
            tally.refused += 1
            if loop.time() >= measure_from:
                tally.refusal.append(time.perf_counter() - began)
            tick = loop.time() + 0.25
        except (asyncio.TimeoutError, ConnectionError, OSError, AttributeError):
            tally.timeouts += 1
            tick = loop.time() + 0.25
            if killed[0]:
                for s in room.seats:
                    if s.sock is None and not s.rejoining:
                        try:
                            await reconnect(s, bases, None)
                            s.dropped = False
                        except (asyncio.TimeoutError, ConnectionError, OSError):
                            pass
        await asyncio.sleep(max(0.0, tick - loop.time()))


def beat_or_ping(seats):
    """The page's heartbeat for `seats` (each with a socket): one that
    sent nothing for PING_EVERY seconds sends a beat when a message came
    within them, else a ping (the server closes a seat connection silent
    for 7 s)."""
    now = time.monotonic()
    heard_since = time.perf_counter() - PING_EVERY
    for seat in seats:
        if now - seat.sent >= PING_EVERY:
            seat.sock.send(BEAT if BEATS and seat.heard > heard_since else PING)


def heartbeat(room):
    """The heartbeat of the room's seats that are connected and greeted."""
    beat_or_ping([s for s in room.seats if s.sock is not None and s.greeted])


async def pinger(rooms):
    """Every seat's heartbeat, from connecting to the end (cancelled)."""
    while True:
        await asyncio.sleep(0.5)
        for room in rooms:
            heartbeat(room)


class Takeover:
    """A kill under way: when (monotonic, 0 before it), where the seats go
    now, and the seats' reconnect tasks."""

    def __init__(self, bases):
        self.at = 0.0
        self.bases = bases
        self.tasks = set()


async def rejoin(seat, k):
    """A seat whose server died: reconnect to a survivor on the page's
    schedule (BACKOFF) until it is connected and caught up again."""
    try:
        for tries in range(100):
            await asyncio.sleep(BACKOFF[min(tries, len(BACKOFF) - 1)])
            if seat.sock is not None:
                break
            try:
                await reconnect(seat, k.bases, None)
                break
            except (asyncio.TimeoutError, ConnectionError, OSError):
                if seat.sock is not None:
                    seat.sock.transport.close()
                    seat.sock = None
        if all(s.sock is not None for s in seat.room.seats):
            seat.room.mark("back")
    finally:
        seat.rejoining = False


async def reconnect(seat, bases, tally):
    """Connect a seat again with `since`; the time until it caught up."""
    seat.target = None
    seat.caught_up = asyncio.get_running_loop().create_future()
    if bases is not None:
        seat.base = bases[0]
    began = time.perf_counter()
    await seat.connect(since=seat.n)
    done = await asyncio.wait_for(seat.caught_up, 15)
    seat.caught_up = None
    if tally is not None:
        tally.reconnect.append(done - began)


def pct(values, p):
    """The p-th percentile in ms (nan when there is nothing)."""
    if not values:
        return float("nan")
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(len(values) * p / 100))]


async def play(rooms, seconds, warm=3.0, kill=None, bases=None):
    """Drive every room for `warm` + `seconds`; kill = (seconds in, fn)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    tally = Tally()
    tally.rooms = len(rooms)
    killed = [0.0]
    k = Takeover(bases)
    if kill is not None:
        for r in rooms:
            r.takeover = k
    tasks = [asyncio.create_task(drive(r, start + warm + seconds, tally, start + warm, killed,
                                       bases)) for r in rooms]
    if kill is not None:
        await asyncio.sleep(warm + kill[0])
        k.at = time.monotonic()  # before the kill: its closed sockets count after it
        kill[1]()
        for r in rooms:  # an action on its way may have died with the process: played again
            w = r.waiting
            if w is not None and not w[1].done():
                w[1].set_exception(ConnectionError("the server was killed"))
        killed[0] = k.at
    await asyncio.gather(*tasks)
    k.at = 0.0  # over: the sockets closed from now on stay closed
    for task in list(k.tasks):
        task.cancel()
    return tally


async def close_all(rooms):
    """Close every socket."""
    for r in rooms:
        for s in r.seats:
            if s.sock is not None:
                s.sock.transport.close()
    await asyncio.sleep(0.5)


def profiler(pid, seconds, out):
    """py-spy (pip install py-spy) sampling process `pid` for `seconds`
    into `out` (collapsed stacks, one line a stack: flamegraph.pl or
    speedscope read them); None without py-spy."""
    exe = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(exe).exists():
        print("no py-spy: pip install py-spy", file=sys.stderr)
        return None
    return subprocess.Popen([exe, "record", "--pid", str(pid), "--duration", str(int(seconds)),
                             "--format", "raw", "--output", str(out), "--rate", "200"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def scenario_single(rooms, seconds, core_server, core_clients, profile=None):
    """One SQLite server on one core: latency, memory, time split; with
    `profile` (a file) py-spy samples the server meanwhile."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(tmp, core=core_server)
        try:
            made = make_rooms([server.base], rooms)
            before_rss = rss_kib(server.proc.pid)

            async def run():
                if core_clients is not None:
                    os.sched_setaffinity(0, {core_clients})
                cl = [Room(code, seats) for code, seats in made]
                pings = asyncio.create_task(pinger(cl))
                await connect_all(cl)
                after_rss = rss_kib(server.proc.pid)
                s0 = get(server.base, "/api/stats")
                c0 = cpu_seconds(server.proc.pid)
                q0 = waited_seconds(server.proc.pid)
                m0 = os.times()
                w0 = time.monotonic()
                spy = profiler(server.proc.pid, seconds, profile) if profile else None
                tally = await play(cl, seconds)
                if spy is not None:
                    spy.wait(30)
                wall = time.monotonic() - w0
                s1 = get(server.base, "/api/stats")
                c1 = cpu_seconds(server.proc.pid)
                q1 = waited_seconds(server.proc.pid)
                m1 = os.times()
                pings.cancel()
                await close_all(cl)
                mine = (m1.user + m1.system) - (m0.user + m0.system)
                return (tally, after_rss, s0, s1, c1 - c0, q1 - q0, wall, mine)

            load0 = os.getloadavg()
            tally, after_rss, s0, s1, cpu_s, queued_s, wall, mine = asyncio.run(run())
            load1 = os.getloadavg()
        finally:
            server.stop()
    n = max(1, s1["actions"] - s0["actions"])
    # An older --tree's server may lack a counter: 0 then.
    split = {k: 1000 * (s1.get(k, 0) - s0.get(k, 0)) / n for k in ("apply", "store", "send")}
    quick = s1.get("quick", 0) - s0.get("quick", 0)
    beats = s1.get("beats", 0) - s0.get("beats", 0)
    return {"tally": tally, "mem_kib": (after_rss - before_rss) / (rooms * SEATS),
            "cpu": cpu_s / wall, "queued": queued_s / wall, "split": split, "actions": n,
            "rate": n / wall, "cpu_ms": 1000 * cpu_s / n, "wait_ms": 1000 * queued_s / n,
            "client_ms": 1000 * mine / n,
            "stored": (s1.get("stored", 0) - s0.get("stored", 0)) / n,
            # heartbeats taken off the socket: pings (each answered) and beats
            "pings": (quick - beats) / n, "beats": beats / n,
            "ev_bytes": tally.event_bytes / max(1, tally.events),
            "load": (load0[0], load1[0])}


def scenario_redis(rooms, seconds, kill_after, core_clients):
    """Two processes and Redis; one process killed after `kill_after` s."""
    with tempfile.TemporaryDirectory() as tmp:
        redis = Redis(tmp)
        servers = []
        try:
            servers = [Server(Path(tmp) / "a", redis=redis.url),
                       Server(Path(tmp) / "b", redis=redis.url)]
            bases = [s.base for s in servers]
            made = make_rooms(bases, rooms)
            cl_rooms = []

            async def run():
                if core_clients is not None:
                    os.sched_setaffinity(0, {core_clients})
                cl = [Room(code, seats) for code, seats in made]
                cl_rooms.extend(cl)
                pings = asyncio.create_task(pinger(cl))
                await connect_all(cl)
                tally = await play(cl, seconds)
                victim = servers[0]
                survivors = [servers[1].base]

                def kill():
                    os.kill(victim.proc.pid, signal.SIGKILL)

                after = await play(cl, kill_after + TAKEOVER_WINDOW, warm=0.0,
                                   kill=(kill_after, kill),
                                   bases=survivors)
                pings.cancel()
                await close_all(cl)
                return tally, after

            load0 = os.getloadavg()
            tally, after = asyncio.run(run())
        finally:
            for s in servers:
                s.stop()
            redis.stop()
    resumed = after.resumed
    # a room that did not play again within the window counts as never
    late = after.rooms - len(resumed)
    takeover = max(resumed) if resumed and not late else float("inf")
    phases = {}
    for what in ("lost", "back", "refused", "played"):
        got = sorted(r.marks[what] for r in cl_rooms if what in r.marks)
        phases[what] = (len(got), statistics.median(got) if got else float("nan"),
                        got[-1] if got else float("nan"))
    return {"tally": tally, "takeover": takeover, "resumed": len(resumed), "late": late,
            "phases": phases, "load": (load0[0], os.getloadavg()[0])}


FLOOD_ADDRESSES = 4  # the flood's client addresses ...
FLOOD_SOCKETS = 32  # ... each with this many spectator sockets (the default --conn-limit)
FLOOD_RATE = 10.0  # snapshots a second per socket (the default --rate)
ATTACKS = ("quiet", "flood", "sqlite lock", "redis down")


class Quiet:
    """A socket's seat that only listens (the flood's spectators)."""

    def __init__(self):
        self.sent = 0.0
        self.heard = 0.0
        self.frames = 0

    def message(self, payload, now):
        """Count what came."""
        self.frames += 1

    def lost(self, sock):
        """Nothing to do: the flood ends with the run."""


async def flood_socket(base, code, local, until):
    """One spectator socket from `local` asking for snapshots of room
    `code` at FLOOD_RATE until `until` (loop time): within the limits."""
    host, port = base.split("//")[1].split(":")
    loop = asyncio.get_running_loop()
    quiet = Quiet()
    _, sock = await loop.create_connection(lambda: Socket(quiet), host, int(port),
                                           local_addr=(local, 0))
    sock.transport.write((
        "GET /ws/%s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade"
        "\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        % (code, host, port)).encode())
    await asyncio.wait_for(sock.handshake, 20)
    sock.send('{"t":"watch"}')
    try:
        while loop.time() < until and not sock.closed.done():
            sock.send('{"t":"snap"}')
            await asyncio.sleep(1.0 / FLOOD_RATE)
    finally:
        sock.transport.close()
    return quiet.frames


class SqliteLock:
    """Another process holding an exclusive transaction on `path` until `release`."""

    def __init__(self, path):
        code = ("import sqlite3, sys\n"
                "db = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
                "db.execute('BEGIN EXCLUSIVE')\n"
                "print('locked', flush=True)\n"
                "sys.stdin.readline()\n")
        self.proc = subprocess.Popen([sys.executable, "-c", code, str(path)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "locked":
            raise RuntimeError("the file could not be locked")

    def release(self):
        """End the transaction and the process."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("\n")
        self.proc.stdin.flush()
        self.proc.wait(10)


def scenario_attack(kind, rooms, seconds, core_server, core_clients):
    """`rooms` honest rooms (each from an address of its own) on a server
    with the documented limits, during attack `kind` (ATTACKS)."""
    with tempfile.TemporaryDirectory() as tmp:
        redis = Redis(tmp, keep=True) if kind == "redis down" else None
        server = Server(Path(tmp) / "data", core=core_server, limits=True,
                        redis=redis.url if redis else "")
        fault = []
        try:
            made = make_rooms([server.base], rooms)

            async def run():
                if core_clients is not None:
                    os.sched_setaffinity(0, {core_clients})
                cl = [Room(code, seats) for code, seats in made]
                for i, room in enumerate(cl):
                    for seat in room.seats:
                        seat.local = "127.0.1.%d" % (1 + i % 250)
                pings = asyncio.create_task(pinger(cl))
                await connect_all(cl)
                loop = asyncio.get_running_loop()
                warm = 2.0
                flood = []
                if kind == "flood":
                    until = loop.time() + warm + seconds
                    flood = [asyncio.create_task(flood_socket(
                        server.base, cl[(a * FLOOD_SOCKETS + k) % len(cl)].code,
                        "127.0.0.%d" % (2 + a), until))
                        for a in range(FLOOD_ADDRESSES) for k in range(FLOOD_SOCKETS)]
                elif kind == "sqlite lock":
                    fault.append(SqliteLock(Path(tmp) / "data" / "rooms.sqlite3"))
                elif kind == "redis down":
                    assert redis is not None
                    redis.stop()
                tally = await play(cl, seconds, warm=warm)
                frames = sum(await asyncio.gather(*flood)) if flood else 0
                pings.cancel()
                await close_all(cl)
                return tally, frames

            tally, frames = asyncio.run(run())
        finally:
            for f in fault:
                f.release()
            server.stop()
            if redis is not None:
                if redis.proc.poll() is None:
                    redis.stop()
    return {"tally": tally, "flood_frames": frames}


def print_rows(rows):
    """The table of the load scenarios."""
    print()
    print("| scenario | rooms | connections | server CPU per action | wait for the core "
          "per action | action to every seat p50 | p99 | reconnect to caught up p99 | "
          "memory per connection | take-over after kill -9 | samples |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        label = {"small": "one process, one core", "large": "one process, one core",
                 "redis": "two processes + Redis"}[r["scenario"]]
        print("| %s | %d | %d | %s | %s | %.1f ms | %.1f ms | %.0f ms | %s | %s | %d%s |" % (
            label, r["rooms"], r["conns"],
            "%.3f ms" % r["cpu_ms"] if "cpu_ms" in r else "-",
            "%.3f ms" % r["wait_ms"] if "wait_ms" in r else "-",
            r["p50"], r["p99"], r["rec99"],
            "%.1f KiB" % r["mem"] if "mem" in r else "-",
            ("%.1f s" % r["takeover"] if r["takeover"] != float("inf") else
             "> %.0f s" % TAKEOVER_WINDOW) if "takeover" in r else "-", r["samples"],
            " (%d refused or late)" % r["bad"] if r["bad"] else ""))


def main(argv=None):
    """Run the scenarios and print the table."""
    p = argparse.ArgumentParser(prog="python -m tools.serve_bench",
                                description=__doc__.splitlines()[0])
    p.add_argument("--small", type=int, default=250, help="rooms in the small scenario")
    p.add_argument("--large", type=int, default=1000, help="rooms in the large scenario")
    p.add_argument("--seconds", type=float, default=20, help="measured seconds per scenario")
    p.add_argument("--runs", type=int, default=1, help="runs per scenario (medians printed)")
    p.add_argument("--only", nargs="*", default=["small", "large", "redis", "attack"],
                   choices=["small", "large", "redis", "attack"])
    p.add_argument("--honest", type=int, default=50,
                   help="honest rooms in the attack scenario")
    p.add_argument("--tree", metavar="DIR", help="measure the server of this checkout "
                   "(another commit's worktree) with this benchmark; default: this one")
    p.add_argument("--profile", metavar="FILE", help="py-spy samples the server of the last "
                   "single-process run into FILE (collapsed stacks)")
    a = p.parse_args(argv)
    if a.tree:
        global TREE
        TREE = Path(a.tree).resolve()
    limit = raise_file_limit()
    if limit < a.large * SEATS * 2 + 100 and "large" in a.only:
        print("the file limit (%d) is too low for %d connections" % (limit, a.large * SEATS))
        return 1
    cores = len(os.sched_getaffinity(0))
    server_core, client_core = (0, 1) if cores >= 2 else (None, None)
    rows = []
    notes = []
    loads = []  # the 1-minute load average at the start and end of each run

    def median(runs, f):
        return statistics.median(f(r) for r in runs)

    attacks = []
    for name in a.only:
        if name == "attack":
            for kind in ATTACKS:
                if kind == "redis down" and shutil.which("redis-server") is None:
                    notes.append("attack: redis down skipped, no redis-server installed")
                    continue
                runs = []
                for _ in range(a.runs):
                    try:
                        runs.append(scenario_attack(kind, a.honest, a.seconds, server_core,
                                                    client_core))
                    except Exception as e:
                        notes.append("attack %s: a run failed: %r" % (kind, e))
                if runs:
                    attacks.append((kind, runs))
                    print("attack %s: p99 %.1f ms, refusal p99 %.1f ms" % (
                        kind, pct(runs[-1]["tally"].latency, 99),
                        pct(runs[-1]["tally"].refusal, 99)), flush=True)
            continue
        if name == "redis" and shutil.which("redis-server") is None:
            notes.append("redis: skipped, no redis-server installed")
            continue
        runs = []
        for _ in range(a.runs):
            try:
                if name == "redis":
                    runs.append(scenario_redis(a.small, a.seconds, 5, client_core))
                else:
                    rooms = a.small if name == "small" else a.large
                    runs.append(scenario_single(rooms, a.seconds, server_core, client_core,
                                                a.profile))
            except Exception as e:  # one scenario's failure is reported, the others run
                notes.append("%s: a run failed: %r" % (name, e))
            if runs:
                print("%s run %d: p50 %.1f ms, p99 %.1f ms%s" % (
                    name, len(runs), pct(runs[-1]["tally"].latency, 50),
                    pct(runs[-1]["tally"].latency, 99),
                    ", server CPU %.3f ms an action" % runs[-1]["cpu_ms"]
                    if "cpu_ms" in runs[-1] else ""), flush=True)
        if not runs:
            continue
        rooms = a.large if name == "large" else a.small
        lat50 = median(runs, lambda r: pct(r["tally"].latency, 50))
        lat99 = median(runs, lambda r: pct(r["tally"].latency, 99))
        rec99 = median(runs, lambda r: pct(r["tally"].reconnect, 99))
        samples = sum(len(r["tally"].latency) for r in runs)
        bad = sum(r["tally"].refused + r["tally"].timeouts for r in runs)
        row = {"scenario": name, "rooms": rooms, "conns": rooms * SEATS, "p50": lat50,
               "p99": lat99, "rec99": rec99, "samples": samples, "bad": bad}
        if name != "redis":
            for key in ("cpu_ms", "wait_ms", "client_ms", "stored", "ev_bytes", "pings",
                        "beats"):
                row[key] = median(runs, lambda r, key=key: r[key])
            loads.extend(x for r in runs for x in r["load"])
            row["mem"] = median(runs, lambda r: r["mem_kib"])
            row["cpu"] = median(runs, lambda r: r["cpu"])
            row["queued"] = median(runs, lambda r: r["queued"])
            row["rate"] = median(runs, lambda r: r["rate"])
            split = {k: median(runs, lambda r, k=k: r["split"][k]) for k in
                     ("apply", "store", "send")}
            notes.append("%s: %.0f actions/s carried out; the server ran %.0f%% of the time "
                         "and waited for its core %.0f%% of the time (other programs had "
                         "it); per action %.2f ms engine and messages, %.2f ms SQLite, "
                         "%.2f ms handing to the sockets; %.0f bytes an event message, "
                         "%.0f bytes stored an action; %.2f pings (answered) and %.2f "
                         "beats an action; the clients took %.3f ms of CPU "
                         "an action" % (
                             name, row["rate"], 100 * row["cpu"], 100 * row["queued"],
                             split["apply"], split["store"], split["send"], row["ev_bytes"],
                             row["stored"], row["pings"], row["beats"], row["client_ms"]))
        else:
            row["takeover"] = median(runs, lambda r: r["takeover"])
            loads.extend(x for r in runs for x in r["load"])
            for r in runs:
                ph = r["phases"]
                notes.append(
                    "redis: take-over %s: %d of %d rooms played again within %.0f s of the "
                    "kill; seconds after it (median, last): a seat's socket closed %s, every "
                    "seat back %s, last refused %s, played again %s" % (
                        "%.1f s" % r["takeover"] if r["takeover"] != float("inf") else
                        "not within the window", r["resumed"], r["resumed"] + r["late"],
                        TAKEOVER_WINDOW,
                        *("%.1f, %.1f (%d rooms)" % (ph[w][1], ph[w][2], ph[w][0])
                          for w in ("lost", "back", "refused", "played"))))
        rows.append(row)

    if rows:
        print_rows(rows)
    else:
        print()
    if attacks:
        print()
        print("| honest rooms (%d) during | actions carried out | action to every seat p50 "
              "| p99 | refused | late (no answer in 15 s) | refusal p99 |" % a.honest)
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for kind, runs in attacks:
            print("| %s | %d | %.1f ms | %.1f ms | %d | %d | %s |" % (
                kind, statistics.median(len(r["tally"].latency) for r in runs),
                statistics.median(pct(r["tally"].latency, 50) for r in runs),
                statistics.median(pct(r["tally"].latency, 99) for r in runs),
                statistics.median(r["tally"].refused for r in runs),
                statistics.median(r["tally"].timeouts for r in runs),
                "%.1f ms" % statistics.median(pct(r["tally"].refusal, 99) for r in runs)
                if any(r["tally"].refusal for r in runs) else "-"))
        flood = [r["flood_frames"] for kind, runs in attacks if kind == "flood" for r in runs]
        if flood:
            notes.append("attack flood: %d sockets from %d addresses got %d messages a run "
                         "(median)" % (FLOOD_ADDRESSES * FLOOD_SOCKETS, FLOOD_ADDRESSES,
                                       statistics.median(flood)))
    if loads:
        notes.append("the machine's 1-minute load average during the runs: %.2f to %.2f on "
                     "%d cores" % (min(loads), max(loads), os.cpu_count() or 0))
    for note in notes:
        print("- " + note)
    print("(%d run(s) per scenario, medians; %.0f s measured each; load average at the end "
          "%.2f %.2f %.2f on %d cores; python -m tools.serve_bench %s)" % (
              a.runs, a.seconds, *os.getloadavg(), os.cpu_count() or 0,
              " ".join(argv if argv is not None else sys.argv[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
