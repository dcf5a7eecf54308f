"""Every text fits its place, in both languages, on both layouts.

Two halves:

- Every key of tools/texts/de.py and en.py has a place in
  tools/texts/places.py (a key without one fails), and its text, filled
  with the widest values that can occur and set in its line, is measured
  in the layout's font against the place's width. The same for the page's
  online texts (web/online.py's SAY) against places.ONLINE_PLACES.
- The screens of tools/screenshots.py, and a few more with the widest
  names, are driven by key presses in both languages on both layouts while
  every `Ui.fit` and every glyph drawn is watched: a line cut anywhere but
  inside a person's name fails, so does a text drawn past the right edge,
  and so does any word on a German screen that is no word of the German
  texts (English prose from code, or an English text).
"""

import json
import re
import tempfile

import pytest

from engine.rules import KEYS as RULE_KEYS
from firmware import font
from firmware.ui import Ui
from server import reasons
from tools import screenshots
from tools.texts import de, en, places
from tools.texts.places import BIG, BOTH, HINT, LINE, MENU, NAME, SMALL, TITLE, WRAP

LAYOUTS = {"big": (128, font.REGULAR), "small": (72, font.SMALL)}
LANGS = {"de": de.TEXTS, "en": en.TEXTS}
ONLINE = screenshots.online_module().SAY  # the page's online texts, per language
# the room server's reasons, shown on the online screens (places.REASON)
REASON_PLACES = {k: places.REASON_RULES if k == "rules" else places.REASON
                 for k in reasons.TEXTS["de"]}
CODE_KEYS = [k for k in de.TEXTS if k.startswith("opt_")]


def _widest_char(f):
    from firmware.screens.typer import ALPHABET

    return max(ALPHABET, key=f.char_width)


def _short_name(f):
    return _widest_char(f) * places.NAME_SHOWN + "…"


def _width(where, layout):
    w = LAYOUTS[layout][0]
    if isinstance(where, tuple) and where[0] == "px":
        return where[1] if layout == "big" else where[2]
    if isinstance(where, tuple):  # lines(n): the pager's width
        return w - 1
    return {TITLE: w - 2, HINT: w, LINE: w, MENU: w - 4, WRAP: w - 1}[where]


