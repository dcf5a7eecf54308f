"""firmware.font: widths, character coverage, drawing box, placeholder, clipping.

Runs under CPython pytest and under MicroPython. Drawing uses the real
``framebuf`` under MicroPython (the blit path), ``simulator.framebuf`` under
CPython when it exists, and always also the duck-typed ``Grid`` below (the
vline path). The pixel-exact comparison with the art is CPython-only:
tests/cpython/test_font_art.py.
"""

import gc

from firmware import font_data
from firmware.font import REGULAR, SMALL, Font

try:
    import framebuf
except ImportError:
    try:
        from simulator import framebuf
    except ImportError:
        framebuf = None

FONTS = (SMALL, REGULAR)
DIGITS = "0123456789"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
GERMAN = "ÄÖÜäöüß"
SYMBOLS = "«»←→↑↓·×…✓•"
PRINTABLE = "".join(chr(c) for c in range(32, 127))
MISSING = "€"  # not in the fonts: draws the placeholder


class Grid:
    """A FrameBuffer stand-in with clipping: pixel, hline, vline, fill, fill_rect."""

    def __init__(self, width, height):
        self.width = width
        self.height = height
        self.cells = bytearray(width * height)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                return self.cells[y * self.width + x]
            self.cells[y * self.width + x] = c
        return None if c is not None else 0

    def fill_rect(self, x, y, w, h, c):
        for yy in range(max(y, 0), min(y + h, self.height)):
            for xx in range(max(x, 0), min(x + w, self.width)):
                self.cells[yy * self.width + xx] = c

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def fill(self, c):
        self.fill_rect(0, 0, self.width, self.height, c)


