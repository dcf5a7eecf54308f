"""firmware.native against the Python code it stands in for.

Under the MicroPython Unix port the viper routines run (tools/mptest.py
compiles firmware/native.py for this machine's CPU) and every result and
pixel must equal the Python version's: glyph drawing at random places,
colours and clips, widths, the frame diff and the text-key search. Under
CPython (no viper) the same checks run the Python versions against each
other and against hand-made expectations, so the fallbacks stay right.
"""

import sys

import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

from firmware import display, font, strings  # noqa: E402

MICROPYTHON = sys.implementation.name == "micropython"
CHARS = [chr(c) for c in range(32, 127)] + list("ÄÖÜäöüß«»←→↑↓·×…✓•") + ["€"]


class Canvas(framebuf.FrameBuffer):
    """A FrameBuffer with the driver's `width` and `pages` (the native path)."""

    def __init__(self, width, height):
        self.width = width
        self.pages = height // 8
        self.buf = bytearray(width * self.pages)
        super().__init__(self.buf, width, height, framebuf.MONO_VLSB)


class Rng:
    """A small LCG (the same numbers on both interpreters)."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 8) % n


def test_native_code_runs_under_micropython():
    if MICROPYTHON:
        assert font.REGULAR._native is not None, "firmware.native did not load"
        assert strings._find is not None
    else:
        assert font.REGULAR._native is None  # CPython keeps the Python loops


def _draw_both(f, canvas_size, s, x, y, color, fill):
    """Draw `s` natively (where available) and by blit; both canvases and ends."""
    w, h = canvas_size
    a = Canvas(w, h)
    b = Canvas(w, h)
    a.fill(fill)
    b.fill(fill)
    end_a = f.draw(a, s, x, y, color)
    kept = f._native
    f._native = None
    try:
        end_b = f.draw(b, s, x, y, color)
        width_b = f.width(s)
    finally:
        f._native = kept
    return a.buf, b.buf, end_a, end_b, f.width(s), width_b


def test_text_pixels_and_widths_equal_the_blit_path():
    rng = Rng(7)
    for trial in range(400):
        f = font.REGULAR if trial % 2 else font.SMALL
        size = (128, 64) if trial % 3 else (72, 40)
        s = "".join(CHARS[rng.below(len(CHARS))] for _ in range(rng.below(22)))
        x = rng.below(size[0] + 50) - 40  # off the left edge too
        y = rng.below(size[1] + 16) - 12  # off the top and bottom
        got = _draw_both(f, size, s, x, y, rng.below(2), rng.below(2))
        assert got[0] == got[1], (s, x, y)
        assert got[2] == got[3] and got[4] == got[5], (s, got[2:])


def test_text_marks_ink_only():
    a = Canvas(128, 64)
    end = font.REGULAR.draw(a, "I", 10, 3, 1)
    assert end == 10 + font.REGULAR.width("I")
    lit = [(x, y) for y in range(64) for x in range(128) if a.pixel(x, y)]
    assert lit and all(10 <= x < end and 3 <= y < 11 for x, y in lit)
    a.fill(1)
    font.REGULAR.draw(a, "I", 10, 3, 0)
    dark = [(x, y) for y in range(64) for x in range(128) if not a.pixel(x, y)]
    assert [(x, y) for x, y in dark] == lit


def _python_diff(frame, shadow, width, pages):
    spans = []
    mask = 0
    for p in range(pages):
        cols = [c for c in range(width) if frame[p * width + c] != shadow[p * width + c]]
        spans.append((cols[0], cols[-1]) if cols else (255, 0))
        if cols:
            mask |= 1 << p
    return mask, spans


def test_diff_pages_finds_each_changed_span_and_updates_the_copy():
    """At random changes, also in the first and last bytes of words and
    pages, with both buffers a byte past a word (as the driver has them),
    both on a word, and a byte apart (no word compares)."""
    rng = Rng(3)
    for trial in range(90):
        width, pages = (128, 8) if trial % 2 else (72, 5)
        n = width * pages
        at_frame, at_shadow = ((1, 1), (0, 0), (1, 0))[trial % 3]
        shadow = memoryview(bytearray(at_shadow + n))[at_shadow:]
        frame = memoryview(bytearray(at_frame + n))[at_frame:]
        for i in range(n):
            shadow[i] = frame[i] = rng.below(256)
        for _ in range(rng.below(8)):
            i = rng.below(n) if rng.below(2) else rng.below(pages) * width + (
                width - 1 if rng.below(2) else 0)
            frame[i] ^= 1 << rng.below(8)
        want_mask, want_spans = _python_diff(frame, shadow, width, pages)
        spans = bytearray(2 * pages)
        mask = display.diff_pages(frame, shadow, width, pages, spans)
        assert mask == want_mask, trial
        assert [(spans[2 * p], spans[2 * p + 1]) for p in range(pages)] == want_spans, trial
        assert bytes(shadow) == bytes(frame)  # the copy now holds what the panel will show


def test_text_keys_are_found_as_by_the_python_search():
    keys = ("app", "new_game", "nav_hint", "continue", "help", "no_such_key_here", "")
    for lang in strings.LANGS:
        for key in keys:
            got = strings.text(lang, key)
            kept = strings._find
            strings._find = None
            try:
                want = strings.text(lang, key)
            finally:
                strings._find = kept
            assert got == want, (lang, key, got, want)
    assert strings.text("de", "no_such_key_here") == "no_such_key_here"
    assert strings.text("en", "new_game") == "New game"


def test_a_native_search_that_misses_is_not_used():
    kept = strings._find
    try:
        strings._find = lambda key, hashes, count: -1  # as the frozen build's did
        assert not strings._native_ok()
        if kept is not None:
            strings._find = kept
            assert strings._native_ok()
    finally:
        strings._find = kept


class Driver(Canvas):
    """The display driver's shape: `buffer` is the frame (Ui's native paths)."""

    def __init__(self, width, height):
        Canvas.__init__(self, width, height)
        self.buffer = memoryview(self.buf)


def _ui(width=128, height=64):
    from firmware import ui as ui_mod

    class App:
        big = width >= 128

        class session:  # noqa: N801 (the app's attribute)
            settings = {"dice": 0}

    App.width = width
    App.height = height
    return ui_mod.Ui(App())


def test_ui_clear_blanks_the_canvas_as_framebuf_fill_does():
    from firmware import ui as ui_mod

    if MICROPYTHON:
        assert ui_mod._fill is not None, "firmware.native.fill did not load"
    ui = _ui()
    rng = Rng(7)
    for width, height in ((128, 64), (72, 40)):
        for canvas in (Driver(width, height), Canvas(width, height)):
            for i in range(len(canvas.buf)):
                canvas.buf[i] = rng.below(256) | 1
            ui.clear(canvas)
            assert bytes(canvas.buf) == bytes(len(canvas.buf))
    if ui_mod._fill is not None:
        buf = bytearray(b"\xaa" * 10)
        ui_mod._fill(buf, 7, 0x5C)  # only the first n bytes
        assert bytes(buf) == b"\x5c" * 7 + b"\xaa" * 3
        raw = bytearray(b"\xaa" * 24)
        for start in range(4):  # every alignment (the display's frame starts at 1)
            for n in range(17):
                for i in range(24):
                    raw[i] = 0xAA
                ui_mod._fill(memoryview(raw)[start:], n, 0x5C)
                want = b"\xaa" * start + b"\x5c" * n + b"\xaa" * (24 - start - n)
                assert bytes(raw) == want, (start, n)


def test_the_kept_hint_line_equals_the_drawn_one():
    """On a driver's 128x64 buffer the hint line is drawn once and then
    copied back while it stays the same: every frame's pixels equal those of
    a canvas that draws it each time, whatever was under it, also after the
    hint changes; on 72x40 (not a whole page) it is always drawn."""
    rng = Rng(13)
    for width, height in ((128, 64), (72, 40)):
        ui = _ui(width, height)
        for hint in ("A nehmen  B fertig", "A nehmen  B fertig", "↑ würfeln  ↓ sichern",
                     "↑ würfeln  ↓ sichern", "A nehmen  B fertig"):
            a = Driver(width, height)
            b = Canvas(width, height)
            for i in range(len(a.buf)):
                a.buf[i] = b.buf[i] = rng.below(256)
            ui.hints(a, hint)
            ui.hints(b, hint)
            assert a.buf == b.buf, (width, hint)
        if height == 64:
            assert ui._hint == "A nehmen  B fertig"
        else:
            assert ui._hint is None


def test_the_kept_header_equals_the_drawn_one():
    """On a driver's buffer the play screen's top line is drawn once and
    then copied back while its texts stay the same: every frame's first
    page equals that of a canvas that draws it each time, on both layouts,
    also after the texts or the right text's place change."""
    for width, height in ((128, 64), (72, 40)):
        ui = _ui(width, height)
        right = width - 14
        for texts in (("Anna: 350", "+0", right), ("Anna: 350", "+0", right),
                      ("Anna: 350", "+50", right - 6), ("Anna: 350", "+50", right - 6),
                      ("Bob: 900 +550", "+50", right - 6), ("Anna: 350", "+0", right)):
            a = Driver(width, height)
            b = Canvas(width, height)
            ui.clear(a)
            ui.clear(b)
            ui.header(a, *texts)
            ui.header(b, *texts)
            assert a.buf == b.buf, (width, texts)
            assert any(a.buf[:width]), texts  # the texts are there
        assert ui._head == ("Anna: 350", "+0", right)


