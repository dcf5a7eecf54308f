"""Every bad input gets a refusal (issue 31): deep nesting, huge numbers,
non-finite numbers, bad UTF-8 and a store that is down, over HTTP and
the WebSocket of a real server; hypothesis sends random bodies and
paths. None gets a 500 or a close 1011, and the server's log has no
traceback."""

import asyncio
import http.client
import json
import signal
import time
from urllib.parse import quote

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect as ws_connect

from engine.game import REASONS
from server.client import Client, create_room, join_room
from server.client import http as http_json
from server.reasons import TEXTS

KNOWN = set(TEXTS["en"]) | set(REASONS)
DEEP = "[" * 5000 + "]" * 5000


def request(base, method, path, body=b"", headers=None):
    """Status and parsed JSON body (None when not JSON) of one request."""
    host = base.split("//")[1]
    conn = http.client.HTTPConnection(host, timeout=20)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        raw = r.read()
    finally:
        conn.close()
    try:
        return r.status, json.loads(raw)
    except ValueError:
        return r.status, None


def assert_clean(server):
    log = server.log_text()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]


def test_bad_http_bodies_and_paths(server_factory):
    s = server_factory()
    info = create_room(s.base, "Anna")
    for body in [DEEP, '{"name": ' + DEEP + "}", '{"name": "Anna", "people": 1e999}',
                 '{"name": "Anna", "people": NaN}', '{"name": "Anna", "people": Infinity}',
                 '{"name": "Anna", "people": ' + "9" * 5000 + "}", "\xff\xfe", '"x"', "[]"]:
        status, answer = request(s.base, "POST", "/api/rooms", body.encode("latin-1"))
        assert status == 400 and answer["why"] == "message", (body[:40], status, answer)
        status, answer = request(s.base, "POST", "/api/rooms/%s/join" % info["code"],
                                 body.encode("latin-1"))
        assert status == 400 and answer["why"] == "message", (body[:40], status, answer)
    status, answer = request(s.base, "GET", "/api/rooms/%s/games/%s" % (info["code"], "7" * 5000))
    assert status == 404 and answer["why"] == "no_record"
    status, answer = request(s.base, "GET", "/api/rooms/%s/games/-1" % info["code"])
    assert status == 404 and answer["why"] == "no_record"
    # The room is untouched and the server well.
    assert http_json(s.base, "GET", "/api/rooms/" + info["code"])["status"] == "lobby"
    assert http_json(s.base, "GET", "/api/health")["ok"]
    assert_clean(s)


def test_bad_websocket_messages(server_factory):
    s = server_factory()
    info = create_room(s.base, "Anna")
    bert = join_room(s.base, info["code"], "Bert")

    async def go():
        b = Client(s.base, info["code"], bert["token"])
        await b.connect()
        for msg in [DEEP, '{"t": "act", "a": ' + DEEP + "}", '{"t": "act", "id": 1e999}',
                    '{"t": "act", "id": NaN}', '{"t": "act", "id": -Infinity}',
                    '{"t": "act", "id": ' + "9" * 5000 + "}", '{"t": "act", "id": "\\ud800"}']:
            refused = len(b.refusals)
            await b.send(msg)
            reply = await b.until(lambda c, k=refused: len(c.refusals) > k, 10)
            assert reply["why"] == "message", (msg[:30], reply)
            assert "re" not in reply  # the id was not understood: nothing is echoed
        # The connection still works.
        await b.send({"t": "ping"})
        await b.close()
        # Invalid UTF-8 in a text frame: closed with 1007, no traceback.
        url = s.base.replace("http", "ws") + "/ws/" + info["code"]
        async with ws_connect(url) as ws:
            await ws.send(b'{"t": "watch", "x": "\xff\xfe"}', text=True)
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            except Exception:
                pass
            return ws.close_code

    assert asyncio.run(go()) == 1007
    assert_clean(s)


def test_store_down_is_a_refusal_and_health_says_so(server_factory, redis_factory):
    r = redis_factory()
    s = server_factory("--redis", r.url)
    info = create_room(s.base, "Anna")
    r.stop(kill=True)
    status, answer = request(s.base, "POST", "/api/rooms", b'{"name": "Bert"}')
    assert status == 503 and answer == {"why": "server", "values": []}
    status, answer = request(s.base, "GET", "/api/rooms/" + "z" * 12)
    assert status == 503 and answer["why"] == "server"
    status, answer = request(s.base, "GET", "/api/health")
    assert status == 503 and answer["ok"] is False and answer["why"] == "store"
    r.start()  # it kept its file: the room is back
    assert http_json(s.base, "GET", "/api/rooms/" + info["code"])["status"] == "lobby"
    assert http_json(s.base, "GET", "/api/health")["ok"]
    log = s.log_text()
    assert "Traceback" not in log and "the store failed" in log


# Any text as path segments, percent-encoded as a client must send it.
paths = st.lists(st.text(max_size=30), min_size=1, max_size=5).map(
    lambda p: "/".join(quote(part, safe="") for part in p))
bodies = st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode),
                   st.recursive(st.none() | st.booleans() | st.floats() | st.integers()
                                | st.text(max_size=10),
                                lambda inner: st.lists(inner, max_size=4)
                                | st.dictionaries(st.sampled_from(
                                    ["name", "people", "computers", "rules", "preset",
                                     "target", "x"]), inner, max_size=4),
                                max_leaves=10).map(lambda v: json.dumps(v).encode()))


def test_random_http_requests_get_refusals(server_factory):
    s = server_factory("--guess-limit", "100000", "--room-limit", "100000")
    info = create_room(s.base, "Anna")
    statuses = []

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(path=paths, body=bodies, method=st.sampled_from(["GET", "POST"]),
           prefix=st.sampled_from(["/api/rooms/", "/api/rooms/%s/" % info["code"], "/api/",
                                   "/ws/", "/"]))
    def one(path, body, method, prefix):
        full = prefix + path.lstrip("/")
        status, answer = request(s.base, method, full, body if method == "POST" else b"")
        statuses.append(status)
        if full == "/" and method == "GET":  # no page built here: 503 and a note saying so
            assert status == 503
            return
        assert status < 500 or status == 503 and answer == {"why": "server", "values": []}
        if status >= 400 and answer is not None and "why" in answer:
            assert answer["why"] in KNOWN

    one()
    assert 500 not in statuses
    # Random create bodies: every one a room or a refusal with a reason.
    @settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=bodies)
    def create(body):
        status, answer = request(s.base, "POST", "/api/rooms", body)
        assert status == 200 or (400 <= status < 500 and answer["why"] in KNOWN), (status, answer)

    create()
    assert http_json(s.base, "GET", "/api/health")["ok"]
    assert_clean(s)


def test_a_hung_store_is_a_refusal_too(server_factory, redis_factory, figure):
    r = redis_factory()
    s = server_factory("--redis", r.url)
    create_room(s.base, "Anna")
    r.proc.send_signal(signal.SIGSTOP)  # silent, not gone: no FIN, no answer
    try:
        began = time.monotonic()
        status, answer = request(s.base, "POST", "/api/rooms", b'{"name": "Bert"}')
        took = time.monotonic() - began
    finally:
        r.proc.send_signal(signal.SIGCONT)
    assert status == 503 and answer == {"why": "server", "values": []}
    figure("a hung store refused after %.1f s" % took)
    assert took < 60, "the request hung with the store: %.1f s" % took  # only a hang
    assert len(create_room(s.base, "Cleo")["code"]) == 12  # back when Redis is
    assert "Traceback" not in s.log_text()
