"""Turn the glyph art in tools/fonts/*.txt into firmware/font_data.py (CPython only).

The art files are the source of truth: one block per character, a header line
``== X`` (the character itself, ``SPACE``, ``UNKNOWN`` or ``U+XXXX``) and then
exactly ``@height`` rows of ``#`` (ink) and ``.`` (paper). See the comment at
the top of each art file for its layout (baseline, x-height, descenders).

Validation: every glyph has exactly ``height`` rows of equal width (1 to
MAX_WIDTH px) made of ``#`` and ``.`` only; every character of CHARSET plus
the UNKNOWN placeholder is drawn once; nothing else is drawn.

Generated format, per font NAME (SMALL, REGULAR):

``NAME_HEIGHT``  rows per glyph.
``NAME_BITS``    glyph bitmaps, column-major, left to right, ``(height + 7) // 8``
                 bytes per column (byte 0 = rows 0-7, byte 1 = rows 8-15),
                 bit 0 = top row: a column is a MONO_VLSB page column.
``NAME_INDEX``   3 bytes per glyph: byte offset into NAME_BITS (little endian,
                 2 bytes) and width in px. Glyph order: ASCII 32..126, then the
                 characters of ``EXTRA`` in order, then the UNKNOWN placeholder.

Usage:
    python3 tools/fonts/gen.py          write firmware/font_data.py
    python3 tools/fonts/gen.py --check  exit 1 when font_data.py is out of date
    python3 tools/fonts/gen.py --show small   print the parsed art back (debugging)
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUTPUT = ROOT / "firmware" / "font_data.py"
FONTS = ("small", "regular")

ASCII_FIRST = 32
ASCII_LAST = 126
# Non-ASCII characters, in glyph order after ASCII. Kept in sync with the
# renderer through the generated EXTRA constant.
EXTRA = "ÄÖÜäöüß«»←→↑↓·×…✓•"
CHARSET = "".join(chr(c) for c in range(ASCII_FIRST, ASCII_LAST + 1)) + EXTRA
UNKNOWN = "UNKNOWN"  # key of the placeholder glyph (not a character)
NAMES = {"SPACE": " ", UNKNOWN: UNKNOWN}
MAX_WIDTH = 16
MAX_HEIGHT = 16


class ArtError(ValueError):
    """A problem in an art file; the message names the file and line."""


def _header_key(text, where):
    """Return the character (or UNKNOWN) named by a ``== X`` header."""
    if text in NAMES:
        return NAMES[text]
    if text.startswith("U+") and len(text) > 2:
        try:
            return chr(int(text[2:], 16))
        except ValueError:
            raise ArtError("%s: bad code point %r" % (where, text))
    if len(text) != 1:
        raise ArtError("%s: header must name one character, SPACE, UNKNOWN or U+XXXX: %r"
                       % (where, text))
    return text


def parse(text, source="<art>"):
    """Parse art text; return ``(settings, glyphs)`` with glyphs a dict key -> rows.

    ``settings`` maps each ``@key`` to its value string; keys of ``glyphs`` are
    characters or UNKNOWN, in file order. Raises ArtError on malformed input.
    """
    settings = {}
    glyphs = {}
    lines_of = {}
    key = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        where = "%s:%d" % (source, lineno)
        if line.startswith("== "):
            key = _header_key(line[3:], where)
            if key in glyphs:
                raise ArtError("%s: %r drawn twice" % (where, key))
            glyphs[key] = []
            lines_of[key] = where
        elif line.startswith("=="):
            raise ArtError("%s: header needs a space after '==': %r" % (where, line))
        elif line.strip() == "" or line.startswith(";"):
            continue
        elif line.startswith("@"):
            if glyphs:
                raise ArtError("%s: settings must come before the first glyph" % where)
            parts = line[1:].split(None, 1)
            if len(parts) != 2:
                raise ArtError("%s: expected '@key value'" % where)
            settings[parts[0]] = parts[1].strip()
        else:
            if key is None:
                raise ArtError("%s: glyph row before the first '== X' header" % where)
            bad = set(line) - {"#", "."}
            if bad:
                raise ArtError("%s: only '#' and '.' allowed in rows, found %r"
                               % (where, "".join(sorted(bad))))
            glyphs[key].append(line)
    if "height" not in settings:
        raise ArtError("%s: missing '@height N'" % source)
    try:
        height = int(settings["height"])
    except ValueError:
        raise ArtError("%s: @height is not a number" % source)
    if not 1 <= height <= MAX_HEIGHT:
        raise ArtError("%s: @height must be 1..%d" % (source, MAX_HEIGHT))
    for key, rows in glyphs.items():
        where = lines_of[key]
        if len(rows) != height:
            raise ArtError("%s: %r has %d rows, font height is %d"
                           % (where, key, len(rows), height))
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise ArtError("%s: rows of %r differ in width" % (where, key))
        if not 1 <= width <= MAX_WIDTH:
            raise ArtError("%s: %r is %d px wide (1..%d allowed)"
                           % (where, key, width, MAX_WIDTH))
    unknown = [k for k in glyphs if k != UNKNOWN and k not in CHARSET]
    if unknown:
        raise ArtError("%s: characters outside the charset: %r" % (source, "".join(unknown)))
    missing = [c for c in CHARSET if c not in glyphs]
    if UNKNOWN not in glyphs:
        missing.append(UNKNOWN)
    if missing:
        raise ArtError("%s: glyphs missing for %r" % (source, missing))
    return settings, glyphs


def load(name):
    """Parse ``tools/fonts/NAME.txt``; return ``(height, glyphs)``."""
    path = HERE / (name + ".txt")
    settings, glyphs = parse(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return int(settings["height"]), glyphs


def glyph_order():
    """Return the glyph keys in data order: ASCII, EXTRA, then UNKNOWN."""
    return list(CHARSET) + [UNKNOWN]


def encode(height, glyphs):
    """Return ``(index, bits)`` bytes for one font (format in the module docstring)."""
    pages = (height + 7) // 8
    index = bytearray()
    bits = bytearray()
    for key in glyph_order():
        rows = glyphs[key]
        width = len(rows[0])
        offset = len(bits)
        if offset > 0xFFFF:
            raise ArtError("glyph data exceeds 64 KB")
        index += bytes((offset & 0xFF, offset >> 8, width))
        for x in range(width):
            column = 0
            for y in range(height):
                if rows[y][x] == "#":
                    column |= 1 << y
            for p in range(pages):
                bits.append((column >> (8 * p)) & 0xFF)
    return bytes(index), bytes(bits)


def _bytes_literal(data, indent="    ", per_line=20):
    """Return a parenthesised, line-wrapped Python bytes literal of ``data``."""
    lines = []
    for i in range(0, len(data), per_line):
        chunk = "".join("\\x%02x" % b for b in data[i:i + per_line])
        lines.append('%sb"%s"' % (indent, chunk))
    if not lines:
        return 'b""'
    return "(\n" + "\n".join(lines) + "\n)"


def render_module():
    """Return the text of firmware/font_data.py for the current art."""
    out = [
        "# Generated by tools/fonts/gen.py from tools/fonts/small.txt and",
        "# tools/fonts/regular.txt. Do not edit: change the art, then run",
        "#     .venv/bin/python tools/fonts/gen.py",
        '"""Glyph data of the project\'s bitmap fonts; drawn by firmware/font.py.',
        "",
        "NAME_INDEX: 3 bytes per glyph, byte offset into NAME_BITS (2 bytes, little",
        "endian) and width in px; glyph order ASCII 32..126, EXTRA, placeholder.",
        "NAME_BITS: column-major bitmaps, (height + 7) // 8 bytes per column,",
        "bit 0 = top row (MONO_VLSB).",
        '"""',
        "",
        "EXTRA = %r" % EXTRA,
    ]
    for name in FONTS:
        height, glyphs = load(name)
        index, bits = encode(height, glyphs)
        up = name.upper()
        out += [
            "",
            "%s_HEIGHT = %d" % (up, height),
            "# %d glyphs, %d bytes of bitmaps" % (len(index) // 3, len(bits)),
            "%s_INDEX = %s" % (up, _bytes_literal(index)),
            "%s_BITS = %s" % (up, _bytes_literal(bits)),
        ]
    return "\n".join(out) + "\n"


def show(name):
    """Print the parsed glyphs of one font back as art (for eyeballing)."""
    height, glyphs = load(name)
    for key in glyph_order():
        print("==", "SPACE" if key == " " else key)
        for row in glyphs[key]:
            print(row)


def main(argv):
    """Command line entry point; return the exit status."""
    if argv[:1] == ["--show"] and len(argv) == 2:
        show(argv[1])
        return 0
    try:
        text = render_module()
    except ArtError as exc:
        print("error:", exc, file=sys.stderr)
        return 1
    if argv == ["--check"]:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print("%s is out of date: run tools/fonts/gen.py" % OUTPUT.relative_to(ROOT))
            return 1
        print("%s is up to date" % OUTPUT.relative_to(ROOT))
        return 0
    if argv:
        print(__doc__.split("Usage:")[1].rstrip(), file=sys.stderr)
        return 2
    OUTPUT.write_text(text, encoding="utf-8")
    print("wrote %s (%d bytes)" % (OUTPUT.relative_to(ROOT), len(text.encode("utf-8"))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
