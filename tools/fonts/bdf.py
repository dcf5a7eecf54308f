"""The project's fonts (firmware/font_data.py) as BDF files, for adafruit_bitmap_font.

    python -m tools.fonts.bdf [--dest DIR]     writes DIR/small.bdf, DIR/regular.bdf

A glyph's box is its art: `height` rows from the top, its own width, no
descent (FONT_ASCENT = height, FONT_DESCENT = 0), advancing by its width
plus firmware.font.SPACING. So a text drawn with adafruit_display_text
from these files has the same ink, pixel for pixel, as firmware.font's
(tests/cpython/test_bdf_fonts.py). The placeholder glyph goes in under
U+FFFD, named DEFAULT_CHAR; adafruit_display_text does not use it but
leaves out a character it has no glyph for (firmware.font draws the
placeholder). Why the game draws its text with firmware.font all the
same: circuitpy/canvas.py and docs/handheld.md.
"""

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FONTS = ("SMALL", "REGULAR")


def glyphs(name):
    """[(code point or None for the placeholder, width, rows)] of font `name`;
    a row is an int, bit (width - 1 - x) the pixel at x."""
    from firmware import font_data

    height = getattr(font_data, name + "_HEIGHT")
    index = getattr(font_data, name + "_INDEX")
    bits = getattr(font_data, name + "_BITS")
    pages = (height + 7) // 8
    chars = [chr(c) for c in range(32, 127)] + list(font_data.EXTRA) + [None]
    out = []
    for i, ch in enumerate(chars):
        off = index[3 * i] | index[3 * i + 1] << 8
        width = index[3 * i + 2]
        rows = [0] * height
        for x in range(width):
            col = 0
            for p in range(pages):
                col |= bits[off + x * pages + p] << (8 * p)
            for y in range(height):
                if col >> y & 1:
                    rows[y] |= 1 << (width - 1 - x)
        out.append((None if ch is None else ord(ch), width, rows))
    return out


def bdf(name):
    """The BDF text of font `name` (SMALL or REGULAR)."""
    from firmware import font_data
    from firmware.font import SPACING

    height = getattr(font_data, name + "_HEIGHT")
    items = glyphs(name)
    widest = max(w for _, w, _ in items)
    placeholder = 0xFFFD  # the unknown character's glyph, under a code point of its own
    lines = ["STARTFONT 2.1", "FONT -zehntausend-%s--%d" % (name.lower(), height),
             "SIZE %d 75 75" % height, "FONTBOUNDINGBOX %d %d 0 0" % (widest, height),
             "STARTPROPERTIES 3", "FONT_ASCENT %d" % height, "FONT_DESCENT 0",
             "DEFAULT_CHAR %d" % placeholder, "ENDPROPERTIES", "CHARS %d" % len(items)]
    for code, width, rows in items:
        code = placeholder if code is None else code
        digits = (max(width, 1) + 7) // 8 * 2
        lines += ["STARTCHAR U+%04X" % code, "ENCODING %d" % code,
                  "SWIDTH %d 0" % ((width + SPACING) * 1000 // height),
                  "DWIDTH %d 0" % (width + SPACING), "BBX %d %d 0 0" % (width, height), "BITMAP"]
        pad = digits * 4 - width  # BDF rows are left aligned in whole bytes
        lines += ["%0*X" % (digits, row << pad) for row in rows]
        lines.append("ENDCHAR")
    lines.append("ENDFONT")
    return "\n".join(lines) + "\n"


def write(dest):
    """Write small.bdf and regular.bdf into `dest`; returns their paths."""
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in FONTS:
        path = dest / (name.lower() + ".bdf")
        path.write_text(bdf(name), encoding="ascii")
        paths.append(path)
    return paths


def main(argv=None):
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dest", default=str(ROOT / "build" / "fonts"))
    args = ap.parse_args(argv)
    for path in write(args.dest):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
