"""The online page's connection under failure (issue 24), against a real
room server process on 127.0.0.1 (test_online.py's fixture):

- a connection that stops carrying messages (the test's Playwright
  WebSocket routing swallows them both ways) is noticed within 9 s, the
  page says "reconnecting", reconnects through a new socket and catches
  up; the same when the page becomes visible again over such a socket,
  and when the routing closes the socket (a dropped connection);
- a paused server process (SIGSTOP) is noticed within 9 s; once it runs
  again, the page is back (before that, a refusal of the server is said
  on the screen and as an alert in the page);
- the network going away and coming back (the browser context offline,
  then online: the page's `online` event) reconnects at once, not when the
  backoff's timer says;
- the page becoming visible again while the backoff waits reconnects at
  once;
- a second tab of the same browser (one context) on the same seat: the
  room runs there although the first tab holds the page's game lock; one
  tab plays, the other says so and offers "play here", which takes the
  seat back;
- a name typed before the room's preview arrives is kept when the panel
  is drawn again with it, and joins.

The page's own log of why it opened each socket (`zt.online.connects`)
tells "at once" from "after the backoff"; times are printed beside the
issue's limits (noticed within 9 s, backoff at most 5 s), and asserted
only where a busy machine cannot blur them: being visible again notices
a dead socket well before the heartbeat would, and the backoff's longest
gap stays below what a backoff without its cap would wait.
Hidden/visible is played by the page's document (visibilityState and the
event), as a browser does when a phone wakes; headless Chromium has no
window to hide.
"""

import os
import signal

from tests.browser.reader import Reader
from tests.browser.test_online import (  # noqa: F401  (room_server: the fixture)
    join,
    online_text,
    open_room,
    room_server,
    step,
    until,
)

NOTICE_S = 9  # the issue: a dead connection noticed within 9 s
BACKOFF_S = 5  # the issue: reconnect with backoff up to 5 s
BACKOFF_TRIES = 5  # tries before it waits that long (web/online.js BACKOFF_MS)
HANG_S = 30  # beyond a limit of the issue: only a hang waits that long
RECONNECTING = "neuer Versuch"
CONNECTED = "Verbunden mit dem Raum"
VISIBLE_AGAIN = """() => {
  for (const state of ["hidden", "visible"]) {
    Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  }
}"""


class Switch:
    """The test's WebSocket routing: every page socket goes through to the
    server until `cut()`, after which the sockets routed so far carry
    nothing either way (a dead connection that never closes); sockets
    opened later go through again."""

    def __init__(self, context):
        self.links = []
        self.sockets = []
        context.route_web_socket("**/ws/*", self.route)

    def route(self, ws):
        server = ws.connect_to_server()
        link = {"dead": False}
        self.sockets.append(ws)

        def to_server(message):
            if not link["dead"]:
                server.send(message)

        def to_page(message):
            if not link["dead"]:
                ws.send(message)

        def close_page(code, reason):
            # a dead link carries no close either (the server closes a
            # silent seat's connection after 7 s: the page must not hear it)
            if not link["dead"]:
                ws.close(code=code, reason=reason)

        def close_server(code, reason):
            if not link["dead"]:
                server.close(code=code, reason=reason)

        ws.on_message(to_server)
        server.on_message(to_page)
        server.on_close(close_page)
        ws.on_close(close_server)
        self.links.append(link)

    def cut(self):
        for link in self.links:
            link["dead"] = True

    def drop(self):
        """Close the newest socket on the page's side (a dropped connection)."""
        self.sockets[-1].close(code=1001, reason="dropped by the test")


def room(browser, room_server, context=None):  # noqa: F811
    """A page with a room open (two people's seats and a computer: it waits
    in the waiting room for the second person), connected."""
    r = Reader(browser, room_server.base + "/", context=context)
    open_room(r, people=2, computers=1)
    assert until(lambda: CONNECTED in online_text(r), 20), online_text(r)
    return r


def connects(r):
    """The page's log of opened sockets: [why, Date.now()]."""
    return r.page.evaluate("zt.online.connects")


def backoffs(r, since):
    """The page times of the sockets the backoff's timer opened since `since`."""
    return [at for why, at in connects(r) if why == "backoff" and at >= since]


def back(r, since):
    """Connected again after the page time `since`: (ms to connected, the
    reasons of the sockets opened since)."""
    assert until(lambda: CONNECTED in online_text(r), 30), online_text(r)
    now = r.page.evaluate("Date.now()")
    return now - since, [why for why, at in connects(r) if at >= since]


