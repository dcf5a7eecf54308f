"""Rooms through a real uvicorn server and real WebSockets: creating,
joining, starting, a whole game of two people and a computer, the dice
check, reload with the token, a wrong token, a second tab, a spectator,
and the limits on names, seats and rules."""

import asyncio
import json
import subprocess
import sys
import time
import urllib.request

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from server.client import Client, ServerRefused, create_room, http, join_room
from tests.server.conftest import ROOT
from tests.server.play import over, play_until


def run(coro):
    return asyncio.run(coro)


def test_create_join_start(server):
    info = create_room(server.base, "Anna", people=3, computers=["vorsichtig"])
    assert len(info["code"]) == 12 and len(info["token"]) >= 32  # 72 and 192 random bits
    state = http(server.base, "GET", "/api/rooms/" + info["code"])
    assert state["status"] == "lobby"
    assert [s and s["name"] for s in state["seats"]] == ["Anna", None, None, "Vorsichtig 1"]
    assert "token" not in json.dumps(state)  # never the tokens or their hashes
    bert = join_room(server.base, info["code"], "Bert")
    assert bert["seat"] == 1
    with pytest.raises(ServerRefused) as e:
        join_room(server.base, info["code"], "bert")  # names are unique, any case
    assert e.value.why == "name_taken"

    async def go():
        anna = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await anna.connect()
        await b.connect()
        await b.send({"t": "start"})
        await b.until(lambda c: c.refusals)
        assert b.refusals[0]["why"] == "creator_only"
        await anna.send({"t": "start"})
        await anna.until(lambda c: c.state["status"] == "playing")
        assert len(anna.state["commit"]) == 64 and "secret" not in anna.state
        # The free seat stays as a seat that left at once: numbers do not move.
        assert [s and s["name"] for s in anna.state["seats"]] == [
            "Anna", "Bert", None, "Vorsichtig 1"]
        await anna.close()
        await b.close()

    run(go())
    with pytest.raises(ServerRefused) as e:
        join_room(server.base, info["code"], "Cleo")
    assert e.value.why == "started"


def test_room_starts_when_full_and_creator_needs_people(server):
    info = create_room(server.base, "Anna", people=2)

    async def alone():
        anna = Client(server.base, info["code"], info["token"])
        await anna.connect()
        await anna.send({"t": "start"})
        await anna.until(lambda c: c.refusals)
        assert anna.refusals[0] == {"t": "no", "why": "people", "values": [2]}
        await anna.close()

    run(alone())
    join_room(server.base, info["code"], "Bert")
    assert http(server.base, "GET", "/api/rooms/" + info["code"])["status"] == "playing"


@pytest.mark.parametrize("body, why", [
    ({"name": "<b>Anna</b>"}, "name"),
    ({"name": ""}, "name"),
    ({"name": "A" * 13}, "name"),
    ({"name": "Anna", "people": 1}, "people"),  # (issue 33: the reason that names people)
    ({"name": "Anna", "people": 4, "computers": ["profi"] * 5}, "seats"),
    ({"name": "Anna", "people": 2, "computers": ["mutig"] * 6}, "computers"),
    ({"name": "Anna", "computers": ["gott"]}, "level"),
    ({"name": "Anna", "preset": "nope"}, "rules"),
    ({"name": "Anna", "target": 10001}, "rules"),
    ({"name": "Anna", "rules": "R1,garbage"}, "rules"),
    ({"name": "Anna", "wait": 45}, "wait"),  # (the waits a room may choose: 15, 30, 60)
    ({"name": "Anna", "wait": "30"}, "wait"),
    ([1, 2], "message"),
])
def test_create_refusals(server, body, why):
    with pytest.raises(ServerRefused) as e:
        http(server.base, "POST", "/api/rooms", body)
    assert e.value.why == why


