"""Reading and playing the page as a screen reader or an agent does: the
text layer's region, the on-screen buttons by role and name (shared by
the browser tests; no pixel and no `window` hook)."""

import re
import time

BUTTON = re.compile(r'button "([^"]*)"')
HOW = ("click", "Enter", " ")  # the ways a button is pressed, taken in turn
# The page takes keys (web/host.js, readyForKeys): the app has drawn its
# first frame and every key goes straight to it.
KEYS_READY = "html[data-keys=ready]"


def wait_keys(page, limit_s=60.0):
    """Until `page` takes keys; a bound only a hang reaches."""
    page.wait_for_selector(KEYS_READY, state="attached", timeout=limit_s * 1000)


class Reader:
    """One tab, seen as a screen reader or an agent sees it."""

    def __init__(self, browser, url, context=None, init=None, wait=True,
                 viewport=(900, 900), locale="de-DE", scale=1, phone=False):
        """A tab on `url`: in a new context of `browser` (with the init
        script `init`), or a new tab of `context` (another tab of the same
        browser profile). `wait`: until the screen has a heading."""
        self.own = context is None
        if context is None:
            context = browser.new_context(
                viewport={"width": viewport[0], "height": viewport[1]}, locale=locale,
                device_scale_factor=scale, has_touch=phone, is_mobile=phone)
            if init:
                context.add_init_script(init)
        self.context = context
        self.page = context.new_page()
        self.errors = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.screen = self.page.get_by_role("region", name=re.compile("^(Bildschirm|Screen)$"))
        if wait:
            self.wait()
        self.presses = 0

    def wait(self):
        """Until the screen has a heading (the game runs in this tab)."""
        self.screen.get_by_role("heading").first.wait_for(timeout=30000)

    def snapshot(self, quiet_s=0.35, limit_s=30.0):
        """The screen's aria snapshot once it has not changed for `quiet_s`."""
        end = time.monotonic() + limit_s
        last = self.screen.aria_snapshot()
        since = time.monotonic()
        while time.monotonic() < end:
            time.sleep(0.05)
            now = self.screen.aria_snapshot()
            if now != last:
                last, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet_s:
                return now
        return last

    def buttons(self):
        """{name before the colon: what it does now} of the on-screen buttons."""
        out = {}
        for name in BUTTON.findall(self.page.locator("body").aria_snapshot()):
            base, _, action = name.partition(": ")
            out[base] = action
        return out

    def press(self, base, ready=True):
        """Press the button whose name starts with `base`, by click, Enter or
        Space; once the page takes keys (`ready=False`: at once, for a tab
        that must not take them)."""
        button = self.page.get_by_role("button", name=re.compile("^%s(: |$)" % re.escape(base)))
        how = HOW[self.presses % len(HOW)]
        self.presses += 1
        if ready:
            wait_keys(self.page)
        if how == "click":
            button.click()
        else:
            button.press(how)
        self.page.wait_for_timeout(60)  # a person's pace: not inside the buttons' debounce

    def menu(self, limit_s=15.0):
        """(entries, the highlighted one) of the menu on screen. The live
        region follows the frame a moment after it last changed (longer on
        a busy machine): a reader waits up to `limit_s` for a menu with one
        highlighted entry, as a person waits for the screen."""
        items = self.screen.get_by_role("list", name="Menü").get_by_role("listitem")
        end = time.monotonic() + limit_s
        while True:
            texts = items.all_inner_texts()
            current = [i for i, t in enumerate(texts) if t.endswith(" (ausgewählt)")]
            if len(current) == 1 or time.monotonic() > end:
                break
            time.sleep(0.1)
        assert len(current) == 1, texts
        return [t.removesuffix(" (ausgewählt)") for t in texts], current[0]

    def choose(self, label):
        """Move down the menu to the entry starting with `label`."""
        for _ in range(20):
            entries, index = self.menu()
            if entries[index].startswith(label):
                return
            self.press("runter")
            self.snapshot(0.2)
        raise AssertionError("no entry %r in %s" % (label, self.menu()[0]))

    def close(self):
        if self.own:
            self.context.close()
        else:
            self.page.close()


def new_game(r):
    """From the title: a new game with the form's defaults (a person, then
    the Profi); returns when the person's turn waits to start."""
    r.choose("Neues Spiel")
    r.press("A")
    r.snapshot()
    r.choose("Los")
    r.press("A")
    r.snapshot()


def play_turn(r, limit=80):
    """Play the person's turn by rolling on until it ends (a farkle: the
    computer's turn begins); the turn's end saves the game."""
    for _ in range(limit):
        r.snapshot()
        keys = r.buttons()
        if keys.get("A") == "schneller":
            return
        if keys.get("hoch") in ("ja, würfeln", "würfeln"):
            r.press("hoch")
        elif "A" in keys and keys["A"]:
            r.press("A")
        else:
            raise AssertionError("stuck on\n%s\n%s" % (r.snapshot(), keys))
    raise AssertionError("the turn did not end")


def wait_person(r, limit=60):
    """Until the computer's turn is over and the person's waits."""
    for _ in range(limit):
        if r.buttons().get("A") != "schneller":
            return
        r.snapshot()
    raise AssertionError("the computer's turn did not end")
