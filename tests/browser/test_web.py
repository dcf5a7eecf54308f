"""The browser page (make web) in a real browser: headless Chromium driven
through its DevTools protocol by Playwright, against build/web served on
127.0.0.1. Beside every browser step runs the headless simulator with the
same seed and keys; the canvas must equal its screen pixel for pixel.
Those pages run on Playwright's fake clock, moved by the test as the
simulator's is (Page), so a busy machine changes nothing they show.

- the title and the on-screen buttons in both layouts; printed, on the
  real clock: the time from navigation to the title and from a key press
  to the canvas;
- a whole game against the Master (who reads his table) by key presses,
  compared at every decision of the person, with a reload in the middle
  of a turn that goes back into it with the same dice and picks;
- tips from the Expert's shipped plan;
- a failing step: the device's message, error.log, the restart;
- no errors in the console.

Runs when the system's chromium (Debian package `chromium`) and
build/web are there (`make test` builds the page when chromium is
installed); otherwise skipped with the reason. No browser is downloaded.
WEB_SCREENSHOT=path.png also writes a picture of the page in the middle
of a turn (docs/web.png).
"""

import os
import shutil
import statistics
import time
from pathlib import Path

import pytest

from engine.rules import PRESETS
from firmware.screens.setup import KINDS
from simulator.host import GAP_MS, HOLD_MS, Sim
from tests.browser.reader import wait_keys
from tests.cpython.simdriver import person_turn_step

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "build" / "web"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which(
    "chromium-browser")

if CHROMIUM is None or not os.path.exists(CHROMIUM):
    pytest.skip("no chromium installed (apt-get install chromium)", allow_module_level=True)