def _wrap(text, f, width):
    """firmware.screens.help.wrap, on a font."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = word if not line else line + " " + word
            if f.width(trial) <= width or not line:
                line = trial
                continue
            out.append(line)
            line = word
        out.append(line)
    return out


def _expand(template, texts, f, this="", table=places.PLACES):
    """`template` with {} as `this`, {KEY} as the text of KEY (filled with
    its widest values) and {KEY1|KEY2} as the widest of several."""

    def one(m):
        if not m.group(1):
            return this
        if m.group(1) == "NAME":
            return _short_name(f)
        return max((_text(k, texts, f, table) for k in m.group(1).split("|")), key=f.width)

    return re.sub(r"\{([\w|]*)\}", one, template)


def _value(arg, texts, f, table=places.PLACES):
    if arg is NAME:
        return _short_name(f)
    if arg is places.CODE:
        return max((texts[k] for k in CODE_KEYS), key=f.width)
    if arg is places.RULE_KEY:
        return max(RULE_KEYS, key=f.width)
    if arg is places.ROOM_CODE:
        return max(places.ROOM_CODE_CHARS, key=f.char_width) * places.ROOM_CODE_LEN
    if isinstance(arg, str):
        return _expand(arg, texts, f, table=table)
    return arg


def _text(key, texts, f, table=places.PLACES):
    """The text of `key` with its widest values."""
    text = texts[key]
    n = len(re.findall(r"%[sd]", text))
    if n:
        args = table[key].args
        assert len(args) >= n, "%s: %d values for %d placeholders" % (key, len(args), n)
        text = text % tuple(_value(a, texts, f, table) for a in args[:n])
    return text


def _filled(key, texts, f, room=None, table=places.PLACES):
    """The text of `key` with its widest values, set in its line (where
    it gives way, shortened to a name's least when the line is too wide)."""
    place = table[key]
    text = _text(key, texts, f, table)
    line = _expand(place.line, texts, f, text, table)
    if place.give_way and room is not None and f.width(line) > room:
        line = _expand(place.line, texts, f, text[:places.NAME_SHOWN] + "…", table)
    return line


def test_every_key_has_a_place():
    """Adding a text means saying where it is drawn (tools/texts/places.py)."""
    missing = sorted(k for k in set(de.TEXTS) | set(en.TEXTS) if k not in places.PLACES)
    stale = sorted(k for k in places.PLACES if k not in de.TEXTS)
    assert not missing, "texts without a place in tools/texts/places.py: %s" % missing
    assert not stale, "places of texts that no longer exist: %s" % stale
    for key, place in places.PLACES.items():
        assert place.on in (BOTH, BIG, SMALL), key


def test_every_online_text_has_a_place():
    """The page's online texts (web/online.py) are placed like the device's."""
    for lang in LANGS:
        keys = set(ONLINE[lang])
        assert keys == set(places.ONLINE_PLACES), (lang, keys ^ set(places.ONLINE_PLACES))


@pytest.mark.parametrize("lang", sorted(LANGS))
@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("table", ["device", "online", "reasons"])
def test_every_text_fits_its_place(lang, layout, table):
    texts = {"device": LANGS, "online": ONLINE, "reasons": reasons.TEXTS}[table][lang]
    where = {"device": places.PLACES, "online": places.ONLINE_PLACES,
             "reasons": REASON_PLACES}[table]
    f = LAYOUTS[layout][1]
    bad = []
    for key in sorted(where):
        place = where[key]
        if place.on not in (BOTH, layout):
            continue
        room = _width(place.where, layout)
        line = _filled(key, texts, f, room, where)
        missing = [c for c in line if not f.has(c)]
        if missing:
            bad.append("%s: no glyph for %r" % (key, "".join(missing)))
        if isinstance(place.where, tuple) and place.where[0] == "lines":
            got = _wrap(line, f, room)
            if len(got) > place.where[1] or any(f.width(g) > room for g in got):
                bad.append("%s: %r takes %d lines, room %d" % (key, line, len(got),
                                                                 place.where[1]))
        elif place.where == WRAP:
            words = [w for w in line.replace("\n", " ").split(" ") if f.width(w) > room]
            if words:
                bad.append("%s: word %r wider than %d px" % (key, words[0], room))
        elif f.width(line) > room:
            bad.append("%s: %r is %d px, room %d" % (key, line, f.width(line), room))
    assert not bad, "%s %s:\n  %s" % (lang, layout, "\n  ".join(bad))


# ------------------------------------------------------------ rendered screens

# Names as wide as the name entry allows, for the scenes that seat people.
WIDE = {"big": "ÄÖÜäöüßÄÖÜäö", "small": "WMwmWMwmWMwm"}


class Watch:
    """Watches the texts the screens shorten (`Ui.fit`) and draw (every
    `Font.draw`) on a screen `width` px wide."""

    def __init__(self, names, width):
        # Ui.fit_name keeps a name's closing number ("Spiel…2") and shortens
        # the rest: that rest is a name too
        self.names = names + [n.rstrip("0123456789") for n in names if n[-1:].isdigit()]
        self.width = width
        self.cuts = []
        self.drawn = []
        self.overflow = []

    def __enter__(self):
        watch = self
        self._fit = Ui.fit
        self._draw = font.Font.draw

        def fit(ui, s, width):
            out = watch._fit(ui, s, width)
            if out != s:
                kept = out[:-1]
                lost = s[len(kept):]  # what the "…" stands for: the end of a name only
                if not any(n.endswith(lost) and kept.endswith(n[:len(n) - len(lost)])
                           for n in watch.names):
                    watch.cuts.append((s, out))
            return out

        def draw(f, canvas, s, x, y, color=1):
            end = watch._draw(f, canvas, s, x, y, color)
            watch.drawn.append(s)
            if x + f.width(s) > watch.width:
                watch.overflow.append(s)
            return end

        Ui.fit = fit
        font.Font.draw = draw
        return self

    def __exit__(self, *exc):
        Ui.fit = self._fit
        font.Font.draw = self._draw


def test_the_watch_sees_cuts_overflow_and_english(tmp_path):
    """The rendered half can fail: a cut word, a text past the edge and an
    English word on a German screen are each reported."""
    sim = _sim("thumby", "de", str(tmp_path))
    ui = sim.app.ui
    canvas = sim.app.canvas
    with Watch(["Spieler 2"], ui.w) as watch:
        assert ui.fit("Zurück: Spieler 2: Nichts", ui.w).endswith("…")
        assert ui.fit("Anna: Spieler 2", 40).endswith("…")  # only the name: fine
        ui.text(canvas, "save is damaged (checksum)", 20, 0)
    assert [c[0] for c in watch.cuts] == ["Zurück: Spieler 2: Nichts"]
    assert watch.overflow == ["save is damaged (checksum)"]
    foreign = [w for w in _words(watch.drawn[0]) if w not in _vocabulary(de.TEXTS)]
    assert foreign == ["save", "damaged", "checksum"]


def _vocabulary(texts):
    words = set()
    for t in texts.values():
        words.update(_words(t))
    return words


def _words(s):
    return [w for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", s)]


def _sim(board, lang, tmp):
    sim = screenshots._sim(board, tmp)
    sim.app.session.settings["lang"] = lang
    sim.app.lang = lang
    sim.app.redraw()
    sim.step()
    return sim


def _scenes():
    return list(screenshots.scenes()) + [(name, "", fn) for name, fn in EXTRA]


def _long_pad(sim):
    """A score pad of the widest names, a "Nichts" taken back by the menu."""
    from engine.scorepad import ScorePad
    from firmware.screens.pad import PadScreen

    pad = ScorePad(10000, 1000, 1000, [WIDE_NOW[0], WIDE_NOW[0][:-1] + "2"])
    sim.app.home(PadScreen(pad))
    sim.run(100)
    sim.keys("A,B,A,DOWN")  # nothing for the first; the menu at its undo entry
    sim.keys("A")  # taken back: the pad says so


def _long_game(sim):
    """A hand-over and play screens with the widest names and big scores."""
    from engine.rules import preset

    game = screenshots._game(preset("zehntausend").replace(target=50000), [WIDE_NOW[0], "Ben"],
                             [2, 3, 4, 6, 6, 2] * 4, [49950, 48000])
    game.apply(("roll",))
    screenshots._play_with(sim, game)


def _bust(sim):
    """Exact target, 50 short: a roll whose every scoring die is too much."""
    from engine.rules import preset

    game = screenshots._game(preset("punktlandung").replace(target=50000),
                             [WIDE_NOW[0], "Ben"], [5, 2, 3, 4, 6, 6, 1, 2, 3, 4, 6],
                             [49900, 48000])
    game.apply(("roll",))
    game.apply(("roll",))
    screenshots._play_with(sim, game)
    assert game.lost_kind == "bust", game.phase


def _long_solo(sim):
    """Alone at a far target: a 5-digit score, a 5-digit turn, many turns."""
    from engine.rules import preset

    game = screenshots._game(preset("zehntausend").replace(target=50000), ["Anna"],
                             [1, 5, 2, 3, 4, 6], [38000])
    game.seats[0].turns = 98
    game.apply(("roll",))
    game.turn_total = 11950  # a long turn, in view while its dice are picked
    screenshots._play_with(sim, game)


def _long_standings(sim):
    """The hand-over and the standings of eight seats with the widest names."""
    from engine.rules import preset

    names = [WIDE_NOW[0][:-1] + str(i) for i in range(8)]
    game = screenshots._game(preset("zehntausend").replace(target=50000), names, [1] * 6,
                             [49950] * 8)
    screenshots._play_with(sim, game)
    sim.keys("B")


def _saved_game(sim):
    from engine.rules import preset

    game = screenshots._game(preset("zehntausend"), [WIDE_NOW[0], "Ben"], [1, 5, 2, 3, 4, 6])
    game.apply(("roll",))
    sim.app.session.save_game(game)
    return sim.app.session.store.fs


def _continue(sim):
    sim.app.version += 1  # the title lists its entries again
    sim.app.redraw()
    sim.run(50)
    sim.keys("A")


def _damaged_save(sim):
    """Every copy of the saved game damaged: "Weiterspielen" says so."""
    fs = _saved_game(sim)
    fs.write("game", b"ZT junk")
    _continue(sim)
    assert sim.state()["screen"] == "message"


def _older_copy(sim):
    """Only the copy before the last decision is left."""
    fs = _saved_game(sim)
    _saved_game(sim)
    fs.write("game", b"ZT junk")
    _continue(sim)
    assert sim.state()["screen"] == "message"


def _long_room(sim):
    """A waiting room of eight seats with the widest names: this browser's,
    a computer playing for one, one away, one free; the connection lost."""
    link = screenshots._with_network(sim)
    name = WIDE_NOW[0]
    seats = [screenshots._seat(name[:-1] + str(i), creator=i == 0) for i in range(7)] + [None]
    seats[1]["away"] = seats[1]["standin"] = True
    seats[2]["away"] = True
    screenshots._in_room(sim, link, seats)
    link.receive(sim.app, '{"t": "conn", "s": "reconnecting"}')
    said = max(reasons.TEXTS[sim.app.lang].values(), key=len)
    link.receive(sim.app, json.dumps({"t": "no", "text": said}))
    sim.keys(",".join(["DOWN"] * 14))  # down the list: every row drawn once


def _refused_in_play(sim):
    """The server's longest reason over the play screen: a page of its own."""
    from engine.rules import preset

    link = screenshots._with_network(sim)
    game = screenshots._game(preset("zehntausend"), [WIDE_NOW[0], "Ben"], [1, 5, 2, 3, 4, 6])
    screenshots._in_room(sim, link, [screenshots._seat(WIDE_NOW[0]), screenshots._seat("Ben")],
                         game)
    said = max(reasons.TEXTS[sim.app.lang].values(), key=len)
    link.receive(sim.app, json.dumps({"t": "no", "text": said}))
    sim.keys("DOWN,DOWN,DOWN")  # scrolled to its end


WIDE_NOW = [""]
EXTRA = (("long_room", _long_room), ("refused_in_play", _refused_in_play),
         ("long_pad", _long_pad), ("long_game", _long_game), ("bust", _bust),
         ("long_solo", _long_solo),
         ("long_standings", _long_standings), ("damaged_save", _damaged_save),
         ("older_copy", _older_copy))


@pytest.mark.parametrize("lang", sorted(LANGS))
@pytest.mark.parametrize("board", [b for b, _ in screenshots.BOARDS])
def test_screens_cut_nothing_and_speak_one_language(lang, board, tmp_path):
    layout = "big" if board != "thumby" else "small"
    WIDE_NOW[0] = WIDE[layout]
    vocab = _vocabulary(LANGS[lang]) | _vocabulary(ONLINE[lang]) | _vocabulary(
        reasons.TEXTS[lang]) | _vocabulary(
        {"x": " ".join(WIDE.values())})
    names = [WIDE[layout][:-1] + str(i) for i in range(8)] + [
        WIDE[layout], "Anna", "Ben", "Bea", "Cleo", "Dora", "Profi 1", "Profi 2", "Spieler 1",
        "Spieler 2", "Player 1", "Player 2", "Paul", screenshots.ROOM]  # Paul: the grid's offer
    # texts a screen shortens by design, like names (places' give_way)
    names += [t for k, t in LANGS[lang].items() if places.PLACES[k].give_way]
    problems = []
    for name, _caption, scene in _scenes():
        with Watch(names, LAYOUTS[layout][0]) as watch:
            sim = _sim(board, lang, tempfile.mkdtemp(dir=tmp_path))
            try:
                scene(sim)
            except Exception as e:  # the scene itself must run
                problems.append("%s: %r" % (name, e))
                continue
        for s, out in watch.cuts:
            problems.append("%s: cut %r -> %r" % (name, s, out))
        for s in watch.overflow:
            problems.append("%s: past the edge %r" % (name, s))
        if lang == "de":
            for s in watch.drawn:
                foreign = [w for w in _words(s)
                           if w not in vocab and not any(w in n for n in names)]
                if foreign:
                    problems.append("%s: not German %r in %r" % (name, foreign, s))
    assert not problems, "%s %s:\n  %s" % (lang, board, "\n  ".join(sorted(set(problems))))
