"""No player's path asks a fragmented heap for one big block (issue 21).

On the chip, late in a long session, the heap had tens of KB free but only
in small pieces. Four MemoryErrors followed: three on a language change in
the settings (the other language's 8 KB text blob, loaded as one block)
and one on the help's tactics page (engine.scoring's 3.7 KB memo, made at
its import). Under the MicroPython Unix port these tests cut the free heap
into holes of HOLE bytes (tools/mp/heap_holes.py) and walk those paths:
a request for a block larger than a hole fails with MemoryError, as on the
chip. HOLE is 2 KB on this 64-bit port, about 1.2 KB of the chip's 32-bit
heap. Under CPython the same paths run on a whole heap. (The texts the
paths must show are read before the heap is cut: tests/both/test_strings.py
checks them against tools/texts, whose sources would leave large garbage.)
"""

import sys

import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

from engine.dice import SeededDice
from engine.rules import preset
from firmware import strings
from firmware.store import Store
from tools.fakes.memfs import MemFS
from tools.mp.heap_holes import MICROPYTHON, Holes

HOLE = 2048


def _forget(name):
    sys.modules.pop(name, None)
    dot = name.rfind(".")
    package = sys.modules.get(name[:dot])
    if package is not None and name[dot + 1:] in getattr(package, "__dict__", {}):
        delattr(package, name[dot + 1:])


def _app():
    from firmware.app import App

    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    return App(canvas, 128, 64, Store(MemFS()), SeededDice(3), None, 0)


def test_the_holes_are_small_and_the_heap_is_not_full():
    holes = Holes(HOLE)
    assert holes.tighten()
    try:
        if MICROPYTHON:
            import gc

            assert 0 < holes.largest <= HOLE + HOLE // 8, holes.largest
            assert gc.mem_free() > 20 * HOLE  # plenty free, none of it in one piece
            assert holes.biggest_block(4 * HOLE) <= HOLE + HOLE // 8
    finally:
        holes.close()


KEYS = ("new_game", "help_tactics", "language", "settings_title", "tt_bank", "tt_ahead")


def _texts(lang):
    out = []
    for key in KEYS:
        out.append(strings.text(lang, key))
    return out


def _both():
    return {"en": _texts("en"), "de": _texts("de")}  # German held last, as after a session


def test_a_language_change_loads_the_texts_in_pieces():
    want = _both()
    assert want["en"] != want["de"]
    holes = Holes(HOLE)
    assert holes.tighten()
    try:
        for _ in range(3):
            for lang in ("en", "de"):
                # The language going out stays referenced while the other
                # loads (as a frame held it on the chip): its space is no
                # run to load the next one into.
                old = sys.modules["firmware.texts_" + ("de" if lang == "en" else "en")]
                assert _texts(lang) == want[lang], lang
                assert old is not sys.modules.get(old.__name__)
                old = None
    finally:
        holes.close()


def test_the_settings_change_the_language_on_a_fragmented_heap():
    from firmware.screens.settings import Settings

    app = _app()
    app.push(Settings())
    app.top().draw(app, app.canvas)
    titles = {"de": strings.text("de", "settings_title"),
              "en": strings.text("en", "settings_title")}
    strings.text("de", "new_game")
    holes = Holes(HOLE)
    assert holes.tighten()
    try:
        for want in ("en", "de", "en", "de"):
            app.top().choose(app, 0)  # the language row
            app.top().draw(app, app.canvas)
            assert app.lang == want
            assert app.top().title(app) == titles[want]
    finally:
        holes.close()


def test_the_tactics_page_loads_the_odds_on_a_fragmented_heap():
    from firmware.screens import help as help_screens

    app = _app()
    rules = preset("zehntausend")
    want = help_screens.tactics_lines(app, rules)  # the names are interned, as after the warm-up
    for name in ("engine.odds", "engine.scoring"):
        _forget(name)  # not loaded: a boot from a saved game, then Help
    holes = Holes(HOLE)
    assert holes.tighten()
    try:
        assert help_screens.tactics_lines(app, rules) == want
        for key in ("help_odds", "help_thumb", "help_scoring"):
            assert help_screens.page_lines(app, key, rules)
    finally:
        holes.close()
    assert "engine.scoring" in sys.modules


def test_the_texts_and_the_scoring_memo_come_in_pieces_of_at_most_1_kb():
    from engine import scoring

    for lang in strings.LANGS:
        strings.text(lang, "new_game")
        packed = strings._held[1]
        for name in ("HASHES", "ENDS", "BLOB"):
            pieces = getattr(packed, name)
            assert type(pieces) is tuple and pieces, (lang, name)
            for piece in pieces:
                assert 0 < len(piece) <= strings.PIECE_BYTES, (lang, name, len(piece))
        assert len(packed.CUTS) == len(packed.BLOB) and packed.CUTS[0] == 0
    assert scoring._PIECE_SHIFT == 9  # (_best writes it out as 9 and 511)
    assert [len(m) for m in scoring._MEMO] == [1024, 1024, 1024, 624]  # 924 ranks x 2 x 2 bytes