if not (PAGE / "index.html").exists():
    pytest.skip("build/web missing: run `make web`", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright missing (make test "
                               "installs the browser group)")

KEYS = {"UP": "ArrowUp", "DOWN": "ArrowDown", "LEFT": "ArrowLeft", "RIGHT": "ArrowRight",
        "A": "x", "B": "z"}
SEED = 7
LOAD_RUNS = 5
PRESS_RUNS = 20
LOAD_TARGET_MS = 1500  # the targets, printed beside the figures
PRESS_TARGET_MS = 16
SETTLE_MS = 1500  # animations and timers run out (page and simulator alike)


class Page:
    """One tab with the game, collecting console errors.

    `clock=True` (the tests that play in lockstep with the simulator): the
    page runs on Playwright's fake clock, paused once the page is ready,
    and moves on only when the test moves it (`advance`), as the
    simulator's clock does. A press is then held for HOLD_MS of the
    page's time however busy the machine is: on the real clock a stalled
    browser stretched a 60 ms hold past the buttons' auto-repeat (400 ms)
    or long press (600 ms), and the page played another key than the
    simulator. Figures of time (load, press to canvas) come from pages
    with the real clock."""

    def __init__(self, browser, url, clock=False):
        self.context = browser.new_context(viewport={"width": 900, "height": 760},
                                           locale="de-DE")  # the game's default language
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.url = url
        self.clock = clock
        if clock:
            self.page.clock.install(time=0)  # flowing until the page is ready (pause)
        self.open()

    def open(self):
        """Load the page and wait for the title; returns ms from navigation."""
        self.page.goto(self.url)
        return self.wait_ready()

    def reload(self):
        """Reload (everything in memory is gone) and wait for the title."""
        if self.clock:
            self.page.clock.resume()  # the page loads on a flowing clock
        self.page.reload()
        return self.wait_ready()

    def wait_ready(self):
        # (and the Master's tables, which come after the title: he reads them)
        self.page.wait_for_function(
            "window.zt && ((zt.ready && zt.mastersDone) || zt.errors.length)", timeout=60000)
        assert not self.errors, self.errors
        wait_keys(self.page)
        if self.clock:  # from here on the test moves the page's time
            self.page.clock.pause_at(self.page.evaluate("Date.now()") / 1000 + 1)
        return self.page.evaluate("zt.titleMs")

    def advance(self, ms):
        """Let `ms` of the page's time pass (its frames and timers run);
        on the real clock, wait that long."""
        if self.clock:
            self.page.clock.run_for(ms)
        else:
            time.sleep(ms / 1000)

    def rows(self):
        return self.page.evaluate("zt.rows()")

    def state(self):
        return self.page.evaluate("zt.state()")

    def press(self, key):
        """Press and let go of a key once the page takes keys: held for
        HOLD_MS, then GAP_MS before the next (simulator.host's press)."""
        wait_keys(self.page)
        if not self.clock:
            self.page.keyboard.press(KEYS[key], delay=HOLD_MS)
            return
        self.page.keyboard.down(KEYS[key])
        self.page.clock.run_for(HOLD_MS)
        self.page.keyboard.up(KEYS[key])
        self.page.clock.run_for(GAP_MS)

    def click(self, key):
        """Click the on-screen button `key` once the page takes keys."""
        wait_keys(self.page)
        self.page.click('[data-key="%s"]' % key)
        if self.clock:
            self.page.clock.run_for(GAP_MS)  # the release, after the buttons' debounce

    def stable(self, quiet_ms=250, limit_ms=20000):
        """The canvas's rows once they have not changed for `quiet_ms` of
        the page's time (the roll animation at the fast pace the test sets
        is 150 ms)."""
        if self.clock:
            self.advance(SETTLE_MS)  # as the simulator's settle
        waited = 0
        last = self.rows()
        quiet = 0
        step = 50
        while waited < limit_ms:
            self.advance(step)
            waited += step
            now = self.rows()
            if now != last:
                last, quiet = now, 0
            else:
                quiet += step
                if quiet >= quiet_ms:
                    return now
        raise AssertionError("the canvas never came to rest in %d ms of the page's time"
                             % limit_ms)

    def close(self):
        self.context.close()


def settle(sim, ms=SETTLE_MS):
    """Let the simulator's animations and timers run out."""
    sim.run(ms)
    return sim.rows()


def same_screen(page, sim, what, top=None):
    """The page's canvas (its first `top` rows) equals the simulator's screen."""
    rows = page.stable()[:top]
    expected = settle(sim)[:top]
    assert rows == expected, "%s differs from the simulator:\n%s\n--- simulator:\n%s" % (
        what, "\n".join(rows), "\n".join(expected))


def _person_waits(state):
    """True when the screen waits for the person (not a computer's turn)."""
    if state["screen"] != "play":
        return True
    return state["phase"] != "over" and not state["engine"][1][state["current"]][1]


def test_both_layouts_buttons_and_load_time(browser, server, tmp_path, figure):
    for board in ("pico_ssd1306_i2c", "thumby"):
        page = Page(browser, server + "?seed=%d&board=%s" % (SEED, board), clock=True)
        sim = Sim(board, str(tmp_path / board), seed=SEED)
        assert page.state()["screen"] == "title"
        same_screen(page, sim, "the title (%s)" % board)
        # the on-screen buttons, by mouse: A opens the new-game form, DOWN moves
        for key in ("A", "DOWN"):
            page.click(key)
            sim.press(key)
        assert page.state()["screen"] == "setup"
        same_screen(page, sim, "the new-game form (%s)" % board)
        assert not page.errors, page.errors
        page.close()
    times = []
    for _ in range(LOAD_RUNS):  # each in a new context: nothing cached
        page = Page(browser, server)
        times.append(page.page.evaluate("zt.titleMs"))
        assert not page.errors, page.errors
        if len(times) < LOAD_RUNS:
            page.close()
    # The last one, on the real clock: the time from a key press to the
    # canvas, over presses on the title (what they do is not compared)
    for n in range(PRESS_RUNS):
        page.press("DOWN" if n % 2 else "UP")
    page.page.wait_for_function("zt.presses.length >= %d" % PRESS_RUNS, timeout=60000)
    presses = page.page.evaluate("zt.presses")
    assert not page.errors, page.errors
    page.close()
    median = statistics.median(times)
    figure("web: page load to title, median of %d fresh loads: %.0f ms (min %.0f, max %.0f;"
           " target <= %d ms)" % (len(times), median, min(times), max(times), LOAD_TARGET_MS))
    figure("web: press to canvas, median of %d presses: %.1f ms (max %.1f; target <= %d ms)"
           % (len(presses), statistics.median(presses), max(presses), PRESS_TARGET_MS))


def sync(page, sim, what, top=None):
    """Wait until the page and the simulator wait for the person (computer
    turns and animations over), then check they show the same pixels (the
    first `top` rows) and state; returns the state."""
    state = page.state()
    for _ in range(600):  # 3 minutes of the page's time: only a hang needs more
        if _person_waits(state):
            break
        page.advance(300)
        state = page.state()
    else:
        raise AssertionError("%s: the page's computer turn never ended:\n%s" % (
            what, "\n".join(page.rows())))
    while not _person_waits(sim.state()):
        sim.run(300)
    same_screen(page, sim, what, top)
    state = sim.state()
    assert page.state() == state, what
    return state


def test_whole_game_against_the_master_with_a_reload_mid_turn(browser, server, tmp_path,
                                                               figure):
    page = Page(browser, server + "?seed=%d" % SEED, clock=True)
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=SEED)
    sim.app.has_panel = False  # as the page's host: no contrast or sleep in the settings

    def both(*keys):
        for key in keys:
            page.press(key)
            sim.press(key)

    # Settings: the computer's fast pace (a shorter test; saved like the game)
    down = sim.app.top()._entries(sim.app).index("settings_title")
    both(*["DOWN"] * down)
    both("A", "DOWN", "DOWN")  # language, dice, pace
    assert page.state()["screen"] == "settings"
    both("RIGHT")
    same_screen(page, sim, "the settings")
    both("B", *["UP"] * down)  # back on the title, up to New game
    assert sim.app.session.settings["speed"] == 2

    # New game: Farkle to 4000, a person against the Master (who reads his table)
    both("A")
    same_screen(page, sim, "the new-game form")
    both(*["RIGHT"] * PRESETS.index("farkle4000"))
    both("DOWN", "DOWN", "DOWN", "DOWN")  # target, seat count, seat 1, seat 2
    both(*["RIGHT"] * ((KINDS.index("meister") - KINDS.index("profi")) % len(KINDS)))
    assert page.state()["seats"][1][1] == "meister"
    both("DOWN", "DOWN", "DOWN")  # order, tips, start
    both("A")
    sync(page, sim, "the game's start")
    both("A")  # roll
    before = sync(page, sim, "the first roll")
    assert before["screen"] == "play" and before["phase"] == "keep", before
    both("UP")  # the scoring dice picked and "roll on?" asked: mid-turn, nothing saved yet
    sync(page, sim, "the picked dice")
    if os.environ.get("WEB_SCREENSHOT"):  # the README's picture
        page.page.locator("main").screenshot(path=os.environ["WEB_SCREENSHOT"])

    # Reload mid-turn: the page forgets everything but localStorage (and the
    # turn's picks, kept for the reload): it goes back into the turn with
    # the question asked; the device, powered off and on, shows the title,
    # where Continue and UP make the same screen
    page.reload()
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=SEED)  # power off and on
    assert page.state()["screen"] == "play"
    assert sim.state()["screen"] == "title"
    sim.press("A")  # Continue
    sim.press("UP")  # the scoring dice picked, "roll on?" asked
    after = sync(page, sim, "the resumed game")
    assert after["engine"] == before["engine"]
    assert after["roll"] == before["roll"]

    # Play to the end, the person by simdriver's simple rule, compared at
    # every decision of the person and at the end
    twin = Both(page, sim)
    for decision in range(400):
        state = sync(page, sim, "decision %d" % decision)
        screen = state["screen"]
        if screen == "winner":
            break
        if screen in ("handover", "message"):
            both("A")
        elif screen == "standings":
            both("B")
        else:
            person_turn_step(twin, state, [])
    else:
        raise AssertionError("the game did not end")
    assert state["winner"] in (0, 1)
    assert not page.errors, page.errors
    page.close()
    figure("web: a whole game against the Master in lockstep, %d decisions" % decision)


