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
             is the take-over time

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

from server.client import Client, create_room, join_room  # noqa: E402

SEATS = 4
NAMES = ("Anna", "Bert", "Cleo", "Dora")
RECONNECT_SHARE = 0.03  # of the actions: one seat drops before it and reconnects after


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


def get(base, path):
    """GET a JSON answer."""
    with urllib.request.urlopen(base + path, timeout=10) as r:
        return json.loads(r.read())


class Server:
    """One `python -m server` process for the benchmark."""

    def __init__(self, data, core=None, redis=""):
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        cmd = [sys.executable, "-m", "server", "--port", str(self.port), "--data", str(data),
               "--web", str(Path(data) / "noweb"), "--rate", "50", "--burst", "50",
               "--room-limit", "100000", "--away-after", "600", "--standin-after", "600",
               "--unload-after", "600", "--log", "error"]
        if redis:
            cmd += ["--redis", redis]
        if core is not None and shutil.which("taskset"):
            cmd = ["taskset", "-c", str(core)] + cmd
        self.proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 30
        while True:
            try:
                get(self.base, "/api/health")
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
    """A redis-server on a loopback port that keeps nothing on disk."""

    def __init__(self, folder):
        self.port = free_port()
        self.url = "redis://127.0.0.1:%d/0" % self.port
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(folder), "--maxclients", "10000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(0.5)

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
        self.timeouts = 0
        self.resumed = {}  # room -> seconds from the kill to its next event


async def connect_all(rooms):
    """Clients for every seat, connected (50 at a time)."""
    gate = asyncio.Semaphore(50)

    async def one(code, base, token):
        async with gate:
            c = Client(base, code, token)
            await c.connect()
            return c

    out = []
    for code, seats in rooms:
        out.append(asyncio.gather(*[one(code, b, t) for b, t in seats]))
    return await asyncio.gather(*out)


def mover_of(clients):
    """The client whose turn it is, by the freshest state."""
    fresh = max(clients, key=lambda c: c.n)
    for c in clients:
        if c.seat == fresh.state["cur"]:
            return c, fresh
    return None, fresh


async def drive(clients, until, tally, measure_from, killed=None, bases=None):
    """One room: one action a second until `until` (loop time)."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.random())
    while loop.time() < until:
        tick = loop.time() + 1.0
        try:
            mover, fresh = mover_of(clients)
            for c in clients:
                if c.n < fresh.n:
                    await c.until(lambda c, n=fresh.n: c.n >= n, 10)
            victim = None
            if random.random() < RECONNECT_SHARE:
                victim = random.choice([c for c in clients if c is not mover])
                await victim.close()
            n = fresh.n
            refused = len(mover.refusals)
            began = time.perf_counter()
            await mover.act(mover.choose())
            await mover.until(lambda c, n=n, r=refused: c.n > n or len(c.refusals) > r, 15)
            if len(mover.refusals) > refused:
                tally.refused += 1
                tick = loop.time() + 0.25
            else:
                others = [c for c in clients if c is not victim and c is not mover]
                await asyncio.gather(*[c.until(lambda c, n=n: c.n > n, 15) for c in others])
                if loop.time() >= measure_from:
                    tally.latency.append(max(c.received_at for c in others + [mover]) - began)
                if killed is not None and killed[0] and id(clients) not in tally.resumed:
                    tally.resumed[id(clients)] = time.monotonic() - killed[0]
            if victim is not None:
                began = time.perf_counter()
                await victim.reconnect()
                if loop.time() >= measure_from:
                    tally.reconnect.append(time.perf_counter() - began)
        except (asyncio.TimeoutError, ConnectionError, OSError):
            tally.timeouts += 1
            if killed is not None and killed[0]:
                await reconnect_lost(clients, bases)
        await asyncio.sleep(max(0.0, tick - loop.time()))


async def reconnect_lost(clients, bases):
    """After a kill: clients of the dead process reconnect to a live one."""
    for c in clients:
        if c.ws is None or c.ws.close_code is not None:
            for base in bases:
                try:
                    await c.reconnect(base)
                    break
                except (ConnectionError, OSError):
                    await asyncio.sleep(0.2)


def pct(values, p):
    """The p-th percentile in ms ("-" when there is nothing)."""
    if not values:
        return float("nan")
    values = sorted(values)
    return 1000 * values[min(len(values) - 1, int(len(values) * p / 100))]


async def play(rooms_clients, seconds, warm=3.0, kill=None, bases=None):
    """Drive every room for `warm` + `seconds`; kill = (seconds in, fn)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    tally = Tally()
    killed = [0.0]
    tasks = [asyncio.create_task(drive(cl, start + warm + seconds, tally, start + warm, killed,
                                       bases)) for cl in rooms_clients]
    if kill is not None:
        await asyncio.sleep(warm + kill[0])
        kill[1]()
        killed[0] = time.monotonic()
    await asyncio.gather(*tasks)
    return tally


async def close_all(rooms_clients):
    """Close every client."""
    await asyncio.gather(*[c.close() for cl in rooms_clients for c in cl],
                         return_exceptions=True)


