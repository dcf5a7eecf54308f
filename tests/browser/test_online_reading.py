"""The text layer read as written (issue 33, point 5), against a real room
server on 127.0.0.1 serving build/web; every page driven as a screen
reader or an agent does (tests/browser/reader.py: roles, names, aria
snapshots):

- a whole room game, two people with names of the field's full length,
  one of them checked at every step: the header heading in whole words
  with whole names, none of the device's shorthand ("…", "vorn",
  "-1650 +150"), the arrows and A named by what they do to the die
  under the cursor, "Du bist dran!" exactly on its own turns, refusals
  never as menu entries, and the winner and the scores read at the end;
- every help page: its whole paragraphs under its heading, none a
  device-width fragment, the same whatever the device's window shows.
"""

import re

import pytest

from tests.browser.reader import Reader
from tests.browser.test_web import CHROMIUM, PAGE

pytest.importorskip("uvicorn", reason="the server group is missing (make test installs it)")
from tests.browser.test_online import (  # noqa: E402
    join,
    open_room,
    room_server,
    step,
)

assert CHROMIUM and PAGE and room_server

ANNA = "Maximilianus"  # 12 letters, the name field's most: the device cuts it
BEA = "Bernadettche"  # 12 too

# The play screen's header in whole words (web/textlayer.py header_text).
HEADER = re.compile(r"^(%s|%s): \d+ Punkte(, (\d+ (vor|hinter) (%s|%s)"
                    r"|\d+ fehlen, um an (%s|%s) vorbeizuziehen|gleichauf mit (%s|%s)))?"
                    r", dieser Zug [+-]\d+$" % ((ANNA, BEA) * 4))
SHORTHAND = (
    # a name cut to the device's width ("P…: 1800", "Maximi… 0"); a menu
    # entry that opens a screen ("Geht…") ends in one as it does anywhere
    re.compile(r"…(:|\s+[-+]?\d)"),
    re.compile(r'heading "[^"\n]*…'),
    re.compile(r"\bvorn\b"),  # "P…: 1800 vorn 1050 +0"
    re.compile(r"-\d{2,5} \+\d"),  # "Spieler 1: 0 -1650 +150"
    re.compile(r"\.\.\d"),  # "Drei 2er..6er"
)


def headings(snap):
    """The headings of an aria snapshot, in order."""
    return re.findall(r'heading "(.*)" \[level', snap)


def plain(snap, where):
    """Assert `snap` has none of the device's shorthand."""
    for pattern in SHORTHAND:
        assert not pattern.search(snap), "%s: %r in\n%s" % (where, pattern.pattern, snap)


def check_play(r, snap, keys, seen):
    """Everything a reader of a room's play screen is owed (see the module
    docstring); counts in `seen` what was checked."""
    plain(snap, "play")
    plain(" ".join("%s: %s" % kv for kv in keys.items()), "buttons")
    menu = r.screen.get_by_role("list", name="Menü")
    if menu.count():
        said = " ".join(menu.all_inner_texts())
        assert "mindestens" not in said and "Menschen" not in said, said
    heads = [h for h in headings(snap) if h.startswith((ANNA + ":", BEA + ":"))]
    if not heads:
        return
    head = heads[0]  # the play screen's header
    assert HEADER.match(head), head
    seen["headers"] += 1
    mine = head.startswith(ANNA + ":")
    if mine:
        assert "Du bist dran!" in snap, snap
        seen["my turn said"] += 1
    else:
        assert "Du bist dran!" not in snap, snap
        seen["other turn quiet"] += 1
    if mine and re.search(r"listitem: \"?[1-6][^\n]*Cursor", snap):
        assert keys.get("links") == "zum Würfel links", keys
        assert keys.get("rechts") == "zum Würfel rechts", keys
        assert re.fullmatch(r"die [1-6] (nehmen|zurücklegen)", keys.get("A", "")), keys
        seen["dice keys named"] += 1


