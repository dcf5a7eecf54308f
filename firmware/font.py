"""Bitmap text for the OLED: the project's own fonts and a small renderer.

The glyphs are drawn as ASCII art in tools/fonts/*.txt and compiled by
tools/fonts/gen.py into firmware/font_data.py (layout described there).

Fonts:
    SMALL    height 6: 3x5 capitals and digits, x-height 4, one descender row;
             for the 72x40 screen (6 text lines).
    REGULAR  height 8: 5x7 capitals and digits in a 6x8 cell, x-height 5, one
             descender row; for the 128x64 screen (8 text lines).

Both cover ASCII 32..126, ÄÖÜäöüß and ``font_data.EXTRA`` (« » ← → ↑ ↓ · × … ✓ •);
any other character draws the font's placeholder box. Widths are
proportional (digits share one width, so numbers line up); 1 px of paper
separates glyphs, none follows the last one.

Drawing: on a ``framebuf.FrameBuffer`` (or a subclass such as an SSD1306
driver) each glyph is copied into one reusable scratch FrameBuffer and blitted
with the paper colour as the transparent key, so drawing allocates nothing per
character. Any other object with a FrameBuffer-like ``vline(x, y, h, c)``
gets one vline per vertical run of ink. Clipping is left to the canvas.
The blit path assumes a 1-bit canvas (colour 0 or 1); other colours go
through vline.

Runs under MicroPython and CPython (where a host installs its stand-in as
the ``framebuf`` module: simulator/host.py, tests/conftest.py).
"""

from firmware import font_data

try:
    import framebuf as _fb
except ImportError:  # a CPython host without the stand-in (simulator/host.py installs it)
    _fb = None

try:  # viper glyph loops where the port compiles them (not CPython, not WebAssembly)
    from firmware import native as _native
except Exception:  # ImportError, or a .mpy of another architecture, or no native emitter
    _native = None

# A host's recorder of the text drawn: None on the device (Font.draw then
# pays one global lookup), an object with `text(s, x, y, color)` where the
# browser page keeps a readable copy of the screen (web/textlayer.py).
# Every text of every screen passes Font.draw, so no screen can forget it.
recorder = None

SPACING = 1  # px of paper between two glyphs
_ASCII_FIRST = 32
_ASCII_COUNT = 95


