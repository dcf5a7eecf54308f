"""The page tells people when the server lost their room (issue 31): a
room server on a real redis-server without persistence (allowed with
--redis-may-forget), the Redis restarted empty; both pages say that the
server lost its rooms (close 4003 "lost"), in German, instead of
staying "connected" while every action is refused. And a Redis down
(not empty) for longer than --store-patience: the pages say so (close
1013 "store") and come back to the room when Redis does."""


import pytest

from tests.browser.reader import Reader
from tests.browser.test_online import join, online_text, open_room, until
from tests.browser.test_web import PAGE

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


STORE = "Der Server erreicht seinen Speicher nicht"


def test_pages_say_the_store_is_down_and_come_back_with_it(browser, redis_factory,  # noqa: F811
                                                          tmp_path):
    # Redis down (not empty) for longer than --store-patience: the pages
    # say why (close 1013 "store") and keep trying; Redis back with its
    # file: connected again, the note gone, the seat still theirs.
    r = redis_factory()
    s = ServerProc(tmp_path, "--web", str(PAGE), "--redis", r.url, "--store-patience", "3")
    try:
        anna = Reader(browser, s.base + "/")
        link = open_room(anna, people=2, computers=0)
        bea = join(browser, link, "Bea")
        assert until(lambda: "Verbunden mit dem Raum" in online_text(anna), 20)
        r.persist()  # the room is in the file
        r.stop(kill=True)
        for page in (anna, bea):
            assert until(lambda p=page: STORE in online_text(p), 20), online_text(page)
        r.start()
        for page in (anna, bea):
            assert until(lambda p=page: "Verbunden mit dem Raum" in online_text(p)
                         and STORE not in online_text(p), 30), online_text(page)
        assert "Bea" in online_text(anna) and "Bea (du)" in online_text(bea)
    finally:
        s.stop()
        s.log.close()
