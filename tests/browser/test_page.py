"""The page as a web page, in headless Chromium (see test_web.py for how
it runs and when it is skipped): played only through the accessibility
tree, checked by axe-core.

- a whole game against a computer, read from the text layer (role and
  name locators, aria snapshots) and played with the on-screen buttons by
  click, Enter and Space: no pixel and no `window` hook is read;
- axe-core (web/node_modules/axe-core) finds no serious or critical
  violation on the title, the help and the play screen.
"""

import re
from pathlib import Path

import pytest

from tests.browser.reader import Reader

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "web" / "node_modules" / "axe-core" / "axe.min.js"
def test_a_whole_game_through_the_accessibility_tree(browser, server, figure):  # noqa: F811
    r = Reader(browser, server + "?seed=11")
    title = r.snapshot()
    assert 'heading "Zehntausend"' in title
    assert r.buttons()["A"] == "wählen"
    r.choose("Neues Spiel")
    r.press("A")
    assert 'heading "Neues Spiel"' in r.snapshot()
    r.choose("Ziel")
    target = None
    for _ in range(20):  # down to 2000 or the lowest above (a short game; the values wrap)
        r.press("links")
        r.snapshot(0.2)
        now = int(re.search(r"Ziel: (\d+)", r.menu()[0][1]).group(1))
        if target is not None and (now > target or now < 2000):
            r.press("rechts")
            r.snapshot(0.2)
            break
        target = now
        if now <= 2000:
            break
    assert target == int(re.search(r"Ziel: (\d+)", r.menu()[0][1]).group(1))
    seats = r.menu()[0]
    assert any("Profi" in s for s in seats), seats  # a computer plays the second seat
    r.choose("Los")
    r.press("A")

    moves = {"rolled": 0, "banked": 0, "dice seen": 0}
    declined = None  # the question last answered no
    want_bank = False
    for _ in range(600):
        snap = r.snapshot()
        keys = r.buttons()
        if keys.get("A") == "Revanche":
            break
        if keys.get("A") == "schneller":  # the computer's turn: hurry it
            r.press("A")
            continue
        dice = re.findall(r'listitem: "?([1-6])(?:, ([^"\n]*))?"?', snap.split('list "Würfel"')[-1]
                          ) if 'list "Würfel"' in snap else []
        if dice:
            moves["dice seen"] += 1
            assert 1 <= len(dice) <= 6, snap
        stake = re.search(r"Weiter mit (\d+)\?", snap)
        if keys.get("hoch") == "ja, würfeln":
            if stake and int(stake.group(1)) >= 350 and declined != snap:
                declined = snap  # enough: say no, then bank the picked dice
                want_bank = True
                r.press("B")
            else:
                r.press("hoch")
                moves["rolled"] += 1
        elif keys.get("runter") == "ja, sichern":
            r.press("runter")
            moves["banked"] += 1
        elif keys.get("hoch") == "würfeln" and keys.get("runter") == "sichern":
            r.press("runter" if want_bank else "hoch")
            want_bank = False
        elif keys.get("A"):
            r.press("A")
        else:
            raise AssertionError("no button to press on\n%s\n%s" % (snap, keys))
    else:
        raise AssertionError("the game did not end")
    end = r.snapshot()
    winner = re.search(r'heading "(.+) gewinnt!"', end)
    assert winner, end
    scores = [int(n) for n in re.findall(r"(\d+) Punkte", end)]  # ("2. Profi 1: 650 Punkte")
    assert max(scores) >= target, end
    assert moves["banked"] and moves["dice seen"] > 2, moves
    assert not r.errors, r.errors
    r.close()
    figure("web: a whole game to %d through the accessibility tree: %s, %d presses,"
           " %s won" % (target, moves, r.presses, winner.group(1)))


def axe(page):
    """axe-core's serious and critical violations on the page now."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.skipif(not AXE.exists(), reason="axe-core missing: run `make web` (npm ci in web/)")
def test_axe_finds_no_serious_violation(browser, server):  # noqa: F811
    r = Reader(browser, server + "?seed=7")
    r.snapshot()
    assert axe(r.page) == [], "title"
    r.choose("Regeln")
    r.press("A")
    assert "heading" in r.snapshot()
    assert axe(r.page) == [], "help"
    r.press("B")
    r.snapshot()
    r.choose("Neues Spiel")
    r.press("A")
    r.snapshot()
    r.choose("Los")
    r.press("A")
    for _ in range(20):  # to the dice
        snap = r.snapshot()
        if 'list "Würfel"' in snap:
            break
        r.press("A")
    assert 'list "Würfel"' in snap, snap
    assert axe(r.page) == [], "play"
    assert not r.errors, r.errors
    r.close()


def test_the_page_explains_itself_in_the_browsers_language(browser, server):  # noqa: F811
    r = Reader(browser, server + "?seed=7", locale="en-US")  # a first visit from an English browser
    page = r.page
    assert page.get_by_role("heading", level=1).inner_text() == "Zehntausend"
    assert "New game" in r.snapshot()
    assert page.evaluate("document.documentElement.lang") == "en"
    rules = page.get_by_role("link", name="The rules")
    assert rules.get_attribute("href") == "rules-en.html"
    assert page.get_by_role("button", name="English").get_attribute("aria-pressed") == "true"

    page.get_by_role("button", name="Deutsch").click()  # the visible switch
    assert "Neues Spiel" in r.snapshot()
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.get_by_role("link", name="Die Regeln").get_attribute("href") == "rules-de.html"
    page.reload()  # the choice is the game's own setting: kept
    r.wait()
    assert "Neues Spiel" in r.snapshot()
    assert page.evaluate("document.documentElement.lang") == "de"

    page.get_by_role("link", name="Die Regeln").click()
    page.get_by_role("heading", name="Wertung").wait_for()
    assert page.evaluate("document.documentElement.lang") == "de"
    assert not r.errors, r.errors
    r.close()
