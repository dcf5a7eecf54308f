"""A rematch by agreement (server/room.py, issue 33), on a Room without
I/O: every person still in the game says yes (computers always do); a
person away holds nobody up; one who left the game cannot say yes; the
earlier games' dice records stay reachable."""

import pytest

from engine.rules import preset
from server.client import choose
from server.room import RECORDS_KEPT, Refused, Room


def finished(people=3, computers=("vorsichtig",), leave=None):
    """A room whose first game is over; seat `leave` left during it."""
    rules = preset("zehntausend").replace(target=1000, entry=0)
    room, _ = Room.create("abcdefghijkl", "Anna", people, list(computers), rules)
    for name in ["Bea", "Cleo", "Dora"][:people - 1]:
        room.join(name)
    if leave is not None:
        room.leave(leave)
    play_out(room)
    return room


def play_out(room):
    for _ in range(5000):
        if room.state["status"] == "over":
            room.take_messages()
            return
        st = room.public()
        room.act(st["cur"], tuple(a if not isinstance(a, list) else tuple(a)
                                  for a in choose(st)))
    raise AssertionError("the game did not end")


def kinds(room):
    import json

    return [json.loads(text)["e"]["k"] for _, text in room.take_messages()]


def test_every_person_says_yes_before_the_next_game():
    room = finished()
    assert room.public()["rematch"] == [3]  # the computer's yes
    room.rematch(1)
    assert room.state["status"] == "over" and kinds(room) == ["rematch"]
    room.rematch(1)  # again: nothing new
    assert kinds(room) == []
    room.rematch(0)
    assert room.public()["rematch"] == [0, 1, 3] and room.state["status"] == "over"
    assert kinds(room) == ["rematch"]
    room.rematch(2)
    assert kinds(room) == ["rematch", "start"]
    st = room.public()
    assert st["status"] == "playing" and st["g"] == 2 and st["records"] == [1]
    assert "rematch" not in st and room.record(1)["g"] == 1


def test_a_person_away_holds_nobody_up():
    room = finished()
    room.rematch(0)
    room.rematch(1)
    assert room.state["status"] == "over"
    room.set_away(2, True)  # Cleo's line went: the others play on, Cleo in the game
    assert room.state["status"] == "playing" and room.state["seats"][2]["name"] == "Cleo"


def test_who_left_the_game_cannot_say_yes_and_does_not_count():
    room = finished(leave=2)
    with pytest.raises(Refused) as said:
        room.rematch(2)
    assert said.value.key == "left"
    room.rematch(0)
    room.rematch(1)
    assert room.state["status"] == "playing" and room.state["seats"][2] is None


def test_the_last_games_records_stay_reachable():
    room = finished(people=2, computers=())
    for g in range(2, RECORDS_KEPT + 3):
        room.rematch(0)
        room.rematch(1)
        assert room.state["g"] == g
        play_out(room)
    st = room.public()
    assert st["records"] == list(range(g - RECORDS_KEPT, g + 1))
    for n in st["records"]:
        assert room.record(n)["g"] == n
    with pytest.raises(Refused):
        room.record(1)


def test_one_person_is_refused_with_the_people_reason():
    rules = preset("zehntausend")
    with pytest.raises(Refused) as said:
        Room.create("abcdefghijkl", "Anna", 1, ["profi"], rules)
    assert said.value.key == "people" and said.value.values == [2]
    with pytest.raises(Refused) as said:
        Room.create("abcdefghijkl", "Anna", 4, ["profi"] * 5, rules)
    assert said.value.key == "seats"
