"""The floor under the room server's CPU per action: a server that does
only what every action costs before any game (`make serve-floor`).

Issue 32 asks for at most 0.25 ms of the server's CPU per action. This
measures what is left for the game once the sockets are paid for: a
process on the same stack as `python -m server` (uvloop, the frames cut
and made by server/wsfast.py, orjson) that, per room of four
connections,

- reads each text frame a client sends and parses its JSON,
- answers a ping with a pong and takes a beat without an answer (the
  page's heartbeat every 3 s: a beat while events come, docs/protocol.md),
- and for an action writes one prepared event frame of the real size
  (607 bytes, the size of the benchmark's event messages) to all four connections,

with no engine, no store, no Starlette, no clock. With `--game` each
room is also a real server.room.Room of four people: an action is the
plain move (server.client.choose's) carried out by `Room.act`, its event
message saved by server.store.SqliteStore as the hub does (the state
when server.hub.state_due says so) and that message written to
the four connections: the room server's own work without its hub,
Starlette and asyncio tasks. The load is
tools/serve_bench.py's: its lean clients on the other core, one action
per room and second, the page's pings. Printed: the floor process's CPU
per action (its CPU seconds over the actions it carried out) beside the
load average, for each room count asked.
"""

import argparse
import asyncio
import base64
import hashlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import rules as rules_mod  # noqa: E402
from server import keepsmemo  # noqa: E402
from server.hub import state_due  # noqa: E402
from server.room import Room  # noqa: E402
from server.store import SqliteStore  # noqa: E402
from server.wsfast import apply_mask, frame_end, text_frame  # noqa: E402
from tools.serve_bench import (  # noqa: E402
    SEATS,
    Socket,
    beat_or_ping,
    cpu_seconds,
    free_port,
    raise_file_limit,
    waited_seconds,
)

EVENT_BYTES = 607  # an event message's size in the benchmark (bytes): what changed
GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455's
PONG = text_frame(b'{"t":"pong"}')
ACT = b'{"t":"act","a":["roll"]}'


def event_frame():
    """A frame of EVENT_BYTES of JSON text, shaped like an event."""
    head = b'{"t":"ev","n":1,"pad":"'
    return text_frame(head + b"x" * (EVENT_BYTES - len(head) - 2) + b'"}')


class FloorRoom:
    """A real room of four people playing in a real store (`--game`)."""

    store = None  # server.store.SqliteStore, made by `serve`
    made = 0

    def __init__(self):
        self.start()

    def start(self):
        """A new room of four people, started."""
        FloorRoom.made += 1
        self.room, _ = Room.create("floor%06d" % FloorRoom.made, "Anna", 4, [],
                                   rules_mod.preset("zehntausend"))
        for name in ("Bert", "Cleo", "Dora"):
            self.room.join(name)  # the fourth starts the game
        self.saved = 0
        self.save(self.room.take_messages(), True)

    def play(self):
        """The plain move of the seat to move; the messages' frames."""
        room = self.room
        game = room.game
        if game is None or game.phase == "over":
            self.start()
            room = self.room
            game = room.game
        legal = game.legal_actions()
        keeps = [a for a in legal if a[0] == "keep"]
        if keeps:
            action = max(keeps, key=lambda a: len(a[1]))
        elif ("pass",) in legal:
            action = ("pass",)
        elif ("bank",) in legal and game.turn_total >= 350:
            action = ("bank",)
        else:
            action = ("roll",)
        room.act(game.current, tuple(action))
        messages = room.take_messages()
        full = state_due(room, self.saved, messages)
        self.save(messages, full)
        if full:
            self.saved = room.seq
        return [text_frame(text.encode()) for _, text in messages]

    def save(self, messages, full):
        """SqliteStore's save, this thread waiting for its writer thread."""
        self.store.save_waiting(self.room.code, self.room.state, messages, full)


