"""Online play in the page (issue 24) against a real room server process
on 127.0.0.1 serving build/web (tests/server/conftest.py starts it with
short timings). Every page is driven as a screen reader or an agent
does (tests/browser/reader.py: role and name locators, aria snapshots,
the on-screen buttons); `window.zt.online` is read only for the printed
figures.

- three browser contexts (each its own storage) and a computer: a room
  opened from the title's Online, the invite link read from the page, two
  people joining by the link with the name field and the join button,
  the invite link's QR code read back from a screenshot, the game played
  to the end, the dice checked in the page, a rematch;
- a reload in the middle of a turn keeps the seat and the dice;
- the server going away and coming back: the pages reconnect and catch
  up (dead connections, the test's WebSocket routing, a paused server,
  the network and visibility: test_online_connection.py);
- the same seat opened in another browser: the newer page plays, the
  older says so and offers to play here;
- an absent person's seat is played by a computer and given back;
- a spectator sees the game.
"""

import io
import re
import statistics
import time
from pathlib import Path

import pytest

from tests.browser.reader import Reader
from tests.browser.test_web import CHROMIUM, PAGE

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.server.conftest import ServerProc  # noqa: E402

zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp missing (the browser group)")
Image = pytest.importorskip("PIL.Image", reason="pillow missing (the browser group)")

ROOT = Path(__file__).resolve().parents[2]
assert CHROMIUM and PAGE


@pytest.fixture
def room_server(tmp_path):
    """A room server serving the built page (away after 0.4 s without a
    connection; a stand-in computer after 6 s more: a reload, which
    boots the port again, takes the seat back before that)."""
    s = ServerProc(tmp_path, "--web", str(PAGE), "--standin-after", "6")
    yield s
    s.stop()
    s.log.close()


def to_room_form(r):
    """From the title to the form that opens a room (Online, Raum eröffnen)."""
    r.choose("Online spielen")
    r.press("A")
    r.snapshot()
    r.choose("Raum eröffnen")
    r.press("A")
    r.snapshot()


def open_room(r, people, computers, tips=False, name=None):
    """From the title: Online, open a room with `people` people's seats and
    `computers` computers, the lowest target, (`tips`) tips for this
    browser's person and (`name`) its name typed into the page's name
    field; returns the invite link."""
    to_room_form(r)
    if name is not None:
        field = r.page.get_by_role("region", name="Online").get_by_role("textbox", name="Dein Name")
        field.fill(name)
        field.press("Enter")  # (done typing: the game's keys again)
        r.snapshot()
        assert "1 %s" % name in r.menu()[0], r.menu()
    r.choose("Ziel")
    for _ in range(12):  # the lowest target (the row cycles): a short game
        if "Ziel: 1000 " in r.menu()[0][r.menu()[1]] + " ":
            break
        r.press("links")
        r.snapshot(0.1)
    assert r.menu()[0][r.menu()[1]] == "Ziel: 1000", r.menu()
    r.choose("Plätze")
    seats = "Plätze: %d" % (people + computers)
    for _ in range(12):  # each new seat is a computer; towards the count, not a
        entry = r.menu()[0][r.menu()[1]]  # number of presses (a held key repeats)
        if entry == seats:
            break
        r.press("rechts" if int(entry.split()[-1]) < people + computers else "links")
        r.snapshot(0.15)
    assert r.menu()[0][r.menu()[1]] == seats, r.menu()
    for seat in range(2, people + 1):  # the first is this browser's person; then people
        r.choose("%d " % seat)
        for _ in range(4):  # (the form's second seat is a person) profi -> ... -> person
            if re.match(r"\d Spieler", r.menu()[0][r.menu()[1]]):
                break
            r.press("links")
            r.snapshot(0.15)
    entries = r.menu()[0]
    persons = [e for e in entries if re.match(r"\d Spieler", e) or e == "1 %s" % name]
    assert len(persons) == people, entries
    assert len([e for e in entries if re.match(r"\d Profi", e)]) == computers, entries
    if tips:
        r.choose("Tipps")
        r.press("rechts")  # tips for every person of the form: online, this browser's
        r.snapshot(0.15)
        assert r.menu()[0][r.menu()[1]] != "Tipps: keine", r.menu()
    r.choose("Los")
    r.press("A")
    link = r.page.get_by_role("link", name="Einladungslink")
    link.wait_for(timeout=20000)
    return link.get_attribute("href")


def join(browser, link, name):  # noqa: F811
    """A new browser context opens the link and joins with `name` (typed
    into the name field, the join button pressed)."""
    r = Reader(browser, link)
    r.page.get_by_role("textbox", name="Dein Name").fill(name)
    r.page.get_by_role("button", name="Mitspielen").click()
    online = r.page.get_by_role("region", name="Online")
    try:
        r.page.get_by_text("Verbunden mit dem Raum").wait_for(timeout=20000)
    except Exception:
        raise AssertionError(online.inner_text())
    return r


