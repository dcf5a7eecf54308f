"""Redis keeps its word (issue 31), with real redis-servers: the server
refuses to start on a Redis that keeps nothing on disk unless
--redis-may-forget says rooms may be lost; and when such a Redis comes
back empty, the connections of its rooms are closed with 4003 "lost"
(the page says so) instead of every action being refused."""

import asyncio
import subprocess
import sys
import time

import pytest

from server.client import Client, ServerRefused, create_room, http, join_room
from tests.server.conftest import FAST, ROOT, free_port


def test_no_persistence_no_start(redis_factory, tmp_path):
    r = redis_factory(keep=False)
    args = [sys.executable, "-m", "server", "--port", str(free_port()), "--redis", r.url,
            "--data", str(tmp_path), "--web", str(tmp_path / "noweb"), *FAST]
    run = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "refusing to start" in run.stderr and "--redis-may-forget" in run.stderr
    assert "Traceback" not in run.stderr
    r.stop()  # and a Redis that does not answer: no start either, flag or not
    run = subprocess.run(args + ["--redis-may-forget"], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and "not reachable" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


def test_a_redis_that_came_back_empty_closes_its_rooms(redis_factory, server_factory, figure):
    r = redis_factory(keep=False)
    s = server_factory("--redis", r.url, "--redis-may-forget")
    assert "a restart of Redis loses every room" in s.log_text()
    info = create_room(s.base, "Anna")
    bert = join_room(s.base, info["code"], "Bert")

    async def go():
        anna = Client(s.base, info["code"], info["token"])
        b = Client(s.base, info["code"], bert["token"])
        await anna.connect()
        await b.connect()
        await anna.until(lambda c: c.state["status"] == "playing")
        r.stop()
        r.start()  # empty: nothing was kept
        began = time.monotonic()
        codes = []
        for c in (anna, b):
            while await c.recv(15) is not None:
                pass
            codes.append((c.close_code, c.ws.close_reason))
        return codes, time.monotonic() - began

    codes, took = asyncio.run(go())
    assert codes == [(4003, "lost"), (4003, "lost")]
    figure("both told the room was lost %.1f s after Redis came back empty" % took)
    assert took < 60, "the seats were not told in time: %.1f s" % took  # only a hang
    # The room is gone for everyone, and the server serves new ones.
    with pytest.raises(ServerRefused) as e:
        http(s.base, "GET", "/api/rooms/" + info["code"])
    assert e.value.why == "no_room"
    assert http(s.base, "GET", "/api/health")["ok"]
    assert len(create_room(s.base, "Cleo")["code"]) == 12
    assert "Traceback" not in s.log_text()


def test_a_redis_down_too_long_closes_with_1013_and_the_room_goes_on(redis_factory,
                                                                       server_factory, figure):
    # Down, not empty: after --store-patience the connections are told
    # (1013 "store"; the room is not lost, so not 4003), every new one too
    # while Redis is down; when it is back with its file the seats come
    # back and the game goes on.
    r = redis_factory()  # with its append-only file
    s = server_factory("--redis", r.url, "--store-patience", "3")
    info = create_room(s.base, "Anna")
    bert = join_room(s.base, info["code"], "Bert")

    async def go():
        anna = Client(s.base, info["code"], info["token"])
        b = Client(s.base, info["code"], bert["token"])
        await anna.connect()
        await b.connect()
        await anna.until(lambda c: c.state["status"] == "playing")
        r.persist()  # the room is in the file
        r.stop(kill=True)
        began = time.monotonic()
        codes = []
        for c in (anna, b):
            while await c.recv(20) is not None:
                pass
            codes.append((c.close_code, c.ws.close_reason))
        took = time.monotonic() - began
        with pytest.raises(ConnectionError):  # a reconnect while it is down: told too
            await anna.reconnect()
        again = (anna.close_code, anna.ws.close_reason)
        r.start()
        for c in (anna, b):
            for _ in range(80):
                try:
                    await c.reconnect()
                    break
                except (ConnectionError, OSError):
                    await asyncio.sleep(0.25)
        me = anna if anna.my_turn() else b
        n = me.n
        await me.play(me.choose())
        for c in (anna, b):
            await c.close()
        return codes, took, again, me.n > n, me.refusals

    codes, took, again, moved, refusals = asyncio.run(asyncio.wait_for(go(), 90))
    assert codes == [(1013, "store"), (1013, "store")]
    figure("told after %.1f s with Redis down (--store-patience 3)" % took)
    assert took >= 3, "told before the patience ran out: %.1f s" % took  # by construction
    assert took < 60, "never told: %.1f s" % took  # only a hang
    assert again == (1013, "store")
    assert moved, refusals
    assert "Traceback" not in s.log_text()
    assert http(s.base, "GET", "/api/health")["connections"] == 0  # none left registered