class FloorConn(asyncio.Protocol):
    """One WebSocket connection of the floor server: the handshake by
    hand, then text frames cut by server.wsfast.frame_end."""

    rooms = {}  # room name -> set of FloorConn
    games = None  # room name -> FloorRoom with --game, else None
    actions = 0
    event = event_frame()

    def __init__(self):
        self.transport = None
        self.buf = b""
        self.room = None

    def connection_made(self, transport):
        """Wait for the upgrade request."""
        self.transport = transport

    def data_received(self, data):
        """The handshake, then frames."""
        buf = self.buf + data if self.buf else data
        if self.room is None:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                self.buf = buf
                return
            self.handshake(buf[:end].decode("latin-1"))
            buf = buf[end + 4:]
        i = 0
        while i < len(buf):
            end = frame_end(buf, i, 1 << 16)
            if end is None:
                break
            if end < 0 or buf[i] & 15 == 8:
                self.transport.close()
                return
            size = buf[i + 1] & 0x7F
            head = i + (2 if size < 126 else 4)
            self.message(apply_mask(buf[head + 4:end], buf[head:head + 4]))
            i = end
        self.buf = buf[i:]

    def handshake(self, request):
        """Answer the upgrade and join the room named in the path."""
        lines = request.split("\r\n")
        self.room = lines[0].split()[1]
        key = ""
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "sec-websocket-key":
                key = value.strip()
        accept = base64.b64encode(hashlib.sha1((key + GUID).encode()).digest()).decode()
        self.transport.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n"
                              "Connection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n"
                              % accept).encode())
        FloorConn.rooms.setdefault(self.room, set()).add(self)

    def message(self, data):
        """A ping is answered; an action's event goes to the whole room."""
        msg = orjson.loads(data)
        if msg.get("t") == "ping":
            self.transport.write(PONG)
        elif msg.get("t") == "act":
            FloorConn.actions += 1
            games = FloorConn.games
            if games is None:
                frames = (FloorConn.event,)
            else:
                game = games.get(self.room)
                if game is None:
                    game = games[self.room] = FloorRoom()
                frames = game.play()
            conns = FloorConn.rooms.get(self.room, ())
            for frame in frames:
                for conn in conns:
                    conn.transport.write(frame)

    def connection_lost(self, exc):
        """Leave the room."""
        FloorConn.rooms.get(self.room, set()).discard(self)


async def serve(port, data=None):
    """Run the floor server on 127.0.0.1:`port` (with `data`, a folder:
    real rooms stored there, --game); writes the actions carried out to
    stdout once a second."""
    if data is not None:
        keepsmemo.install()  # as python -m server does
        FloorRoom.store = SqliteStore(data)
        FloorConn.games = {}
    loop = asyncio.get_running_loop()
    server = await loop.create_server(FloorConn, "127.0.0.1", port, backlog=4096)
    async with server:
        while True:
            await asyncio.sleep(1)
            print(FloorConn.actions, flush=True)


class FloorSeat:
    """A benchmark seat of the floor: a serve_bench Socket, counting the
    events that arrive."""

    def __init__(self):
        self.sock = None
        self.sent = 0.0
        self.heard = 0.0  # when a text frame last came (perf_counter; set by Socket)
        self.events = 0
        self.pongs = 0

    def message(self, payload, now):
        """A text frame arrived."""
        if payload.startswith(b'{"t":"ev"'):
            self.events += 1
        elif payload == b'{"t":"pong"}':
            self.pongs += 1

    def lost(self, sock):
        """The floor server closed (at the end)."""


async def drive(port, rooms, seconds):
    """Connect `rooms` rooms of four, play one action per room and second
    for `seconds`, pinging as the page does; the actions sent, and the
    events and pongs the seats received."""
    loop = asyncio.get_running_loop()
    seats = []
    for r in range(rooms):
        for _ in range(SEATS):
            seat = FloorSeat()
            _, sock = await loop.create_connection(lambda seat=seat: Socket(seat),
                                                   "127.0.0.1", port)
            seat.sock = sock
            sock.transport.write(("GET /r%d HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                                  "Connection: Upgrade\r\nSec-WebSocket-Key: "
                                  "dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13"
                                  "\r\n\r\n" % r).encode())
            await asyncio.wait_for(sock.handshake, 20)
            seats.append(seat)
    end = loop.time() + seconds
    turn = sent = 0
    phase = [r / rooms for r in range(rooms)]  # each room's action at its own moment
    start = loop.time()
    while loop.time() < end:
        tick = start + turn
        for r in range(rooms):
            await asyncio.sleep(max(0.0, tick + phase[r] - loop.time()))
            seats[r * SEATS + turn % SEATS].sock.send(ACT)
            sent += 1
            if r % 50 == 0:  # the page's heartbeat, every PING_EVERY s a seat
                beat_or_ping(seats)
        turn += 1
    await asyncio.sleep(0.5)
    for seat in seats:
        seat.sock.transport.close()
    return sent, sum(s.events for s in seats), sum(s.pongs for s in seats)


