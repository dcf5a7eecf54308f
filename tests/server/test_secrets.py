"""Codes and tokens are secrets (issue 31): a stranger who reads every
endpoint of a real server learns no room code and no seat token, the
log names rooms by a tag only, the operator token shows the details,
and guessing codes is limited per address (HTTP and WebSocket)."""

import asyncio
import urllib.request

import pytest

from server.client import Client, ServerRefused, create_room, http, join_room
from server.names import new_code


def raw_get(base, path, headers=None):
    """Status and body text of a GET, whatever the status."""
    req = urllib.request.Request(base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


STRANGER_PATHS = ["/api/stats", "/api/health", "/api/reasons", "/online.json", "/",
                  "/index.html", "/api/rooms", "/api/rooms/" + "x" * 12,
                  "/api/rooms/%s/games/1" % ("y" * 12)]


# debug: the websockets library then logs every frame, hellos with tokens
# and welcomes with codes among them (server/logsafe.py keeps kind and size)
@pytest.mark.parametrize("level", ["info", "debug"])
def test_a_stranger_reads_every_endpoint_and_learns_no_code(server_factory, level):
    s = server_factory("--log", level, "--operator-token", "op-secret-1")
    info = create_room(s.base, "Anna", people=3, computers=["mutig"])
    bert = join_room(s.base, info["code"], "Bert")
    secrets = [info["code"], info["token"], bert["token"]]

    async def go():
        anna = Client(s.base, info["code"], info["token"])
        b = Client(s.base, info["code"], bert["token"])
        watcher = Client(s.base, info["code"])
        await anna.connect()
        await b.connect()
        await watcher.connect()
        await anna.send({"t": "start"})
        await anna.until(lambda c: c.state["status"] == "playing")
        seen = {}
        for path in STRANGER_PATHS:
            seen[path] = raw_get(s.base, path)
        # A wrong bearer is a stranger too.
        seen["stats, wrong token"] = raw_get(s.base, "/api/stats",
                                             {"Authorization": "Bearer op-secret-2"})
        operator = http(s.base, "GET", "/api/stats",
                        headers={"Authorization": "Bearer op-secret-1"})
        for c in (anna, b, watcher):
            await c.close()
        return seen, operator

    seen, operator = asyncio.run(go())
    for path, (status, text) in seen.items():
        assert status != 500, (path, status)
        for secret in secrets:
            assert secret not in text, (path, text)
    stats = http(s.base, "GET", "/api/stats")
    assert stats["rooms"] == 1 and isinstance(stats["present"], int)  # counts only
    assert "rooms_detail" not in stats
    # The operator sees the room, by its code.
    assert info["code"] in operator["rooms_detail"]
    log = s.log_text()
    assert "/ws/#" in log  # uvicorn's line of each WebSocket is there, with a tag
    if level == "debug":  # the frames are logged, without their text
        assert "< TEXT [" in log and "> TEXT [" in log, log[-2000:]
    for secret in secrets:
        assert secret not in log


def test_guessing_codes_is_limited_per_address(server_factory):
    s = server_factory("--guess-limit", "5")
    info = create_room(s.base, "Anna")
    for _ in range(3):
        with pytest.raises(ServerRefused) as e:
            http(s.base, "GET", "/api/rooms/" + new_code())
        assert e.value.status == 404 and e.value.why == "no_room"

    async def guess_by_socket():
        c = Client(s.base, new_code())  # a wrong code over the WebSocket counts too
        with pytest.raises(ConnectionError):
            await c.connect()
        assert c.close_code == 4003
        c = Client(s.base, info["code"], "not-the-token")  # and a wrong token
        with pytest.raises(ConnectionError):
            await c.connect()
        assert c.close_code == 4001

    asyncio.run(guess_by_socket())
    # Five guesses used: a wrong code is refused now (HTTP 429, WebSocket 1008) ...
    with pytest.raises(ServerRefused) as e:
        http(s.base, "GET", "/api/rooms/" + new_code())
    assert e.value.status == 429 and e.value.why == "too_many_guesses"

    async def refused_socket():
        c = Client(s.base, new_code())
        with pytest.raises(ConnectionError):
            await c.connect()
        assert c.close_code == 1008
        c = Client(s.base, info["code"], "not-the-token")
        with pytest.raises(ConnectionError):
            await c.connect()
        assert c.close_code == 1008
        # ... and a room that exists is not locked out: a shared address's players play on
        await Client(s.base, info["code"], info["token"]).connect()

    asyncio.run(refused_socket())
    assert http(s.base, "GET", "/api/rooms/" + info["code"])["code"] == info["code"]
    assert join_room(s.base, info["code"], "Bert")["seat"] == 1
    # Creating rooms is not guessing: still allowed.
    assert len(create_room(s.base, "Cleo")["code"]) == 12
    # Without --operator-token no bearer shows details, an empty one neither.
    for bearer in ("Bearer ", "Bearer", ""):
        stats = http(s.base, "GET", "/api/stats", headers={"Authorization": bearer})
        assert "rooms_detail" not in stats and info["code"] not in str(stats)