def test_swallowed_messages_are_noticed_and_caught_up(browser, room_server, figure):  # noqa: F811
    context = browser.new_context(locale="de-DE")
    switch = Switch(context)
    r = room(browser, room_server, context)
    assert switch.links  # the page's socket goes through the routing

    t0 = r.page.evaluate("Date.now()")
    switch.cut()
    assert until(lambda: RECONNECTING in online_text(r), NOTICE_S + HANG_S), online_text(r)
    noticed = r.page.evaluate("zt.online.deadAt") - t0
    assert noticed > 0, noticed  # (printed beside the 9 s)
    opened = len(switch.links)
    to_connected, why = back(r, t0)
    assert len(switch.links) > opened and why[0] == "backoff", why  # a new socket
    caught_up = r.page.evaluate("zt.online.caughtUpMs")
    assert "(du)" in online_text(r)

    # the same over a socket that died while the page was hidden: being
    # visible again asks the server at once and does not wait for the heartbeat
    t1 = r.page.evaluate("Date.now()")
    switch.cut()
    r.page.evaluate(VISIBLE_AGAIN)
    assert until(lambda: RECONNECTING in online_text(r), NOTICE_S), online_text(r)
    woke = r.page.evaluate("zt.online.deadAt") - t1
    assert woke <= NOTICE_S * 1000
    back(r, t1)

    # a connection dropped by the routing: a new socket, caught up
    t2 = r.page.evaluate("Date.now()")
    opened = len(switch.links)
    switch.drop()
    # (the routing's callbacks run while the test calls into Playwright)
    assert until(lambda: connects(r) and len(switch.links) > opened, 15), connects(r)
    dropped_ms, why = back(r, t2)
    assert why and why[0] == "backoff", why
    dropped_caught_up = r.page.evaluate("zt.online.caughtUpMs")
    assert not [e for e in r.errors if "WebSocket" not in e], r.errors
    r.close()
    context.close()
    figure("online, messages swallowed: noticed after %d ms (the issue: within 9 s), "
           "connected again %d ms after "
           "the cut, caught up %.0f ms after the new socket opened; visible again over a dead "
           "socket: noticed after %d ms; dropped by the routing: connected again after %d ms, "
           "caught up %.0f ms after the new socket opened" % (
               noticed, to_connected, caught_up, woke, dropped_ms, dropped_caught_up))


def test_a_paused_server_is_noticed(browser, room_server, figure):  # noqa: F811
    r = room(browser, room_server)
    # first a refusal: starting with one person of two; the server's reason
    # in the page's language, on the screen and in full as an alert
    r.choose("Starten")
    r.press("A")
    alert = r.page.get_by_role("region", name="Online").get_by_role("alert")
    alert.wait_for(timeout=10000)
    assert alert.inner_text() == "Ein Raum braucht mindestens 2 Menschen.", alert.inner_text()
    screen = r.snapshot()
    assert "mindestens" in screen and "2 Menschen" in screen, screen  # wrapped in rows
    t0 = r.page.evaluate("Date.now()")
    os.kill(room_server.proc.pid, signal.SIGSTOP)
    try:
        assert until(lambda: RECONNECTING in online_text(r), NOTICE_S + HANG_S), online_text(r)
        noticed = r.page.evaluate("zt.online.deadAt") - t0
        assert noticed > 0, noticed  # (printed beside the 9 s)
    finally:
        os.kill(room_server.proc.pid, signal.SIGCONT)
    t1 = r.page.evaluate("Date.now()")
    to_connected, _ = back(r, t0)
    resumed = r.page.evaluate("Date.now()") - t1
    r.close()
    figure("online, server paused: noticed after %d ms (the issue: within 9 s); connected "
           "again %d ms after it "
           "resumed" % (noticed, resumed))


