"""The page tells people when the server lost their room (issue 31): a
room server on a real redis-server without persistence (allowed with
--redis-may-forget), the Redis restarted empty; both pages say that the
server lost its rooms (close 4003 "lost"), in German, instead of
staying "connected" while every action is refused."""

import pytest

from tests.browser.reader import Reader
from tests.browser.test_online import join, online_text, open_room, until
from tests.browser.test_web import PAGE, browser  # noqa: F401  (the fixture)

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.server.conftest import ServerProc, redis_factory  # noqa: E402, F401

LOST = "Der Server hat die Räume verloren"


def test_pages_say_the_room_was_lost(browser, redis_factory, tmp_path):  # noqa: F811
    r = redis_factory(keep=False)
    s = ServerProc(tmp_path, "--web", str(PAGE), "--redis", r.url, "--redis-may-forget")
    try:
        anna = Reader(browser, s.base + "/")
        link = open_room(anna, people=2, computers=0)
        bea = join(browser, link, "Bea")
        assert until(lambda: "Verbunden mit dem Raum" in online_text(anna), 20)
        r.stop()
        r.start()  # empty

        # (the online region goes with the room: the screen says why)
        def says_lost(page):
            return LOST in " ".join(page.page.inner_text("body").split())  # wrapped on the screen

        for page in (anna, bea):
            assert until(lambda p=page: says_lost(p), 20), page.page.inner_text("body")
    finally:
        s.stop()
        s.log.close()