def read_table(r, seen):
    """B on the play screen: the table of the room's seats, read with
    their whole names; B again back to the game."""
    r.press("B")
    table = r.snapshot()
    plain(table, "table")
    assert ANNA in table and BEA in table, table
    seen["table"] += 1
    r.press("B")
    r.snapshot()


def test_a_whole_room_game_reads_in_whole_words(browser, room_server, figure):  # noqa: F811
    anna = Reader(browser, room_server.base + "/")
    link = open_room(anna, people=2, computers=0, name=ANNA)
    bea = join(browser, link, BEA)
    seen = {"table": 0, "headers": 0, "my turn said": 0, "other turn quiet": 0,
            "dice keys named": 0, "steps": 0}
    over = set()
    for _ in range(900):
        if anna not in over:
            snap = anna.snapshot(0.2)
            check_play(anna, snap, anna.buttons(), seen)
            seen["steps"] += 1
            keys = anna.buttons()
            if not seen["table"] and keys.get("A") == "los" and keys.get("B") == "Tabelle":
                read_table(anna, seen)
            if step(anna) == "over":
                over.add(anna)
        if bea not in over and step(bea) == "over":
            over.add(bea)
        if len(over) == 2:
            break
    assert len(over) == 2, (anna.snapshot(), bea.snapshot())
    # the result, read: the winner's whole name, both seats' scores
    end = anna.snapshot()
    plain(end, "result")
    winner = re.search(r'heading "(.+) gewinnt!"', end)
    assert winner and winner.group(1) in (ANNA, BEA), end
    scores = {name: int(points) for name, points in
              re.findall(r"(%s|%s)\W+(\d+)" % (ANNA, BEA), end)}
    assert set(scores) == {ANNA, BEA}, end
    assert scores[winner.group(1)] == max(scores.values()) >= 1000, end
    assert seen["table"] and seen["my turn said"] and seen["other turn quiet"] \
        and seen["dice keys named"], seen
    for r in (anna, bea):
        assert not r.errors, r.errors
        r.close()
    figure("web: a room game read through the text layer: %s, %s won with %s" % (
         seen, winner.group(1), scores))


FRAGMENT = re.compile(r"^(x?\d+%?|[a-zäöüß].*)$")  # "x100", or a sentence's lowercase tail
ENDS = (".", "!", "?", ")", ":", "%") + tuple("0123456789")


def test_every_help_page_reads_as_whole_paragraphs(browser, server):  # noqa: F811
    r = Reader(browser, server + "?seed=7")
    r.choose("Regeln")
    r.press("A")
    r.snapshot()
    entries = r.menu()[0]
    pages = entries[1:-1]  # (the first row: the rule set; the last: the tips lesson, a game)
    assert len(pages) == 7 and "Lektion" in entries[-1], entries
    read = {}
    for page in pages:
        r.choose(page)
        r.press("A")
        snap = r.snapshot()
        assert headings(snap)[0] == page, snap
        assert 'list "Text"' not in snap and 'list "Menü"' not in snap, snap
        plain(snap, page)
        said = [p for p in r.screen.get_by_role("paragraph").all_inner_texts()
                if not p.startswith("Tasten:")]
        assert said, snap
        for p in said:
            assert not FRAGMENT.match(p), (page, p, said)
            assert p.endswith(ENDS), (page, p, said)
        # the device's window moves on; the page read stays the same, whole
        for _ in range(3):
            r.press("runter")
        r.snapshot()
        again = [p for p in r.screen.get_by_role("paragraph").all_inner_texts()
                 if not p.startswith("Tasten:")]
        assert again == said, (page, said, again)
        read[page] = said
        r.press("B")
        back = r.snapshot()
        assert 'list "Menü"' in back, (page, back)
        assert r.menu()[0] == entries
    assert "Ein Zug beginnt mit allen Würfeln." in read["Ablauf"], read
    assert not r.errors, r.errors
    r.close()