class Font:
    """A bitmap font over generated data: ``height``, ``width(text)``, ``draw(...)``."""

    def __init__(self, height, index, bits, extra=font_data.EXTRA):
        """Wrap one font's data (see firmware/font_data.py for the format)."""
        self.height = height
        self._index = index
        self._bits = bits
        self._extra = extra
        self._pages = (height + 7) >> 3
        self._unknown = len(index) // 3 - 1
        widest = 0
        for i in range(2, len(index), 3):
            if index[i] > widest:
                widest = index[i]
        self.max_width = widest
        cps = bytearray(2 * len(extra))  # the extra code points, 2 bytes each, for firmware.native
        for i, ch in enumerate(extra):
            cps[2 * i] = ord(ch) >> 8
            cps[2 * i + 1] = ord(ch) & 0xFF
        self._cps = bytes(cps)
        self._native = _native if self._pages == 1 else None
        self._scratch = bytearray(0)  # the buffer behind _sfb, made on the first blit
        self._sfb = None

    def glyph(self, ch):
        """Return the glyph number of character ``ch`` (the placeholder's if missing)."""
        code = ord(ch)
        if _ASCII_FIRST <= code < _ASCII_FIRST + _ASCII_COUNT:
            return code - _ASCII_FIRST
        i = self._extra.find(ch)
        if i < 0:
            return self._unknown
        return _ASCII_COUNT + i

    def has(self, ch):
        """Return True when ``ch`` has a glyph of its own (not the placeholder)."""
        return self.glyph(ch) != self._unknown

    def fit(self, text, width):
        """``text`` shortened with '…' so that it fits ``width`` px. A text
        short enough to fit even in the widest glyphs is not measured (a
        measure takes about 0.15 ms on the chip; most labels are short)."""
        if len(text) * (self.max_width + SPACING) - SPACING <= width:
            return text
        if self.width(text) <= width:
            return text
        while text and self.width(text + "…") > width:
            text = text[:-1]
        return text + "…"

    def char_width(self, ch):
        """Return the width in px of one character's glyph (without spacing)."""
        return self._index[self.glyph(ch) * 3 + 2]

    def width(self, text):
        """Return the width in px of ``text``: glyphs plus 1 px between them."""
        if self._native is not None:  # drawn on a 0 px canvas: only the end x comes back
            return self._native.text(self._bits, 0, 0, text, 0, 0, 1, self._bits, self._index,
                                     self._cps,  # pyright: ignore[reportArgumentType]  (viper takes a buffer for a ptr8 argument)
                                     len(self._extra), self._unknown)
        index = self._index
        total = 0
        for ch in text:
            total += index[self.glyph(ch) * 3 + 2] + SPACING
        if total:
            total -= SPACING
        return total

    def draw(self, canvas, text, x, y, color=1):
        """Draw ``text`` with its top-left corner at (x, y); return ``x + width(text)``.

        Only ink pixels are set (to ``color``); paper is left untouched.
        A display driver (a FrameBuffer with ``width`` and ``pages``) is drawn
        on by firmware.native where the port has it.
        """
        rec = recorder
        if rec is not None:
            rec.text(text, x, y, color)
        if self._native is not None and (color == 0 or color == 1):
            pages = getattr(canvas, "pages", 0)
            if pages:
                return self._native.text(canvas, canvas.width, pages, text, x, y, color,
                                         self._bits, self._index,
                                         self._cps,  # pyright: ignore[reportArgumentType]  (viper takes a buffer for a ptr8 argument)
                                         len(self._extra), self._unknown)
        if _fb is not None and (color == 0 or color == 1) and isinstance(canvas, _fb.FrameBuffer):
            return self._draw_blit(canvas, text, x, y, color)
        return self._draw_runs(canvas, text, x, y, color)

    def _draw_blit(self, canvas, text, x, y, color):
        """Draw via one scratch FrameBuffer per font, blitted with a colour key."""
        sfb = self._sfb
        wide = self.max_width
        if sfb is None:
            fb = _fb
            assert fb is not None  # draw() blits only where framebuf exists
            self._scratch = bytearray(wide * self._pages)
            sfb = self._sfb = fb.FrameBuffer(self._scratch, wide, self.height, fb.MONO_VLSB)
        buf = self._scratch
        bits = self._bits
        index = self._index
        pages = self._pages
        # Ink stays as stored for colour 1 (key: paper 0); for colour 0 the bytes
        # are inverted so ink is 0 and paper 1 is the transparent key.
        flip = 0 if color else 0xFF
        key = 1 - color
        start = x
        for ch in text:
            g = self.glyph(ch) * 3
            off = index[g] | (index[g + 1] << 8)
            w = index[g + 2]
            if pages == 1:
                for c in range(w):
                    buf[c] = bits[off + c] ^ flip
                for c in range(w, wide):
                    buf[c] = flip
            else:
                # Stored column-major; a MONO_VLSB buffer is page-major.
                for p in range(pages):
                    row = p * wide
                    for c in range(w):
                        buf[row + c] = bits[off + c * pages + p] ^ flip
                    for c in range(w, wide):
                        buf[row + c] = flip
            canvas.blit(sfb, x, y, key)
            x += w + SPACING
        return x - SPACING if x != start else x

    def _draw_runs(self, canvas, text, x, y, color):
        """Draw with one ``canvas.vline`` per vertical run of ink."""
        vline = canvas.vline
        bits = self._bits
        index = self._index
        pages = self._pages
        start = x
        for ch in text:
            g = self.glyph(ch) * 3
            off = index[g] | (index[g + 1] << 8)
            w = index[g + 2]
            for c in range(w):
                base = off + c * pages
                col = 0
                for p in range(pages):
                    col |= bits[base + p] << (p << 3)
                row = 0
                while col:
                    if col & 1:
                        top = row
                        while col & 1:
                            col >>= 1
                            row += 1
                        vline(x + c, y + top, row - top, color)
                    else:
                        col >>= 1
                        row += 1
            x += w + SPACING
        return x - SPACING if x != start else x


SMALL = Font(font_data.SMALL_HEIGHT, font_data.SMALL_INDEX, font_data.SMALL_BITS)
REGULAR = Font(font_data.REGULAR_HEIGHT, font_data.REGULAR_INDEX, font_data.REGULAR_BITS)