def test_network_back_and_visible_again_reconnect_at_once(browser, room_server, figure):  # noqa: F811
    r = room(browser, room_server)

    # the network goes: the page notices (its socket fails or falls silent)
    went = r.page.evaluate("Date.now()")
    r.context.set_offline(True)
    assert until(lambda: RECONNECTING in online_text(r), NOTICE_S + 3), online_text(r)
    # the backoff grows to its longest wait (5 s) after five tries
    assert until(lambda: len(backoffs(r, went)) >= BACKOFF_TRIES, 60), connects(r)
    t0 = r.page.evaluate("Date.now()")
    r.context.set_offline(False)
    online_ms, why = back(r, t0)
    assert "online" in why, why  # a socket opened for the event, not only by the timer

    # the server goes: the page backs off, up to 5 s between tries
    stopped = r.page.evaluate("Date.now()")
    room_server.stop()
    assert until(lambda: RECONNECTING in online_text(r), NOTICE_S), online_text(r)
    # six tries: the gap between the fifth and the sixth is the longest
    # wait, 5 s, where a backoff without a cap would wait 8 s (the bound
    # leaves a busy machine 2.5 s for its timers; the gaps are printed)
    assert until(lambda: len(backoffs(r, stopped)) >= BACKOFF_TRIES + 1, 60), connects(r)
    tries = backoffs(r, stopped)
    gaps = [b - a for a, b in zip(tries, tries[1:], strict=False)]
    assert gaps and max(gaps) <= BACKOFF_S * 1000 * 1.5, gaps
    # visible again: a try at once (the server is still away: it fails)
    t1 = r.page.evaluate("Date.now()")
    r.page.evaluate(VISIBLE_AGAIN)
    tried = [at - t1 for why, at in connects(r) if why == "visible" and at >= t1]
    assert tried, connects(r)
    room_server.start()
    back(r, t1)
    r.close()
    figure("online: network back to connected %d ms; visible again to a new socket %d ms; "
           "the backoff's waits %s ms" % (online_ms, tried[0], gaps))


def test_a_second_tab_on_the_same_seat(browser, room_server):  # noqa: F811
    first = room(browser, room_server)
    link = first.page.get_by_role("link", name="Einladungslink").get_attribute("href")
    second = Reader(browser, link, context=first.context)  # the same browser profile

    # the second tab runs the room without the game's lock and takes the seat
    assert until(lambda: CONNECTED in online_text(second) and "(du)" in online_text(second),
                 20), (online_text(second), second.errors)
    notice = second.page.locator("#notices").inner_text()
    assert "nur der Online-Raum" in notice, notice
    assert second.page.get_by_role("button", name="Das Spiel hierher holen").is_visible()
    assert until(lambda: "anderen Tab" in online_text(first), 10), online_text(first)

    def here(r):
        return r.page.get_by_role("region", name="Online").get_by_role("button",
                                                                         name="Hier spielen")

    # "play here" in the first tab takes the seat back, and back again
    here(first).click()
    assert until(lambda: CONNECTED in online_text(first), 15), online_text(first)
    assert until(lambda: "anderen Tab" in online_text(second), 10), online_text(second)
    assert here(second).is_visible() and here(first).count() == 0
    here(second).click()
    assert until(lambda: CONNECTED in online_text(second), 15), online_text(second)
    assert until(lambda: "anderen Tab" in online_text(first), 10), online_text(first)

    # one plays: the game starts with Bea, and the second tab's actions reach her page
    bea = join(browser, link, "Bea")
    seat = second.page.evaluate("zt.online.seat")
    assert until(lambda: step(second) == "acted", 60), (second.snapshot(), second.buttons())

    def seen_by_bea():
        events = bea.page.evaluate("zt.online.eventTimes")
        return [e for e in events if e[2] == "act" and e[3] == seat and e[4] == "p"]

    assert until(seen_by_bea, 15), bea.page.evaluate("zt.online.eventTimes")
    assert "anderen Tab" in online_text(first)
    for r in (first, second, bea):
        assert not [e for e in r.errors if "WebSocket" not in e], r.errors
    second.close()
    bea.close()
    first.close()


def test_a_name_typed_before_the_room_preview_arrives_is_kept(browser, room_server):  # noqa: F811
    anna = Reader(browser, room_server.base + "/")
    link = open_room(anna, people=2, computers=1)
    # the room's preview (GET /api/rooms/CODE) held back until the name is typed
    held = []
    context = browser.new_context(locale="de-DE")
    context.route("**/api/rooms/*", lambda route: held.append(route)
                  if route.request.method == "GET" else route.continue_())
    bea = Reader(browser, link, context=context)
    box = bea.page.get_by_role("textbox", name="Dein Name")
    box.fill("Bea")
    assert until(lambda: held, 10), "the page asked for no preview"
    assert "frei" not in online_text(bea), online_text(bea)
    held[0].continue_()
    # the panel is drawn again with the seats: the name is still there, and joins
    assert until(lambda: "2. frei" in online_text(bea), 10), online_text(bea)
    assert box.input_value() == "Bea"
    bea.page.keyboard.type("t")  # the focus and the caret stayed: typing goes on
    assert box.input_value() == "Beat"
    bea.page.get_by_role("button", name="Mitspielen").click()
    assert until(lambda: CONNECTED in online_text(bea), 20), online_text(bea)
    assert until(lambda: "Beat (du)" in online_text(bea), 20), online_text(bea)
    for r in (anna, bea):
        assert not [e for e in r.errors if "WebSocket" not in e], r.errors
        r.close()
    context.close()