def scenario_single(rooms, seconds, core_server, core_clients):
    """One SQLite server on one core: latency, memory, time split."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(tmp, core=core_server)
        try:
            made = make_rooms([server.base], rooms)
            before_rss = rss_kib(server.proc.pid)

            async def run():
                if core_clients is not None:
                    os.sched_setaffinity(0, {core_clients})
                cl = await connect_all(made)
                after_rss = rss_kib(server.proc.pid)
                s0 = get(server.base, "/api/stats")
                c0 = cpu_seconds(server.proc.pid)
                w0 = time.monotonic()
                tally = await play(cl, seconds)
                wall = time.monotonic() - w0
                s1 = get(server.base, "/api/stats")
                c1 = cpu_seconds(server.proc.pid)
                await close_all(cl)
                return tally, after_rss, s0, s1, (c1 - c0) / wall

            tally, after_rss, s0, s1, cpu = asyncio.run(run())
        finally:
            server.stop()
    n = max(1, s1["actions"] - s0["actions"])
    split = {k: 1000 * (s1[k] - s0[k]) / n for k in ("apply", "store", "send")}
    return {"tally": tally, "mem_kib": (after_rss - before_rss) / (rooms * SEATS),
            "cpu": cpu, "split": split, "actions": n}


def scenario_redis(rooms, seconds, kill_after):
    """Two processes and Redis; one process killed after `kill_after` s."""
    with tempfile.TemporaryDirectory() as tmp:
        redis = Redis(tmp)
        servers = []
        try:
            servers = [Server(Path(tmp) / "a", redis=redis.url),
                       Server(Path(tmp) / "b", redis=redis.url)]
            bases = [s.base for s in servers]
            made = make_rooms(bases, rooms)

            async def run():
                cl = await connect_all(made)
                tally = await play(cl, seconds)
                victim = servers[0]
                survivors = [servers[1].base]

                def kill():
                    os.kill(victim.proc.pid, signal.SIGKILL)

                after = await play(cl, kill_after + 15, warm=0.0, kill=(kill_after, kill),
                                   bases=survivors)
                await close_all(cl)
                return tally, after

            tally, after = asyncio.run(run())
        finally:
            for s in servers:
                s.stop()
            redis.stop()
    resumed = list(after.resumed.values())
    return {"tally": tally, "takeover": max(resumed) if resumed else float("nan"),
            "resumed": len(resumed)}


def main(argv=None):
    """Run the scenarios and print the table."""
    p = argparse.ArgumentParser(prog="python -m tools.serve_bench",
                                description=__doc__.splitlines()[0])
    p.add_argument("--small", type=int, default=250, help="rooms in the small scenario")
    p.add_argument("--large", type=int, default=1000, help="rooms in the large scenario")
    p.add_argument("--seconds", type=float, default=20, help="measured seconds per scenario")
    p.add_argument("--runs", type=int, default=1, help="runs per scenario (medians printed)")
    p.add_argument("--only", nargs="*", default=["small", "large", "redis"],
                   choices=["small", "large", "redis"])
    a = p.parse_args(argv)
    limit = raise_file_limit()
    if limit < a.large * SEATS * 2 + 100 and "large" in a.only:
        print("the file limit (%d) is too low for %d connections" % (limit, a.large * SEATS))
        return 1
    cores = len(os.sched_getaffinity(0))
    server_core, client_core = (0, 1) if cores >= 2 else (None, None)
    rows = []
    notes = []

    def median(runs, f):
        return statistics.median(f(r) for r in runs)

    for name in a.only:
        if name == "redis" and shutil.which("redis-server") is None:
            notes.append("redis: skipped, no redis-server installed")
            continue
        runs = []
        for _ in range(a.runs):
            try:
                if name == "redis":
                    runs.append(scenario_redis(a.small, a.seconds, 5))
                else:
                    rooms = a.small if name == "small" else a.large
                    runs.append(scenario_single(rooms, a.seconds, server_core, client_core))
            except Exception as e:  # one scenario's failure is reported, the others run
                notes.append("%s: a run failed: %r" % (name, e))
            if runs:
                print("%s run %d: p50 %.1f ms, p99 %.1f ms" % (
                    name, len(runs), pct(runs[-1]["tally"].latency, 50),
                    pct(runs[-1]["tally"].latency, 99)), flush=True)
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
            row["mem"] = median(runs, lambda r: r["mem_kib"])
            row["cpu"] = median(runs, lambda r: r["cpu"])
            split = {k: median(runs, lambda r, k=k: r["split"][k]) for k in
                     ("apply", "store", "send")}
            notes.append("%s: server CPU %.0f%% of one core; per action %.2f ms engine and "
                         "messages, %.2f ms SQLite, %.2f ms handing to the sockets" % (
                             name, 100 * row["cpu"], split["apply"], split["store"],
                             split["send"]))
        else:
            row["takeover"] = median(runs, lambda r: r["takeover"])
        rows.append(row)

    print()
    print("| scenario | rooms | connections | action to every seat p50 | p99 | reconnect to "
          "caught up p99 | memory per connection | take-over after kill -9 | samples |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for r in rows:
        label = {"small": "one process, one core", "large": "one process, one core",
                 "redis": "two processes + Redis"}[r["scenario"]]
        print("| %s | %d | %d | %.1f ms | %.1f ms | %.0f ms | %s | %s | %d%s |" % (
            label, r["rooms"], r["conns"], r["p50"], r["p99"], r["rec99"],
            "%.1f KiB" % r["mem"] if "mem" in r else "-",
            "%.1f s" % r["takeover"] if "takeover" in r else "-", r["samples"],
            " (%d refused or late)" % r["bad"] if r["bad"] else ""))
    for note in notes:
        print("- " + note)
    print("(%d run(s) per scenario, medians; %.0f s measured each; python -m tools.serve_bench)"
          % (a.runs, a.seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