def seated_ms(r):
    """The page's clock when its seat's first game state arrived. The room
    says "connected" on its welcome, and the state follows in a second
    message, so a page just joined may not have it yet."""
    r.page.wait_for_function("zt.online.seatedMs !== null", timeout=20000)
    return r.page.evaluate("zt.online.seatedMs")


def online_text(r):
    """The page's online region as text."""
    return r.page.get_by_role("region", name="Online").inner_text()


def step(r):
    """One decision of this browser's seat from the buttons' names; the
    state word: "wait" (another's turn), "over", or "acted"."""
    r.snapshot(0.2)
    keys = r.buttons()
    a = keys.get("A", "")
    if a == "Revanche":
        return "over"
    if keys.get("hoch") == "ja, würfeln":
        r.press("hoch")
    elif keys.get("runter") == "ja, sichern":
        r.press("runter")
    elif a.endswith("zurücklegen"):
        # a stray pick: an A pressed for "los" just as the dice came (the
        # keys are read before the press), which left a die that does not
        # count picked and every key after it refused: put it back
        r.press("A")
    elif keys.get("runter") == "sichern":
        r.press("runter")  # bank ...
        r.snapshot(0.2)
        if r.buttons().get("runter") != "ja, sichern":
            r.press("hoch")  # ... refused (the entry hurdle): roll on
    elif a in ("los", "neu", "weiter"):
        r.press("A")
    else:
        time.sleep(0.1)
        return "wait"
    return "acted"


def play_to_end(readers, limit_s=180):
    """Every reader plays its seat until all see the end."""
    end = time.monotonic() + limit_s
    done = set()
    while len(done) < len(readers) and time.monotonic() < end:
        for i, r in enumerate(readers):
            if i not in done and step(r) == "over":
                done.add(i)
    assert len(done) == len(readers), "\n\n".join(
        r.snapshot() + "\n" + str(r.buttons()) + online_text(r) for r in readers)


def read_qr(locator, tries=10):
    """The texts zxing-cpp reads from a screenshot of `locator`, taken again
    (up to `tries` times, 0.3 s apart) while it reads none: the first shot
    may come before the drawn code is on the screen."""
    texts = []
    for _ in range(tries):
        shot = Image.open(io.BytesIO(locator.screenshot())).convert("L")
        shot = shot.resize((shot.width * 3, shot.height * 3), Image.NEAREST)
        texts = [b.text for b in zxingcpp.read_barcodes(shot)]
        if texts:
            break
        time.sleep(0.3)
    return texts


def test_three_browsers_a_computer_and_an_agent_play_a_room(browser, room_server, figure):  # noqa: F811
    anna = Reader(browser, room_server.base + "/")
    assert "Online spielen" in anna.menu()[0]
    link = open_room(anna, people=3, computers=1)
    assert re.search(r"\?room=[A-Za-z0-9_-]{12}$", link), link
    assert anna.page.get_by_role("button", name="Link kopieren").is_visible()
    # the QR code beside the link, read from the screen by an independent decoder
    qr = anna.page.get_by_role("img", name="QR-Code des Einladungslinks")
    assert read_qr(qr) == [link]
    room = anna.snapshot()
    assert "Raum " in room and room.count(" frei") == 2, room

    t0 = time.monotonic()
    bea = join(browser, link, "Bea")
    link_to_seated = [seated_ms(bea)]
    # the agent: only roles, names and snapshots; a name taken (in any
    # case) is refused with the server's reason in the page's language
    agent = Reader(browser, link)
    agent.page.get_by_role("textbox", name="Dein Name").fill("bea")
    agent.page.get_by_role("button", name="Mitspielen").click()
    said = agent.page.get_by_role("alert").inner_text()
    assert said == "Diesen Namen gibt es in diesem Raum schon.", said
    agent.close()
    agent = join(browser, link, "Agent")
    link_to_seated.append(seated_ms(agent))
    assert time.monotonic() - t0 < 60
    readers = [anna, bea, agent]
    # the last seat taken: the game starts by itself
    for r in readers:
        r.page.get_by_text("Am Zug:").first.wait_for(timeout=20000)
    seats = agent.page.get_by_role("list", name="Plätze").inner_text()
    assert "Bea" in seats and "Agent (du)" in seats and "Computer" in seats, seats

    play_to_end(readers)
    for r in readers:
        r.page.locator("[data-check=ok]").wait_for(timeout=20000)
        assert "Würfel geprüft" in r.page.get_by_role("region", name="Online").inner_text()

    # the figures: an action's send to the other pages' canvases
    sent = {}
    for i, r in enumerate(readers):
        sent[i] = r.page.evaluate("zt.online.sent")
    lags = []
    for i, r in enumerate(readers):
        seat = r.page.evaluate("zt.online.seat")
        mine = sent[i]  # matched in order with the events of this seat's actions
        for j, other in enumerate(readers):
            if j == i:
                continue
            seen = [t for n, t, k, s, by in other.page.evaluate("zt.online.eventTimes")
                    if k == "act" and s == seat and by == "p"]
            lags += [b - a for a, b in zip(mine, seen, strict=False) if b >= a]
    assert lags

    # a rematch: every person says yes (the computer always does), then
    # every page plays game 2
    for r in readers:
        r.press("A")
    for r in readers:
        r.page.get_by_text("Am Zug:").first.wait_for(timeout=20000)
    assert [r.page.evaluate("zt.state().screen") for r in readers] == ["play"] * 3
    for r in readers:
        assert not r.errors, r.errors
        r.close()
    figure("online: link to seated %s ms; an action to the other pages' canvases: median "
           "%.1f ms, max %.1f ms (%d)" % (
               ", ".join("%.0f" % t for t in link_to_seated),
               statistics.median(lags), max(lags), len(lags)))


