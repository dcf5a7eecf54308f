"""Online play on a phone (issue 33), against a real room server on
127.0.0.1 serving build/web, in a 390x844 touch viewport:

- a tap on a menu row chooses it;
- when a room opens, its invite link, a share button and the QR code are
  in view without scrolling;
- a whole room game played by taps on the screen only: a tap on a hint
  line's action does it, a tap on a die picks it (the page maps the tap
  to presses of the pad; the app decides). The other seat is a program
  speaking the protocol (server/client.py) in a thread that never banks,
  so the phone's seat wins and every game counts its taps.
"""

import asyncio
import json
import threading
import time

import pytest

from tests.browser.reader import Reader
from tests.browser.test_web import CHROMIUM, PAGE

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.browser.test_online import open_room, room_server, until  # noqa: E402

assert CHROMIUM and PAGE and room_server
PHONE = {"viewport": (390, 844), "scale": 3, "phone": True}


def in_view(locator, vh):
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vh, box


def test_the_invite_is_above_the_fold(browser, room_server):  # noqa: F811
    r = Reader(browser, room_server.base + "/", **PHONE)
    # a tap on a menu row chooses it: the title's Online (its second row)
    t = layer(r)
    row = t["menu"]["items"].index("Online spielen") - t["taps"]["rows"]["first"]
    rows = t["taps"]["rows"]
    tap(r, 20, rows["y"] + row * rows["line"] + rows["line"] // 2 - 1)
    assert until(lambda: layer(r)["title"] == "Online", 10), layer(r)
    r.press("B")
    r.snapshot()
    open_room(r, people=2, computers=0)
    online = r.page.get_by_role("region", name="Online")
    r.page.wait_for_timeout(300)
    assert r.page.evaluate("scrollY") == 0
    for what in (online.get_by_role("link", name="Einladungslink"),
                 online.get_by_role("button", name="Teilen"),
                 online.get_by_role("img", name="QR-Code des Einladungslinks")):
        ok, box = in_view(what, 844)
        assert ok, (what, box)
    assert not r.errors, r.errors
    r.close()


def tap(r, gx, gy):
    """A finger on the screen at game pixel (gx, gy)."""
    box = r.page.locator("#screen").bounding_box()
    size = r.page.evaluate("[zt.host().width, zt.host().height]")
    r.page.touchscreen.tap(box["x"] + (gx + 0.5) * box["width"] / size[0],
                           box["y"] + (gy + 0.5) * box["height"] / size[1])
    r.page.wait_for_timeout(80)


def layer(r):
    """The text layer as the page has it now (with where taps land)."""
    return json.loads(r.page.evaluate("zt.host().text_json()"))


def tap_hint(r, t, key):
    """Tap the hint line's action of `key`; False when it shows none."""
    height = r.page.evaluate("zt.host().height")
    for x0, x1, k in t["taps"]["hint"]:
        if k == key:
            tap(r, (x0 + x1) // 2, height - t["taps"]["line"] // 2 - 1)
            return True
    return False


def singles(dice):
    """The positions of the 1s and 5s among the dice."""
    return [k for k, d in enumerate(dice) if d["value"] in (1, 5)]


def test_a_whole_room_game_by_taps_on_a_phone(browser, room_server, figure):  # noqa: F811
    from server.client import Client, choose, create_room, join_room
    from tests.server.play import over, play_until

    base = room_server.base
    anna = create_room(base, "Anna", people=2, target=1000)
    otto = join_room(base, anna["code"], "Otto")
    seat = json.dumps({"token": anna["token"], "seat": 0, "name": "Anna"})
    init = "localStorage.setItem('zt-room:%s', %s)" % (anna["code"], json.dumps(seat))

    def never_banks(state):
        # Otto never scores, so Anna plays turns until she wins: a quick win
        # of his would leave her too few taps to count.
        move = choose(state)
        return ["roll"] if move == ["bank"] else move

    async def otto_plays():
        c = Client(base, anna["code"], otto["token"])
        await c.connect()
        await play_until([c], over, 240, policy=never_banks)
        await c.close()

    worker = threading.Thread(target=asyncio.run, args=(otto_plays(),))
    worker.start()
    r = Reader(browser, base + "/?room=" + anna["code"], init=init, **PHONE)
    picked_by_tap = 0
    taps = 0
    end = time.monotonic() + 240
    while time.monotonic() < end:
        r.page.wait_for_timeout(250)
        t = layer(r)
        keys = t["keys"]
        if t["title"] and t["title"].endswith(("gewinnt!", "wins!")):
            break
        dice = t["dice"]
        cursor = [i for i, d in enumerate(dice) if d["cursor"]]
        if keys.get("UP") == "ja, würfeln":
            tap_hint(r, t, "UP")
        elif keys.get("DOWN") == "ja, sichern":
            tap_hint(r, t, "DOWN")
        elif cursor and not any(d["picked"] for d in dice) and singles(dice):
            # a single 1 or 5: tapped, and the text layer says it is picked
            i = singles(dice)[-1]
            x, y, size = t["taps"]["dice"][i]
            tap(r, x + size // 2, y + size // 2)
            assert until(lambda i=i: layer(r)["dice"][i]["picked"], 5), layer(r)
            picked_by_tap += 1
        elif cursor:  # roll on below 300 on the table, else bank (the first press asks)
            tt = int(t["title"].rsplit("+", 1)[1]) if t["title"] and "+" in t["title"] else 0
            if not (tt >= 300 and tap_hint(r, t, "DOWN")):
                tap_hint(r, t, "UP")
        elif keys.get("A") in ("los", "weiter", "neu"):
            tap_hint(r, t, "A")
        else:
            continue
        taps += 1
    worker.join(60)
    assert t["title"] == "Anna gewinnt!", t
    # What a won game holds whatever the dice: a die picked by a tap, and a
    # pick, the bank's question and its yes (a game to 1000 can be one turn).
    assert picked_by_tap >= 1 and taps >= 3, (picked_by_tap, taps)
    figure("phone: a room game won by taps: %d taps, %d dice picked by a tap"
           % (taps, picked_by_tap))
    assert r.page.evaluate("zt.state().screen") == "winner"
    assert not r.errors, r.errors
    r.close()