def test_a_row_of_dice_equals_the_dice_drawn_one_by_one():
    """Ui.dice_row (one loop into the native die on a driver's buffer)
    draws the pixels `draw_die` draws die by die on a plain canvas: every
    face, chosen or not, crossed dice, on both layouts and in every dice
    style, also where a die runs off the right edge."""
    from firmware import ui as ui_mod

    rng = Rng(23)
    for width, height in ((128, 64), (72, 40)):
        ui = _ui(width, height)
        for style in ui_mod.DICE_STYLES:
            ui.settings["dice"] = style
            for size, gap in ((17, 4), (12, 0), (12, 2)):
                for _ in range(6):
                    n = 1 + rng.below(6)
                    faces = [1 + rng.below(6) for _ in range(n)]
                    chosen = [rng.below(2) == 1 for _ in range(n)]
                    bad = [i for i in range(n) if chosen[i] and rng.below(4) == 0]
                    x = rng.below(width // 3)
                    y = 8 + rng.below(4)
                    a = Driver(width, height)
                    b = Canvas(width, height)
                    ui.dice_row(a, x, y, size, gap, faces, chosen, bad)
                    at = x
                    for i in range(n):
                        ui.draw_die(b, at, y, size, faces[i], chosen[i], i in bad)
                        at += size + gap
                    assert a.buf == b.buf, (width, style, size, faces, chosen, bad)
        ui.settings["dice"] = ui_mod.PIPS


def test_fit_leaves_short_texts_unmeasured_and_right():
    """Ui.fit passes a text short enough for the font's widest glyphs
    without measuring it; whatever it returns fits and equals what the
    measured fit gives, for random texts of every length and any width."""
    rng = Rng(17)
    for width, height in ((128, 64), (72, 40)):
        ui = _ui(width, height)
        f = ui.font
        widest = [ch for ch in CHARS if f.char_width(ch) == f.max_width][0]
        for n in range(1, 30):
            s = widest * n
            room = n * (f.max_width + font.SPACING) - font.SPACING
            assert f.width(s) == room  # the bound is reached: nothing wider exists
            assert ui.fit(s, room) == s
            assert ui.fit(s, room - 1) == _measured_fit(f, s, room - 1)
        for _ in range(200):
            s = "".join(CHARS[rng.below(len(CHARS))] for _ in range(rng.below(30)))
            room = rng.below(width + 1)
            assert ui.fit(s, room) == _measured_fit(f, s, room), (s, room)
    ui = _ui()
    f = ui.font
    measured = []
    f.width = lambda s: measured.append(s) or 0  # (an instance attribute: put back below)
    try:
        assert ui.fit("Auswahl 150", 11 * (f.max_width + font.SPACING)) == "Auswahl 150"
    finally:
        del f.width
    assert measured == []


def _measured_fit(f, s, width):
    """Ui.fit as it was before the short-text pass: always measured."""
    if f.width(s) <= width:
        return s
    while s and f.width(s + "…") > width:
        s = s[:-1]
    return s + "…"


def test_copy_moves_exactly_the_window():
    if MICROPYTHON:
        from firmware import native

        assert display.copy is native.copy, "the display copies in Python"
    rng = Rng(3)
    src = bytearray(rng.below(256) for _ in range(1025))  # a frame behind its spare byte
    cases = ((1, 0, 4), (1, 1 + 3 * 128 + 124, 4), (0, 17, 128), (5, 1024, 1), (1, 2, 0))
    for at, start, n in cases:
        dst = bytearray(b"\xee" * 140)
        display.copy(dst, at, src, start, n)
        assert dst[at:at + n] == src[start:start + n]
        assert dst[:at] == b"\xee" * at and dst[at + n:] == b"\xee" * (140 - at - n)


def test_dice_pixels_equal_the_framebuf_path():
    """Every face, size, colour and style, also clipped at each edge: the
    driver's native die equals the framebuf calls pixel for pixel."""
    from firmware import ui as ui_mod

    if MICROPYTHON:
        assert ui_mod._die is not None, "firmware.native.die did not load"
    ui = _ui()
    rng = Rng(11)
    places = ((0, 0), (55, 9), (120, 20), (-5, 30), (40, -6), (20, 58), (125, 60), (3, 47))
    for style in ui_mod.DICE_STYLES:
        ui.settings["dice"] = style
        for size in (17, 12, 9, 7):
            for face in range(7):
                for inverted in (False, True):
                    x, y = places[rng.below(len(places))]
                    crossed = rng.below(4) == 0
                    a = Driver(128, 64)
                    b = Canvas(128, 64)
                    fill = rng.below(2)
                    a.fill(fill)
                    b.fill(fill)
                    ui.draw_die(a, x, y, size, face, inverted, crossed)
                    ui.draw_die(b, x, y, size, face, inverted, crossed)
                    assert a.buf == b.buf, (style, size, face, inverted, x, y)
    # and by hand: a 17 px one, its rim and its pip in the middle
    c = Canvas(128, 64)
    ui.settings["dice"] = ui_mod.PIPS
    ui.draw_die(c, 10, 8, 17, 1)
    assert c.pixel(10, 8) == 1 and c.pixel(26, 24) == 1 and c.pixel(11, 9) == 0
    assert c.pixel(18, 16) == 1 and c.pixel(17, 15) == 1 and c.pixel(16, 14) == 0