def dice_of(r):
    """The dice on the screen, as the text layer lists them."""
    snap = r.snapshot()
    if 'list "Würfel"' not in snap:
        return []
    return re.findall(r'listitem: "?([1-6])', snap.split('list "Würfel"')[-1])


def until(what, limit_s=30.0):
    """Wait until `what()` is true; its last value."""
    end = time.monotonic() + limit_s
    while True:
        got = what()
        if got or time.monotonic() > end:
            return got
        time.sleep(0.1)


def test_coming_back_away_and_watching(browser, room_server, figure):  # noqa: F811
    anna = Reader(browser, room_server.base + "/")
    link = open_room(anna, people=2, computers=1)
    bea = join(browser, link, "Bea")
    code = link.rsplit("=", 1)[1]

    # a reload in the middle of Bea's turn: the same seat, the same dice
    def bea_has_dice():
        if step(anna) == "acted":
            return False
        keys = bea.buttons()
        if keys.get("runter") == "sichern":
            return dice_of(bea)
        if keys.get("A") in ("los", "neu", "weiter"):
            bea.press("A")
        return False

    # (Anna's and the computer's turns come first: slow on a busy machine)
    dice = until(bea_has_dice, 120)
    assert dice, (bea.snapshot(), bea.buttons(), anna.snapshot(), anna.buttons(), online_text(bea),
                  bea.errors, anna.errors)
    bea.page.reload()
    bea.wait()
    assert until(lambda: dice_of(bea) == dice, 20), (dice, bea.snapshot())
    assert "Bea (du)" in online_text(bea)
    assert bea.buttons().get("runter") == "sichern"

    # the server goes and comes back: both pages reconnect and catch up
    room_server.stop()
    assert until(lambda: "neuer Versuch" in online_text(anna), 15), online_text(anna)
    room_server.start()
    assert until(lambda: "Verbunden mit dem Raum" in online_text(anna), 15), online_text(anna)
    assert until(lambda: "Verbunden mit dem Raum" in online_text(bea), 15), online_text(bea)
    assert until(lambda: dice_of(bea) == dice, 10), (dice, bea.snapshot())
    caught_up = [r.page.evaluate("zt.online.caughtUpMs") for r in (anna, bea)]

    # the same seat opened on another device (its token copied): the newer
    # one plays, the older says so and offers to play here
    token = bea.page.evaluate("localStorage.getItem('zt-room:%s')" % code)
    other = browser.new_context(locale="de-DE")
    other.add_init_script("localStorage.setItem('zt-room:%s', %r)" % (code, token))
    page2 = Reader(browser, link, context=other)
    assert until(lambda: "Bea (du)" in online_text(page2), 20), (online_text(page2), page2.errors,
                                                                page2.snapshot())
    assert until(lambda: "anderen Tab" in online_text(bea), 10), online_text(bea)
    page2.close()
    other.close()
    bea.page.get_by_role("button", name="Hier spielen").click()
    assert until(lambda: "Verbunden mit dem Raum" in online_text(bea), 15), online_text(bea)

    # a spectator: the link in a browser without a seat, once the game runs
    fan = Reader(browser, link)
    fan.page.get_by_role("button", name="Zuschauen").click()
    assert until(lambda: "Du schaust zu" in online_text(fan), 15), online_text(fan)
    assert until(lambda: "Bea" in online_text(fan), 15), online_text(fan)
    assert "(du)" not in online_text(fan)
    assert 'list "Text"' in fan.snapshot() or 'list "Würfel"' in fan.snapshot()

    # Bea goes away: a computer plays for her (short server timings), and
    # gives the seat back when she returns
    bea.page.goto("about:blank")
    assert until(lambda: "der Computer spielt für Bea" in online_text(anna), 30), online_text(anna)
    assert "der Computer spielt für Bea" in online_text(fan)
    bea.page.goto(link)
    bea.wait()
    assert until(lambda: "Bea (du)" in online_text(bea), 20), online_text(bea)
    assert until(lambda: "spielt für Bea" not in online_text(anna), 20), online_text(anna)
    for r in (anna, bea, fan):
        assert not [e for e in r.errors if "WebSocket" not in e and "Failed to load" not in e], \
            r.errors
        r.close()
    figure("online: reconnect to caught up (server restarted) %s ms" % ", ".join(
         "%.0f" % t for t in caught_up))
