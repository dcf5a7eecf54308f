"""The smaller points of issue 33, against a real room server on
127.0.0.1 serving build/web:

- the room form starts with two people's places and opens exactly the
  seats it shows; the API names one person's room with `people`;
- the page's intro names online play; offline the title offers none;
- a plain second tab taking the game's lock leaves a tab playing a room
  playing it, as a guest that saves nothing of the local game;
- a reload during a local turn comes back to the turn with the picks.
"""

import re

import pytest

from tests.browser.reader import Reader, new_game
from tests.browser.test_web import CHROMIUM, PAGE

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.browser.test_online import (  # noqa: E402
    online_text,
    room_server,
    to_room_form,
    until,
)

assert CHROMIUM and PAGE and room_server


def test_the_room_form_opens_the_seats_it_shows(browser, room_server):  # noqa: F811
    from server.client import ServerRefused, http

    r = Reader(browser, room_server.base + "/")
    to_room_form(r)
    entries = r.menu()[0]
    assert "Plätze: 2" in entries and "1 Spieler 1" in entries and "2 Spieler 2" in entries, entries
    r.choose("Los")
    r.press("A")
    seats = r.page.get_by_role("list", name="Plätze")
    seats.wait_for(timeout=20000)
    assert until(lambda: len(seats.get_by_role("listitem").all_inner_texts()) == 2, 10), \
        seats.inner_text()
    r.close()
    with pytest.raises(ServerRefused) as said:
        http(room_server.base, "POST", "/api/rooms", {"name": "Anna", "people": 1,
                                                       "computers": ["profi"]})
    assert said.value.why == "people" and said.value.values == [2]


def test_the_intro_names_online_play_and_offline_hides_it(browser, room_server):  # noqa: F811
    r = Reader(browser, room_server.base + "/")
    intro = r.page.locator("header p").first.inner_text()
    assert "online" in intro and "an diesem Gerät" in intro, intro
    assert "Online spielen" in r.menu()[0]
    # offline once the page is whole: the service worker (sw.js) is asked for
    # after the title, and the browser logs its fetch failing as an error
    r.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)
    r.context.set_offline(True)
    r.snapshot()
    assert until(lambda: "Online spielen" not in r.menu()[0], 10), r.menu()
    r.context.set_offline(False)
    assert until(lambda: "Online spielen" in r.menu()[0], 10), r.menu()
    assert not r.errors, r.errors
    r.close()


def test_a_second_tab_leaves_the_room_playing(browser, room_server):  # noqa: F811
    from tests.browser.test_online import open_room

    anna = Reader(browser, room_server.base + "/")
    open_room(anna, people=2, computers=0)
    assert until(lambda: "Verbunden mit dem Raum" in online_text(anna), 20), online_text(anna)
    other = Reader(browser, room_server.base + "/", context=anna.context, wait=False)
    take = other.page.get_by_role("button", name="Hier spielen")
    take.wait_for(timeout=20000)
    take.click()
    other.wait()
    # the room's tab plays on, says it saves nothing here, and is not "taken over"
    notice = anna.page.locator("#notices")
    assert until(lambda: "nur der Online-Raum" in notice.inner_text(), 10), notice.inner_text()
    assert "übernommen" not in notice.inner_text()
    assert anna.page.evaluate("zt.ready")
    assert "Verbunden mit dem Raum" in online_text(anna)
    anna.press("B")  # the game still answers its keys: the room's screen to the title
    assert until(lambda: anna.page.evaluate("zt.state().screen") == "title", 10)
    other.close()
    anna.close()


def test_a_reload_during_a_local_turn_keeps_the_turn_and_its_picks(browser, room_server):  # noqa: F811
    r = Reader(browser, room_server.base + "/?seed=5")
    new_game(r)
    for _ in range(10):  # to the person's dice
        if 'list "Würfel"' in r.snapshot() and r.buttons().get("A", "").startswith("die "):
            break
        r.press("A")
    assert r.buttons()["A"].startswith("die "), r.buttons()
    if r.buttons()["A"].endswith(" nehmen"):
        r.press("A")  # the die under the cursor picked
    assert until(lambda: r.buttons()["A"].endswith(" zurücklegen"), 10), r.buttons()
    r.snapshot()
    before = r.page.evaluate("zt.state()")
    assert any(before["selected"]), before
    r.page.reload()
    r.wait()
    assert until(lambda: r.page.evaluate("zt.state().screen") == "play", 10), r.snapshot()
    after = r.page.evaluate("zt.state()")
    assert after["roll"] == before["roll"], (before, after)
    assert after["selected"] == before["selected"], (before, after)
    assert re.search(r"die \d zurücklegen", r.buttons()["A"]), r.buttons()
    assert not r.errors, r.errors
    r.close()
