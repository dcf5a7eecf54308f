"""The page's saves under the browser's real conditions, in headless
Chromium (see test_web.py for how it runs and when it is skipped):

- two tabs: one owns the game, the other says so and offers to take it
  over; a tab whose game was taken over never writes again;
- blocked storage (reading localStorage throws a SecurityError): the game
  plays in memory and the page says that nothing is kept;
- full storage (setItem throws QuotaExceededError), before and during a
  game: the store's "could not save" path and the page's message in the
  player's language; nothing that was saved is lost.

The page is read and played through its text layer (tests/browser/reader.py);
the saves are read from localStorage itself.
"""

import re

from tests.browser.reader import Reader, new_game, play_turn, wait_person

# Site data blocked: the browser throws on every use of localStorage.
BLOCKED = """
Object.defineProperty(window, "localStorage", {
  configurable: true,
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});
"""
# A storage at its quota from the start (FULL_NOW) or from when the test says
# so (the flag is the test's own switch for the browser's condition).
QUOTA = """
const realSet = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (window.__quotaFull) {
    throw new DOMException("Setting the value of '" + key + "' exceeded the quota.",
                           "QuotaExceededError");
  }
  return realSet.call(this, key, value);
};
"""
FULL_NOW = QUOTA + "window.__quotaFull = true;\n"
NOT_SAVED = "Nicht gespeichert"  # the device's message (tools/texts/de.py save_failed)


def saved(r, name="zt/game"):
    return r.page.evaluate("(k) => localStorage.getItem(k)", name)


def notices(r):
    return r.page.locator("#notices").inner_text()


def test_two_tabs_one_owner_and_no_stale_write(browser, server):  # noqa: F811
    a = Reader(browser, server + "?seed=7")
    new_game(a)
    play_turn(a)  # the person's turn ends: the game is saved
    wait_person(a)  # and the computer's
    first = saved(a)
    assert first

    b = Reader(browser, server + "?seed=8", context=a.context, wait=False)
    take = b.page.get_by_role("button", name="Hier spielen")
    take.wait_for(timeout=30000)
    assert "in einem anderen Tab offen" in notices(b)
    assert b.screen.get_by_role("heading").count() == 0  # no game runs in b
    assert saved(a) == first

    take.click()  # b takes the game over
    b.wait()
    assert "Weiterspielen" in b.snapshot()
    a.page.get_by_role("button", name="Hier weiterspielen").wait_for(timeout=10000)
    assert "übernommen" in notices(a)

    b.choose("Weiterspielen")
    b.press("A")
    b.snapshot()
    play_turn(b)
    wait_person(b)
    second = saved(b)
    assert second and second != first

    # the stale tab a says it takes no keys, and nothing its keys do is written
    assert a.page.evaluate("document.documentElement.dataset.keys") == "off"
    for key in ("A", "hoch", "A", "runter", "B"):
        a.press(key, ready=False)
    a.snapshot()
    assert saved(a) == second

    a.page.get_by_role("button", name="Hier weiterspielen").click()  # a takes it back
    a.wait()
    b.page.get_by_role("button", name="Hier weiterspielen").wait_for(timeout=10000)
    assert "Weiterspielen" in a.snapshot()
    assert saved(a) == second
    assert not a.errors and not b.errors, (a.errors, b.errors)
    b.close()
    a.close()


def test_blocked_storage_plays_in_memory(browser, server):  # noqa: F811
    r = Reader(browser, server + "?seed=7", init=BLOCKED)
    assert "keinen Speicher" in notices(r)
    new_game(r)
    play_turn(r)
    assert 'list "Würfel"' in r.snapshot() or r.buttons().get("A") == "schneller"
    r.page.reload()
    r.wait()
    assert "Weiterspielen" not in r.snapshot()  # nothing was kept, as the page said
    assert not r.errors, r.errors
    r.close()


def test_full_storage_before_the_game(browser, server):  # noqa: F811
    r = Reader(browser, server + "?seed=7", init=FULL_NOW)
    new_game(r)
    screens = []
    for _ in range(6):  # the game begins and plays: the dice, the computer
        screens.append(r.snapshot())
        if 'list "Würfel"' in screens[-1]:
            break
        r.press("A")
    assert 'list "Würfel"' in screens[-1], screens
    assert any(NOT_SAVED in s for s in screens) or "voll" in notices(r)
    assert "Speicher des Browsers ist voll" in notices(r)
    play_turn(r)
    assert saved(r) is None
    assert not [e for e in r.errors if "Quota" in e], r.errors
    r.close()


def test_full_storage_during_a_game_keeps_the_last_save(browser, server):  # noqa: F811
    r = Reader(browser, server + "?seed=7", init=QUOTA)
    new_game(r)
    play_turn(r)  # saved
    kept = saved(r)
    assert kept
    wait_person(r)
    kept = saved(r)
    r.page.evaluate("window.__quotaFull = true")  # the storage fills up
    play_turn(r)  # the turn's save fails: the game plays on
    assert "Speicher des Browsers ist voll" in notices(r)
    assert saved(r) == kept  # nothing saved was lost
    screen = r.snapshot()
    assert re.search(r"heading|Würfel|schneller", screen + str(r.buttons())), screen
    r.page.reload()  # (the init script's switch starts off again)
    r.wait()
    assert "Weiterspielen" in r.snapshot()
    assert saved(r) == kept
    assert not [e for e in r.errors if "Quota" in e], r.errors
    r.close()