def start_floor(port, core=None, data=None):
    """The floor server process on 127.0.0.1:`port` (pinned to `core`;
    with `data`, a folder: real rooms, --game), once it listens."""
    cmd = [sys.executable, "-m", "tools.serve_floor", "--serve", str(port)]
    if data is not None:
        cmd += ["--data", str(data)]
    if core is not None and shutil.which("taskset"):
        cmd = ["taskset", "-c", str(core)] + cmd
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    end = time.monotonic() + 20
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            if time.monotonic() > end or proc.poll() is not None:
                proc.kill()
                raise RuntimeError("the floor server did not start")
            time.sleep(0.05)


def one_run(rooms, seconds, game=False, core_server=0, core_clients=1):
    """The floor process's CPU per action (ms) with `rooms` rooms (with
    `game`: real rooms in a store), and the load average before and after."""
    port = free_port()
    tmp = tempfile.TemporaryDirectory() if game else None
    proc = start_floor(port, core_server, tmp.name if tmp else None)
    try:
        os.sched_setaffinity(0, {core_clients})
        load0 = os.getloadavg()[0]

        async def run():
            warm = asyncio.create_task(drive(port, rooms, seconds + 3))
            await asyncio.sleep(3 + rooms * 0.004)  # connected and warm
            c0, q0, a0 = cpu_seconds(proc.pid), waited_seconds(proc.pid), last_count(proc)
            await asyncio.sleep(seconds - 1)
            c1, q1, a1 = cpu_seconds(proc.pid), waited_seconds(proc.pid), last_count(proc)
            await warm
            return c1 - c0, q1 - q0, a1 - a0

        cpu, waited, actions = asyncio.run(run())
    finally:
        proc.terminate()
        proc.wait(10)
        if tmp is not None:
            tmp.cleanup()
    return 1000 * cpu / max(1, actions), 1000 * waited / max(1, actions), actions, \
        (load0, os.getloadavg()[0])


_counts = {}


def last_count(proc):
    """The floor server's latest count of actions (it prints one a second)."""
    os.set_blocking(proc.stdout.fileno(), False)
    while True:
        line = proc.stdout.readline()
        if not line:
            break
        _counts[proc.pid] = int(line)
    return _counts.get(proc.pid, 0)


def main(argv=None):
    """Serve (--serve PORT) or measure and print the table."""
    p = argparse.ArgumentParser(prog="python -m tools.serve_floor",
                                description=__doc__.splitlines()[0])
    p.add_argument("--serve", type=int, metavar="PORT", help=argparse.SUPPRESS)
    p.add_argument("--rooms", type=int, nargs="*", default=[100, 250, 1000])
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--game", action="store_true",
                   help="real rooms: Room.act, SqliteStore.save (see above)")
    p.add_argument("--data", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.serve:
        try:
            import uvloop
            uvloop.run(serve(a.serve, a.data))
        except ImportError:
            asyncio.run(serve(a.serve, a.data))
        return 0
    raise_file_limit()
    print("| rooms | connections | floor CPU per action | wait for the core per action "
          "| actions | load average |")
    print("| --- | --- | --- | --- | --- | --- |")
    for rooms in a.rooms:
        runs = [one_run(rooms, a.seconds, a.game) for _ in range(a.runs)]
        print("| %d | %d | %.3f ms (%s) | %.3f ms | %d | %.2f to %.2f |" % (
            rooms, rooms * SEATS, statistics.median(r[0] for r in runs),
            ", ".join("%.3f" % r[0] for r in runs), statistics.median(r[1] for r in runs),
            statistics.median(r[2] for r in runs), min(r[3][0] for r in runs),
            max(r[3][1] for r in runs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
