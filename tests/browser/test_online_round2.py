"""Online play, second round (issue 33), against a real room server on
127.0.0.1 serving build/web; every page driven as a screen reader or an
agent does (tests/browser/reader.py: roles, names, aria snapshots):

- tips in a room: the seat that asked sees the tip marks and the tip
  line on its own screen, the other person's screen shows none;
- each kind of link: no such room, a room waiting for people, a game
  running (watch), a room that has ended, and your own seat;
- a rematch needs every person's yes (a computer always says yes); the
  results and the dice check stay until the new game starts;
- names typed with `fill`, the creator's and a joiner's.
"""

import re

import pytest

from tests.browser.reader import Reader
from tests.browser.test_web import CHROMIUM, PAGE, browser  # noqa: F401  (the fixture)

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.browser.test_online import join, open_room, room_server, until  # noqa: E402

assert CHROMIUM and PAGE and room_server


def dice_lines(r):
    """The dice list of the screen's text layer, one text per die."""
    snap = r.snapshot()
    if 'list "Würfel"' not in snap:
        return []
    dice = snap.split('list "Würfel"')[-1].split("- paragraph")[0]
    return re.findall(r'listitem: "?([^"\n]+)', dice)


def test_tips_in_a_room_for_the_seat_that_asked(browser, room_server):  # noqa: F811
    anna = Reader(browser, room_server.base + "/")
    link = open_room(anna, people=2, computers=0, tips=True)
    bea = join(browser, link, "Bea")  # without tips
    # Anna's turn first: she rolls; her screen marks the dice the tip takes
    # and says the move below them, Bea's screen shows the same dice bare
    until(lambda: anna.buttons().get("A") == "los", 30)
    anna.press("A")
    mine = until(lambda: [d for d in dice_lines(anna) if "Tipp" in d], 30)
    assert mine, anna.snapshot()
    seen = until(lambda: dice_lines(bea), 30)
    assert seen and not [d for d in seen if "Tipp" in d], seen
    assert len(seen) == len(dice_lines(anna))
    for r in (anna, bea):
        assert not r.errors, r.errors
        r.close()
