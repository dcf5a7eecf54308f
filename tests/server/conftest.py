"""Real servers for the room tests: `python -m server` processes on
127.0.0.1 at free ports, with short timings, and real redis-servers on
loopback ports (their files under the test's tmp folder). Everything is
stopped by the fixtures; nothing listens beyond loopback."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
pytest.importorskip("jsonschema", reason="the server group is missing (make test installs it)")

from server import client  # noqa: E402
from tests.server import schema  # noqa: E402

client.CHECK = schema.check  # every message the tests receive, against the protocol's schema
# A request's bound: only a hang reaches it (room creations that solve
# plans queue behind each other, and took over 10 s on a busy machine).
client.HTTP_TIMEOUT = 120

ROOT = Path(__file__).resolve().parents[2]
# Short timings: away after 0.4 s, a stand-in after 0.8 s more, computers
# without the device's pause, the rate limit out of the way of fast play.
FAST = ["--bot-pace", "0.01", "--away-after", "0.4", "--standin-after", "0.8",
        "--rate", "2000", "--burst", "2000", "--heartbeat", "5", "--lease", "2",
        "--unload-after", "3"]


def free_port():
    """A TCP port nobody listens on at the moment."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProc:
    """One `python -m server` process."""

    def __init__(self, tmp, *extra):
        tmp.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.base = "http://127.0.0.1:%d" % self.port
        self.args = [sys.executable, "-m", "server", "--port", str(self.port),
                     "--data", str(tmp), "--web", str(tmp / "noweb"), *FAST, *extra]
        self.log = open(tmp / ("server-%d.log" % self.port), "w")
        self.proc = None
        self.start()

    def start(self):
        """Start (again, on the same port and data)."""
        self.proc = subprocess.Popen(self.args, cwd=ROOT, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError("server exited: see %s" % self.log.name)
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def stop(self):
        """SIGTERM and wait."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def kill9(self):
        """SIGKILL: no goodbye, no cleanup."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def log_text(self):
        """What the process wrote so far."""
        self.log.flush()
        return Path(self.log.name).read_text()


@pytest.fixture
def server_factory(tmp_path):
    """Make servers (`factory(*extra_args)`); all stopped at the end."""
    made = []

    def make(*extra, data=None):
        s = ServerProc(data or tmp_path, *extra)
        made.append(s)
        return s

    yield make
    for s in made:  # every one stopped before anything else can fail
        s.stop()
    for s in made:
        # Shown by pytest when the test failed (captured output).
        print("--- %s\n%s" % (s.log.name, "\n".join(s.log_text().splitlines()[-60:])))
        s.log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server shared by a module's tests."""
    s = ServerProc(tmp_path_factory.mktemp("server"))
    yield s
    s.stop()
    s.log.close()


class RedisProc:
    """A real redis-server on a loopback port, its files in `folder`;
    `keep` turns on its append-only file (a server refuses to start on a
    Redis that keeps nothing unless told --redis-may-forget)."""

    def __init__(self, folder, keep=True):
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.skip("no redis-server installed (apt-get install redis-server)")
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = "redis://127.0.0.1:%d/0" % self.port
        self.args = [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "yes" if keep else "no", "--dir", str(folder)]
        self.proc = None
        self.start()

    def start(self):
        """Start (again, on the same port and folder) and wait for PONG."""
        self.proc = subprocess.Popen(self.args, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        end = time.monotonic() + 10
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                if time.monotonic() > end:
                    self.proc.kill()
                    raise
                time.sleep(0.05)

    def command(self, *words):
        """One command over a plain socket; the raw answer (RESP)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(b"*%d\r\n" % len(words) + b"".join(
                b"$%d\r\n%s\r\n" % (len(w), w.encode()) for w in words))
            answer = b""
            while not answer.endswith(b"\r\n") or answer.startswith(b"$") and (
                    answer.count(b"\r\n") < 2):
                chunk = s.recv(65536)
                if not chunk:
                    break
                answer += chunk
            return answer.decode()

    def persist(self, limit_s=30):
        """Until everything in memory now is in the append-only file (a
        rewrite of it, finished): a kill after this loses nothing, where
        `appendfsync everysec` alone leaves up to a second unwritten."""
        self.command("BGREWRITEAOF")
        end = time.monotonic() + limit_s
        while True:
            info = self.command("INFO", "persistence")
            if ("aof_rewrite_in_progress:0" in info and "aof_rewrite_scheduled:0" in info
                    and "aof_last_bgrewrite_status:ok" in info):
                return
            assert time.monotonic() < end, "the append-only file was not rewritten: " + info
            time.sleep(0.05)

    def stop(self, kill=False):
        """SIGTERM (or SIGKILL) and wait."""
        if self.proc is not None and self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
            self.proc.wait(10)


@pytest.fixture
def redis_factory(tmp_path):
    """Make redis-servers (`factory(keep=True)`); all stopped at the end."""
    made = []

    def make(keep=True):
        r = RedisProc(tmp_path / ("redis-%d" % len(made)), keep)
        made.append(r)
        return r

    yield make
    for r in made:
        r.stop()


@pytest.fixture
def redis_url(redis_factory):
    """The URL of a real redis-server on a loopback port (with its
    append-only file, as a server wants it)."""
    return redis_factory().url