def test_a_room_keeps_the_wait_its_creator_chose(server):
    # (the server's own wait, --standin-after 0.8 here, is what online.json offers first)
    offer = http(server.base, "GET", "/online.json")
    assert offer == {"rooms": True, "wait": 0.8, "waits": [15, 30, 60]}, offer
    info = create_room(server.base, "Anna", wait=60)
    join_room(server.base, info["code"], "Bea")  # the last seat: the game starts, nobody is there
    end = time.monotonic() + 10
    state = http(server.base, "GET", "/api/rooms/" + info["code"])
    while state["standin_at"] is None and time.monotonic() < end:
        time.sleep(0.05)
        state = http(server.base, "GET", "/api/rooms/" + info["code"])
    assert state["standin_at"] is not None, state["seats"]
    assert 57 <= state["standin_at"] - time.time() <= 60.5, state["standin_at"] - time.time()


def test_custom_rules_and_target(server):
    from engine.rules import preset

    rules = preset("punktlandung").encode()
    info = create_room(server.base, "Anna", rules=rules, target=3000)
    state = http(server.base, "GET", "/api/rooms/" + info["code"])
    assert state["rules"] == preset("punktlandung").replace(target=3000).encode()


def test_whole_game_two_people_and_a_computer_and_the_dice_check(server, tmp_path):
    info = create_room(server.base, "Anna", people=2, computers=["meister"], target=2000)
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        await play_until([a, b], over)
        assert a.events == b.events  # the same numbered events, no gap (Client checks)
        kinds = {e["k"] for _, e in a.events}
        assert {"act", "over"} <= kinds  # the start came before: in the snapshot
        by = {e["by"] for _, e in a.events if e["k"] == "act"}
        assert by == {"p", "c"}  # people and the computer both played
        final = a.state
        # Rematch in the same room, by agreement: Bert's yes alone starts
        # nothing (the results stay, the computer's yes is counted), Anna's
        # starts game 2 with a new commitment; game 1's record stays.
        await b.send({"t": "rematch"})
        await a.until(lambda c: c.events[-1][1]["k"] == "rematch")
        assert a.state["status"] == "over" and a.state["rematch"] == [1, 2]
        assert a.state["records"] == [1] and a.state["secret"] == final["secret"]
        await b.send({"t": "rematch"})  # a second yes changes nothing
        await a.send({"t": "rematch"})
        await a.until(lambda c: c.state["status"] == "playing")
        assert [e["k"] for _, e in a.events[-3:]] == ["rematch", "rematch", "start"]
        assert a.state["records"] == [1]
        assert a.state["g"] == 2 and a.state["commit"] != final["commit"]
        assert a.state["rolls"] == 0 and "secret" not in a.state
        await a.close()
        await b.close()
        return final

    final = run(go())
    assert final["winner"] >= 0 and len(final["secret"]) == 64
    record = http(server.base, "GET", "/api/rooms/%s/games/1" % info["code"])
    assert len(record["rolls"]) == final["rolls"] > 0
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    ok = subprocess.run([sys.executable, "tools/check_dice.py", str(path),
                         "--commit", final["commit"]], cwd=ROOT,
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout
    assert "OK: %d rolls" % len(record["rolls"]) in ok.stdout
    # One changed face in one roll: the check must fail and name the roll.
    number, faces = record["rolls"][len(record["rolls"]) // 2]
    faces[0] = faces[0] % 6 + 1
    path.write_text(json.dumps(record))
    bad = subprocess.run([sys.executable, "tools/check_dice.py", str(path),
                         "--commit", final["commit"]], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 1
    assert "roll %d showed" % number in bad.stdout


def test_record_only_after_the_game(server):
    info = create_room(server.base, "Anna", people=2)
    join_room(server.base, info["code"], "Bert")
    with pytest.raises(ServerRefused) as e:
        http(server.base, "GET", "/api/rooms/%s/games/1" % info["code"])
    assert e.value.why == "no_record"


def _started(server, computers=()):
    info = create_room(server.base, "Anna", people=2, computers=computers)
    bert = join_room(server.base, info["code"], "Bert")
    return info, bert


def test_reload_with_token_catches_up(server):
    info, bert = _started(server)

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        await b.until(lambda c: c.state is not None)
        seen, held = b.n, b.state
        await b.close()  # Bert's connection drops ...
        for _ in range(3):  # ... while Anna plays on
            await a.play(a.choose())
        b2 = Client(server.base, info["code"], bert["token"])
        b2.n, b2.state = seen, held  # the tab keeps the state it was shown
        welcome = await b2.connect(since=seen)  # the missed events, in order (no snapshot)
        assert welcome["seat"] == 1 and welcome["n"] == a.n
        assert [n for n, _ in b2.events] == list(range(seen + 1, a.n + 1))
        assert b2.state == a.state
        # Without `since` a snapshot comes instead.
        b3 = Client(server.base, info["code"], bert["token"])
        await b3.connect()
        assert b3.events == [] and b3.state == a.state  # a snapshot
        # b3 took the seat over: b2 was closed as replaced by another tab.
        while await b2.recv(5) is not None:
            pass
        assert b2.close_code == 4002
        for c in (a, b3):
            await c.close()

    run(go())


def test_wrong_token_unknown_room_and_no_hello(server):
    info, _ = _started(server)

    async def go():
        bad = Client(server.base, info["code"], "x" * 32)
        with pytest.raises(ConnectionError):
            await bad.connect()
        assert bad.close_code == 4001
        nowhere = Client(server.base, "AAAAAAAAAAAA", info["token"])
        with pytest.raises(ConnectionError):
            await nowhere.connect()
        assert nowhere.close_code == 4003
        rude = Client(server.base, info["code"], info["token"])
        rude.token = None
        from websockets.asyncio.client import connect

        async with connect(rude.url) as ws:
            await ws.send(json.dumps({"t": "act", "a": ["roll"]}))
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert ws.close_code == 4004

    run(go())


def test_spectator_reads_and_cannot_act(server):
    info, bert = _started(server, computers=["mutig"])

    async def go():
        a = Client(server.base, info["code"], info["token"])
        watcher = Client(server.base, info["code"])
        await a.connect()
        welcome = await watcher.connect()
        assert welcome["seat"] == -1
        await watcher.until(lambda c: c.state is not None)
        await watcher.act(["roll"], ref=7)
        await watcher.until(lambda c: c.refusals)
        assert watcher.refusals[0] == {"t": "no", "why": "spectator", "values": [], "re": 7}
        n = a.n
        await a.act(["roll"])
        await watcher.until(lambda c: c.n > n)
        assert watcher.state["roll"] == a.state["roll"] or watcher.n >= a.n
        await a.close()
        await watcher.close()

    run(go())


def test_refusals_carry_the_engine_reason(server):
    info, bert = _started(server)

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        await a.until(lambda c: c.state is not None)
        await a.act(["bank"], ref=1)  # nothing to bank before a roll: the engine's reason
        await b.act(["roll"], ref=2)  # not Bert's turn
        await a.until(lambda c: c.refusals)
        await b.until(lambda c: c.refusals)
        assert a.refusals[0]["why"] == "nothing_to_bank"
        assert b.refusals[0]["why"] == "not_your_turn"
        await a.act(["keep", [1]])
        await a.until(lambda c: len(c.refusals) == 2)
        assert a.refusals[1]["why"] == "roll_first"
        await a.send({"t": "ping"})
        await a.until(lambda c: c.pongs == 1)
        await a.close()
        await b.close()

    run(go())


def test_origin_is_checked(server):
    req = urllib.request.Request(server.base + "/api/rooms", data=b'{"name": "Anna"}',
                                 method="POST", headers={"Origin": "http://elsewhere.test"})
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(req, timeout=5)
    assert e.value.code == 400 and json.loads(e.value.read())["why"] == "origin"
    info = create_room(server.base, "Anna")

    async def go():
        foreign = Client(server.base, info["code"], info["token"], origin="http://elsewhere.test")
        with pytest.raises(InvalidStatus):  # refused in the handshake (403)
            await foreign.connect()
        own = Client(server.base, info["code"], info["token"],
                     origin="http://127.0.0.1:%d" % server.port)
        await own.connect()
        await own.close()

    run(go())


def test_room_limit_per_address(server_factory):
    s = server_factory("--room-limit", "3")
    for _ in range(3):
        create_room(s.base, "Anna")
    with pytest.raises(ServerRefused) as e:
        create_room(s.base, "Anna")
    assert e.value.status == 429 and e.value.why == "too_many_rooms"


def test_page_or_a_clear_message(server, tmp_path):
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(server.base + "/", timeout=5)
    assert e.value.code == 503 and b"make web" in e.value.read()
    reasons = http(server.base, "GET", "/api/reasons")
    assert set(reasons["de"]) == set(reasons["en"])


def test_built_page_is_served(server_factory, tmp_path):
    web = tmp_path / "page"
    web.mkdir()
    (web / "index.html").write_text("<title>Zehntausend</title>")
    s = server_factory("--web", str(web))
    with urllib.request.urlopen(s.base + "/", timeout=5) as r:
        assert b"Zehntausend" in r.read()


def test_help_lists_the_settings():
    out = subprocess.run([sys.executable, "-m", "server", "--help"], cwd=ROOT,
                         capture_output=True, text=True).stdout
    for opt in ("--host", "--port", "--data", "--redis", "--away-after", "--standin-after",
                "--bot-pace", "--idle-expire", "--lease", "--heartbeat"):
        assert opt in out


@pytest.mark.parametrize("kind", ["ping", "beat"])
def test_rate_limit_per_connection(server_factory, kind):
    # A beat gets no answer, but a flood of them is refused as any other.
    s = server_factory("--rate", "5", "--burst", "5")
    info = create_room(s.base, "Anna")
    join_room(s.base, info["code"], "Bert")

    async def go():
        a = Client(s.base, info["code"], info["token"], heartbeat=None)
        await a.connect()
        for _ in range(40):
            try:
                await a.send({"t": kind})
            except ConnectionError:
                break
        while await a.recv(10) is not None:
            pass
        return a

    a = run(go())
    if kind == "ping":
        assert 1 <= a.pongs <= 10  # the burst, and what trickled back meanwhile
    else:
        assert a.pongs == 0
    assert {r["why"] for r in a.refusals} == {"slow"}
    assert 10 <= len(a.refusals) <= 15  # closed after 3 x the burst
    assert a.close_code == 4008  # far beyond the limit: closed


def test_seats_keep_their_numbers_when_one_leaves_the_lobby(server):
    info = create_room(server.base, "Anna", people=4, computers=["vorsichtig"])
    bert = join_room(server.base, info["code"], "Bert")
    cleo = join_room(server.base, info["code"], "Cleo")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        c = Client(server.base, info["code"], cleo["token"])
        for x in (a, b, c):
            await x.connect()
        await b.send({"t": "leave"})
        while await b.recv(5) is not None:
            pass
        assert b.close_code == 4000
        await a.send({"t": "start"})
        await c.until(lambda x: x.state["status"] == "playing")
        assert c.seat == 2 and c.state["seats"][1] is None
        assert [s and s["name"] for s in c.state["seats"]] == [
            "Anna", None, "Cleo", None, "Vorsichtig 1"]
        await a.until(lambda x: x.my_turn())
        while a.my_turn():
            await a.play(a.choose())
        await c.until(lambda x: x.my_turn())  # Bert's and the free seat are skipped
        await c.play(["roll"])
        assert c.events[-1][1]["seat"] == 2 and c.events[-1][1]["by"] == "p"
        for x in (a, c):
            await x.close()

    run(go())


def test_leaving_a_game_for_good(server):
    info = create_room(server.base, "Anna", people=2, computers=["vorsichtig"])
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        await b.send({"t": "leave"})
        while await b.recv(5) is not None:
            pass
        assert b.close_code == 4000
        await a.until(lambda c: c.events and c.events[-1][1] == {"k": "leave", "seat": 1})
        assert a.state["seats"][1]["active"] is False
        again = Client(server.base, info["code"], bert["token"])
        with pytest.raises(ConnectionError):
            await again.connect()
        assert again.close_code == 4001  # the seat cannot be taken back
        # Anna and the computer play on, Bert's turns passed by.
        await a.until(lambda c: c.my_turn())
        await a.play(a.choose())
        assert not a.refusals and a.events[-1][1]["seat"] == 0
        await a.close()

    run(go())
