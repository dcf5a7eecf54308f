"""Random and malformed messages (hypothesis) never crash a room or the
server, each gets a reason, and none changes anything."""

import asyncio
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import REASONS
from engine.rules import preset
from server.client import Client, create_room, http, join_room
from server.reasons import TEXTS
from server.room import Refused, Room, parse_action

KNOWN = set(TEXTS["en"]) | set(REASONS)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=5),
    max_leaves=12)
actions = st.one_of(
    json_values,
    st.lists(st.sampled_from(["roll", "keep", "bank", "take", "pass", "join", "leave", ""]),
             min_size=1, max_size=3).map(list),
    st.tuples(st.just("keep"), st.lists(st.integers(-3, 9) | st.booleans() | st.text(max_size=2),
                                        max_size=8)).map(list),
)
# Every message type but "leave", which a seat may legitimately send.
messages = st.one_of(
    json_values.map(json.dumps),
    st.text(max_size=200),
    st.binary(max_size=64),
    st.fixed_dictionaries({"t": st.sampled_from(["act", "start", "rematch", "hello", "watch",
                                                 "", "ACT", "ping2"]),
                           "a": actions}).map(json.dumps),
    st.fixed_dictionaries({"t": st.just("act"), "a": actions,
                           "id": json_values}).map(json.dumps),
)


def started_room():
    room, _ = Room.create("c" * 12, "Anna", 2, ["profi"], preset("zehntausend"))
    room.join("Bert")
    room.take_messages()
    return room


@settings(max_examples=400, deadline=None)
@given(raw=actions, seat=st.integers(-2, 4))
def test_malformed_actions_change_nothing_in_a_room(raw, seat):
    room = started_room()
    before = json.dumps(room.state, sort_keys=True)
    try:
        room.act(seat, parse_action(raw))
    except Refused as e:
        assert e.key in KNOWN
        assert json.dumps(room.state, sort_keys=True) == before and room.messages == []
    else:  # a well-formed legal action of the seat to move: only the roll can be
        assert seat == 0 and raw == ["roll"]


def test_fuzzed_messages_over_a_real_socket(server):
    info = create_room(server.base, "Anna", people=2)
    bert = join_room(server.base, info["code"], "Bert")
    loop = asyncio.new_event_loop()
    anna = Client(server.base, info["code"], info["token"])
    b = Client(server.base, info["code"], bert["token"])
    loop.run_until_complete(anna.connect())
    loop.run_until_complete(b.connect())
    before = http(server.base, "GET", "/api/rooms/" + info["code"])
    answers = []

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(msg=messages)
    def send_one(msg):
        async def go():
            refused = len(b.refusals)
            await b.send(msg)  # Bert's seat: it is Anna's turn, nothing he sends may act
            reply = await b.until(lambda c: len(c.refusals) > refused, 10)
            answers.append(reply)

        loop.run_until_complete(go())

    send_one()
    assert answers and all(r["why"] in KNOWN for r in answers)
    after = http(server.base, "GET", "/api/rooms/" + info["code"])
    assert after == before  # nothing changed
    # The room still works: Anna rolls, Bert sees it.
    loop.run_until_complete(anna.play(["roll"]))
    loop.run_until_complete(b.until(lambda c: c.n == anna.n))
    assert http(server.base, "GET", "/api/health")["ok"]

    # A message above 16 KiB ends that connection (1009), nothing else.
    async def big():
        await b.send(json.dumps({"t": "act", "a": ["x" * 17000]}))
        while await b.recv(10) is not None:
            pass
        return b.close_code

    assert loop.run_until_complete(big()) == 1009
    keeps = [a for a in anna.state["legal"] if a[0] == "keep"]
    if anna.my_turn() and keeps:  # (a roll without points ended the turn: nothing to keep)
        loop.run_until_complete(anna.play(["keep", keeps[0][1]]))
    loop.run_until_complete(anna.close())
    loop.close()
    assert http(server.base, "GET", "/api/health")["ok"]