class Both:
    """simdriver's `sim` for person_turn_step: each press goes to the page
    and the simulator; the state is theirs once both wait for the person."""

    def __init__(self, page, sim):
        self.page = page
        self.sim = sim

    def press(self, key):
        self.page.press(key)
        self.sim.press(key)

    def state(self):
        return sync(self.page, self.sim, "after a press")


def test_tips_against_the_expert(browser, server, tmp_path):
    """Tips come from the Expert's shipped plan as on the device. The tip
    and the dice marks are compared; the status line below them pages
    through more hints every 2 s, on its own clock."""
    page = Page(browser, server + "?seed=%d" % SEED, clock=True)
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=SEED)
    keys = ["A"] + ["DOWN"] * 6 + ["RIGHT", "DOWN", "A"]  # tips on for the person; start
    for key in keys + ["A"]:  # the hand-over: roll
        page.press(key)
        sim.press(key)
    top = 43  # the dice, their marks and the tip's first line (128x64)
    for key in (None, "RIGHT", "A"):  # as rolled; the cursor on; a die picked
        if key:
            page.press(key)
            sim.press(key)
        state = sync(page, sim, "tips after %s" % key, top)
        assert "".join(page.rows()[36:43]).count("#") > 40  # a tip is shown
    assert state["selected"]
    assert not page.errors, page.errors
    page.close()


def test_a_failure_shows_the_device_message_and_plays_on(browser, server, tmp_path):
    """A step that raises goes firmware.recovery's way, as on the device:
    the traceback to the console and error.log, the message in the
    player's language; a new press starts a fresh app, and a second
    failure within 10 s of that leaves the "switch off and on" message."""
    from firmware import recovery

    page = Page(browser, server + "?seed=%d" % SEED, clock=True)
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), seed=SEED)
    messages = []
    for again in (False, True):
        page.page.evaluate("zt.host().app = null")  # the next step raises
        recovery.show(Canvas(sim), sim.width, "de", again)
        assert page.stable() == sim.rows()
        assert page.state()["screen"] == "failed"
        assert any("AttributeError" in e for e in page.errors), page.errors
        messages.append(page.page.evaluate("localStorage.getItem('zt/error.log')"))
        page.errors.clear()
        page.press("A")
        if not again:  # a fresh app on the title
            assert page.state()["screen"] == "title"
            same_screen(page, Sim("pico_ssd1306_i2c", str(tmp_path), seed=SEED), "the title")
    assert page.state()["screen"] == "failed"  # stopped for good
    first, second = (bytes.fromhex(m) for m in messages)  # KeyFS keeps files in hex
    assert first.count(b" ms AttributeError\n") == 1 and b"Traceback" in first
    assert second.startswith(first) and second.count(b" ms AttributeError\n") == 2
    assert not page.errors, page.errors
    page.close()


class Canvas:
    """The simulator's canvas with the two panel calls firmware.recovery makes."""

    def __init__(self, sim):
        self.sim = sim

    def __getattr__(self, name):
        return getattr(self.sim.canvas, name)

    def refresh(self):
        pass

    def show(self):
        pass
