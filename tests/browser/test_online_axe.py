"""axe-core on the online screens (issue 33): no serious or critical
violation on a room's page (the invite and its QR code), a link's join
form, a link to no room, a game in a room, and the end of a room's game
(the rematch's state, the dice check and the records), against a real
room server on 127.0.0.1 serving build/web."""

import pytest

from tests.browser.reader import Reader
from tests.browser.test_page import AXE, axe
from tests.browser.test_web import CHROMIUM, PAGE

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.browser.test_online import open_room, play_to_end, room_server  # noqa: E402

assert CHROMIUM and PAGE and room_server


@pytest.mark.skipif(not AXE.exists(), reason="axe-core missing: run `make web` (npm ci in web/)")
def test_axe_finds_no_serious_violation_online(browser, room_server):  # noqa: F811
    nowhere = Reader(browser, room_server.base + "/?room=nonexistent00")
    nowhere.page.get_by_role("region", name="Online").get_by_role("alert").wait_for(timeout=20000)
    assert axe(nowhere.page) == [], "a link to no room"
    nowhere.close()

    anna = Reader(browser, room_server.base + "/")
    link = open_room(anna, people=2, computers=1, name="Anna")
    anna.page.get_by_role("img", name="QR-Code des Einladungslinks").wait_for(timeout=20000)
    assert axe(anna.page) == [], "the waiting room"
    bea = Reader(browser, link)
    bea.page.get_by_role("textbox", name="Dein Name").wait_for(timeout=20000)
    assert axe(bea.page) == [], "the join form"
    bea.page.get_by_role("textbox", name="Dein Name").fill("Bea")
    bea.page.get_by_role("button", name="Mitspielen").click()
    for r in (anna, bea):
        r.page.get_by_text("Am Zug:").first.wait_for(timeout=20000)
        r.snapshot()
        assert axe(r.page) == [], "a game in a room"
    play_to_end([anna, bea])
    for r in (anna, bea):
        r.page.locator("[data-check=ok]").wait_for(timeout=20000)
        assert axe(r.page) == [], "the end of a room's game"
        assert not r.errors, r.errors
        r.close()