def canvases(width, height):
    """Return ``[(name, canvas)]``: a Grid, and a real FrameBuffer when available."""
    out = [("grid", Grid(width, height))]
    if framebuf is not None:
        buf = bytearray(width * ((height + 7) // 8))
        out.append(("framebuf", framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB)))
    return out


def ink(canvas, width, height, value=1):
    """Return the set of (x, y) where the canvas holds ``value``."""
    return {(x, y) for y in range(height) for x in range(width) if canvas.pixel(x, y) == value}


def test_heights():
    assert SMALL.height == 6
    assert REGULAR.height == 8
    assert font_data.SMALL_HEIGHT == 6 and font_data.REGULAR_HEIGHT == 8


def test_width_of_empty_text_is_zero():
    for font in FONTS:
        assert font.width("") == 0


def test_width_adds_one_px_between_glyphs_and_none_after():
    for font in FONTS:
        for text in ("A", "AB", "Würfel", "10.000", "a b"):
            expected = sum(font.char_width(ch) for ch in text) + len(text) - 1
            assert font.width(text) == expected, (font.height, text)
        assert font.width("A") == font.char_width("A")


def test_umlauts_are_as_wide_as_their_base_letters():
    for font in FONTS:
        for i in range(6):
            umlaut = "ÄÖÜäöü"[i]
            base = "AOUaou"[i]
            assert font.width(umlaut) == font.width(base), (font.height, umlaut)


def test_glyph_sizes():
    assert SMALL.char_width("A") == 3 and REGULAR.char_width("A") == 5
    assert SMALL.max_width <= 5 and REGULAR.max_width <= 8
    for font in FONTS:
        assert font.char_width("i") < font.char_width("m")
        assert font.char_width(" ") < font.char_width("A")


def test_digits_share_one_width():
    for font in FONTS:
        widths = {font.char_width(d) for d in DIGITS}
        assert len(widths) == 1, (font.height, widths)


def test_every_german_ui_character_is_present():
    for font in FONTS:
        for ch in DIGITS + UPPER + LOWER + GERMAN + SYMBOLS + PRINTABLE:
            assert font.has(ch), (font.height, ch)
        assert not font.has(MISSING)
        assert not font.has("\n")


def test_extra_order_matches_data():
    assert font_data.EXTRA == "ÄÖÜäöüß«»←→↑↓·×…✓•"
    count = 95 + len(font_data.EXTRA) + 1
    assert len(font_data.SMALL_INDEX) == 3 * count
    assert len(font_data.REGULAR_INDEX) == 3 * count


def test_draw_stays_inside_its_box():
    texts = ("Würfel: 3.450 ÄÖÜ", "gjpqy ß«»", "|_[]{}", SYMBOLS, "M" + MISSING + "W")
    for font in FONTS:
        for text in texts:
            w = font.width(text)
            for name, canvas in canvases(w + 8, font.height + 6):
                end = font.draw(canvas, text, 4, 3)
                assert end == 4 + w, (name, text)
                pixels = ink(canvas, w + 8, font.height + 6)
                assert pixels, (name, text)
                for x, y in pixels:
                    assert 4 <= x < 4 + w and 3 <= y < 3 + font.height, (name, text, x, y)


def test_draw_touches_box_edges():
    # Full-height '|' and the first/last column are really used.
    for font in FONTS:
        for name, canvas in canvases(20, font.height + 2):
            font.draw(canvas, "|", 1, 1)
            ys = {y for x, y in ink(canvas, 20, font.height + 2)}
            assert min(ys) == 1, name
            assert max(ys) >= font.height - 1, name


def test_paths_agree_for_every_glyph():
    # The blit path (FrameBuffer) and the vline path (Grid) set the same pixels.
    if framebuf is None:
        return
    everything = PRINTABLE + font_data.EXTRA + MISSING
    for font in FONTS:
        for start in range(0, len(everything), 16):
            text = everything[start:start + 16]
            w = font.width(text) + 2
            h = font.height + 2
            shots = []
            for _name, canvas in canvases(w, h):
                font.draw(canvas, text, 1, 1)
                shots.append(ink(canvas, w, h))
            assert shots[0] == shots[1], text
            shots = None
            gc.collect()


def test_unknown_character_draws_placeholder_box():
    for font in FONTS:
        assert font.width(MISSING) == font.width("\x01") == font.width("\uffff")
        assert font.width(MISSING) >= 3
        for name, canvas in canvases(12, font.height + 2):
            font.draw(canvas, MISSING, 1, 1)
            box = ink(canvas, 12, font.height + 2)
            assert len(box) >= 8, name
            xs = {x for x, _y in box}
            ys = {y for _x, y in box}
            assert min(xs) == 1 and max(xs) == font.width(MISSING), name
            assert min(ys) == 1 and max(ys) >= 5, name
            other = canvases(12, font.height + 2)[-1][1]
            font.draw(other, "\x01", 1, 1)
            assert ink(other, 12, font.height + 2) == box


def test_clipping_at_every_edge():
    text = "Würfel ÄÖÜ 10.000"
    for font in FONTS:
        w = font.width(text)
        h = font.height
        for _name, canvas in canvases(24, 12):
            for x, y in ((-5, -3), (-w - 3, 0), (20, 8), (0, 11), (-2, -h), (3000, 3000),
                         (-3000, -3000), (22, -5)):
                font.draw(canvas, text, x, y)
        # The visible part of a clipped draw equals the same part of an unclipped one.
        for name, canvas in canvases(24, 12):
            font.draw(canvas, text, -7, -2)
            full = Grid(w + 10, h + 10)
            font.draw(full, text, 0, 0)
            expect = {(x - 7, y - 2) for x, y in ink(full, w + 10, h + 10)}
            expect = {(x, y) for x, y in expect if 0 <= x < 24 and 0 <= y < 12}
            assert ink(canvas, 24, 12) == expect, name


def test_color_zero_clears_only_ink():
    for font in FONTS:
        text = "Spaß 42"
        w = font.width(text) + 4
        h = font.height + 4
        for name, canvas in canvases(w, h):
            reference = Grid(w, h)
            font.draw(reference, text, 2, 2)
            canvas.fill(1)
            font.draw(canvas, text, 2, 2, 0)
            assert ink(canvas, w, h, 0) == ink(reference, w, h), name


def test_draw_over_existing_pixels_keeps_paper():
    for font in FONTS:
        for name, canvas in canvases(30, font.height + 2):
            canvas.fill(1)
            font.draw(canvas, "i.i", 1, 1)
            assert not ink(canvas, 30, font.height + 2, 0), name


def _tall_font():
    """A height-10 font (two bytes per column): 'A' is a 2x10 bar with a notch."""
    count = 95 + len(font_data.EXTRA) + 1
    index = bytearray()
    bits = bytearray()
    for g in range(count):
        index += bytes((len(bits) & 0xFF, len(bits) >> 8, 2 if g == 33 else 1))
        if g == 33:  # 'A': column 0 rows 0-9, column 1 rows 0-8 except row 4
            bits += bytes((0xFF, 0x03, 0xEF, 0x01))
        elif g == count - 1:  # placeholder: rows 0 and 9
            bits += bytes((0x01, 0x02))
        else:
            bits += bytes((0x00, 0x00))
    return Font(10, bytes(index), bytes(bits))


def test_two_byte_columns_for_taller_fonts():
    font = _tall_font()
    assert font.height == 10 and font.width("AA") == 5
    expect = {(1, y) for y in range(10)} | {(2, y) for y in range(9) if y != 4}
    for name, canvas in canvases(8, 14):
        font.draw(canvas, "A", 1, 0)
        assert ink(canvas, 8, 14) == expect, name
    for name, canvas in canvases(8, 14):
        font.draw(canvas, MISSING, 2, 1)
        assert ink(canvas, 8, 14) == {(2, 1), (2, 10)}, name


def test_drawing_allocates_nothing_per_character():
    if not hasattr(gc, "mem_alloc") or framebuf is None:
        return  # CPython: no heap counter to check
    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    short = "Ab"
    long = "Würfel: 3.450 Punkte « » ÄÖÜ äöü ß ✓ •" * 2
    for font in FONTS:
        for text in (short, long):  # warm up: scratch buffer, interned characters
            font.draw(canvas, text, 0, 0)
        used = []
        for text in (short, long):
            gc.collect()
            before = gc.mem_alloc()
            font.draw(canvas, text, 0, 8)
            font.width(text)
            used.append(gc.mem_alloc() - before)
        assert used[0] <= 16 and used[1] <= 16, used
