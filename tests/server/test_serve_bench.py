"""tools/serve_bench.py measures another checkout's server (--tree) with
this benchmark: that server is given only the options it knows, and the
seats' heartbeat is a ping when it predates the beat. (The benchmark's
figures are `make serve-bench`.)"""

import json

import pytest

from tools import serve_bench

# An older tree's server: it knows --port and --data only, answers
# /api/stats without a "beats" count and writes the options it got.
OLD_SERVER = '''
import json, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
KNOWN = ("--port", "--data")
args = sys.argv[1:]
port = int(args[args.index("--port") + 1])
with open(args[args.index("--data") + 1] + "/argv.json", "w") as f:
    json.dump(args, f)


class Stats(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"actions": 0}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


HTTPServer(("127.0.0.1", port), Stats).serve_forever()
'''


@pytest.fixture
def old_tree(tmp_path, monkeypatch):
    tree = tmp_path / "tree"
    (tree / "server").mkdir(parents=True)
    (tree / "server" / "__init__.py").write_text("")
    (tree / "server" / "__main__.py").write_text(OLD_SERVER)
    monkeypatch.setattr(serve_bench, "TREE", tree)
    monkeypatch.setattr(serve_bench, "BEATS", True)
    return tree


def test_an_older_trees_server_gets_only_its_options_and_pings(old_tree, tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    server = serve_bench.Server(data)
    try:
        argv = json.loads((data / "argv.json").read_text())
    finally:
        server.stop()
    assert argv == ["--port", str(server.port), "--data", str(data)]
    assert "--rate" in server.dropped and "--data" not in server.dropped
    assert serve_bench.BEATS is False  # no "beats" in its /api/stats: the seats ping


class Sock:
    def __init__(self):
        self.sent = []

    def send(self, data):
        self.sent.append(data)


class Seat:
    sent = 0.0  # sent nothing since the clock's start: due

    def __init__(self):
        self.sock = Sock()
        self.heard = float("inf")  # a message just came: a beat, where the server knows it


@pytest.mark.parametrize("beats, sent", [(True, serve_bench.BEAT), (False, serve_bench.PING)])
def test_the_heartbeat_is_a_ping_for_a_server_without_the_beat(monkeypatch, beats, sent):
    monkeypatch.setattr(serve_bench, "BEATS", beats)
    seat = Seat()
    serve_bench.beat_or_ping([seat])
    assert seat.sock.sent == [sent]


def test_this_trees_server_gets_every_option_and_counts_beats(tmp_path, monkeypatch):
    # (a flag spelled otherwise in server/__main__.py would be dropped
    # without a word, and the benchmark's rate limits with it)
    monkeypatch.setattr(serve_bench, "BEATS", False)
    server = serve_bench.Server(tmp_path)
    server.stop()
    assert server.dropped == []
    assert serve_bench.BEATS is True
