"""Online play, third round (issue 50), against a real room server on
127.0.0.1 serving build/web; the pages are read as a screen reader or an
agent reads them (tests/browser/reader.py: roles, names, aria snapshots).

- a person's line goes during their turn: the others' game screens (the
  128x64 one, a 72x40 spectator's, and their text copies) say that the
  seat is away, since when, and count down to the computer, within 10 s;
  the computer plays on time after the wait the room's creator chose.
"""

import re
import time

import pytest

from tests.browser.reader import Reader
from tests.browser.test_web import CHROMIUM, PAGE, browser  # noqa: F401  (the fixture)

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.browser.test_online import join, online_text, step, to_room_form, until  # noqa: E402
from tests.server.conftest import ServerProc  # noqa: E402

assert CHROMIUM and PAGE
WAIT = 15  # the stand-in's wait the room's creator chooses in the tests below


@pytest.fixture
def room_server(tmp_path):
    """A room server with the real away time (5 s) and the computers' real
    pace: the stand-in's wait is the room's."""
    s = ServerProc(tmp_path, "--web", str(PAGE), "--away-after", "5", "--bot-pace", "0.65")
    yield s
    s.stop()
    s.log.close()


def screen_text(r):
    """The screen's text copy (the region "Bildschirm"/"Screen") as one line."""
    return " ".join(r.screen.inner_text().split())


def open_room_with_wait(r, wait):
    """From the title: the room form, the stand-in's wait chosen in the
    page's select (by its accessible name), the form's two people's
    places as they are; returns the invite link."""
    to_room_form(r)
    choice = r.page.get_by_role("region", name="Online").get_by_role(
        "combobox", name=re.compile("spielt der Computer seinen Zug nach"))
    choice.select_option(str(wait))
    r.choose("Los")
    r.press("A")
    link = r.page.get_by_role("link", name="Einladungslink")
    link.wait_for(timeout=20000)
    return link.get_attribute("href")


def test_a_dropped_seat_counts_down_on_the_others_game_screens(browser, room_server, capsys):  # noqa: F811
    anna = Reader(browser, room_server.base + "/")
    link = open_room_with_wait(anna, WAIT)
    bea = join(browser, link, "Bea")
    fan = Reader(browser, link + "&board=thumby")  # a spectator on the small layout
    fan.page.get_by_role("button", name="Zuschauen").click()
    # Anna's turn first: she plays it; then it is Bea's
    assert until(lambda: step(anna) and "Am Zug: Bea" in online_text(anna), 120), (
        online_text(anna), anna.snapshot())
    assert until(lambda: "Am Zug: Bea" in online_text(fan), 20), online_text(fan)
    bea.close()  # the line goes (the browser context is closed) during her turn
    went = time.monotonic()
    line = re.compile(r"weg (\d+)s, PC in (\d+)s")
    told = {}
    for name, r in (("anna", anna), ("fan", fan)):
        got = until(lambda r=r: line.search(screen_text(r)), 12)
        told[name] = time.monotonic() - went
        assert got, screen_text(r)
        assert told[name] <= 10, (name, told[name])  # the issue: within 10 s
        # the text copy says it in words too, with who
        assert re.search(r"Bea: Verbindung weg seit \d+ s, Computer übernimmt in \d+ s",
                         screen_text(r)), screen_text(r)
        since, left = int(got[1]), int(got[2])
        assert abs(since + left - WAIT) <= 2, got[0]
    # the seconds go on (on the screen itself: its text copy is the frame's)
    first = line.search(screen_text(anna))
    assert until(lambda: (m := line.search(screen_text(anna))) and int(m[2]) < int(first[2]), 5), (
        first[0], screen_text(anna))
    # the computer takes the turn on time: the room's wait after the line went
    assert until(lambda: "Computer spielt" in screen_text(anna), WAIT + 10), screen_text(anna)
    standin = time.monotonic() - went
    assert WAIT - 4 <= standin <= WAIT + 2.5, standin
    assert "Der Computer spielt für Bea." in screen_text(anna)
    assert "der Computer spielt für Bea" in online_text(fan)
    for r in (anna, fan):
        assert not [e for e in r.errors if "WebSocket" not in e], r.errors
        r.close()
    with capsys.disabled():
        print("\nround 3: the room's wait %d s; a dropped seat told on the game screens after "
              "%.1f s (128x64), %.1f s (72x40 spectator); the stand-in played after %.1f s"
              % (WAIT, told["anna"], told["fan"], standin))
