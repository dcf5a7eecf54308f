"""Every glyph renders exactly as drawn in tools/fonts/*.txt; gen.py validation.

CPython only: the art files are not on the device. Rendering goes through the
vline path (the Grid stand-in) and, when ``simulator.framebuf`` exists, through
the blit path on its FrameBuffer.
"""

import pytest

from firmware import font as font_mod
from firmware.font import REGULAR, SMALL
from tests.both.test_font import Grid
from tools.fonts import gen

try:
    from simulator import framebuf
except ImportError:
    framebuf = None

FONTS = {"small": SMALL, "regular": REGULAR}
MISSING = "€"


def _canvases(width, height):
    out = [Grid(width, height)]
    if framebuf is not None:
        buf = bytearray(width * ((height + 7) // 8))
        out.append(framebuf.FrameBuffer(buf, width, height, framebuf.MONO_VLSB))
    return out


@pytest.mark.parametrize("name", sorted(FONTS))
def test_every_glyph_matches_its_art(name):
    font = FONTS[name]
    height, glyphs = gen.load(name)
    assert font.height == height
    checked = 0
    for key in gen.glyph_order():
        rows = glyphs[key]
        ch = MISSING if key == gen.UNKNOWN else key
        width = len(rows[0])
        assert font.width(ch) == width, (name, key)
        for canvas in _canvases(width + 4, height + 4):
            font.draw(canvas, ch, 2, 2)
            for y in range(height + 4):
                for x in range(width + 4):
                    inside = 2 <= x < 2 + width and 2 <= y < 2 + height
                    want = 1 if inside and rows[y - 2][x - 2] == "#" else 0
                    assert (canvas.pixel(x, y) or 0) == want, (name, key, x, y)
        checked += 1
    assert checked == 95 + len(gen.EXTRA) + 1


@pytest.mark.parametrize("name", sorted(FONTS))
def test_art_layout(name):
    height, glyphs = gen.load(name)
    # Capitals and digits stand on the same baseline and never use the last row.
    for ch in "ABCDEFGHIJKLMNOPRSTUVWXYZ0123456789":
        rows = glyphs[ch]
        assert "#" in rows[height - 2], (name, ch)
        assert "#" not in rows[height - 1], (name, ch)
    # Descenders reach the last row.
    for ch in "gjpqy":
        assert "#" in glyphs[ch][height - 1], (name, ch)
    # Umlauts carry their dots on the top row, separated by one blank row.
    for ch in "ÄÖÜäöü":
        assert glyphs[ch][0].count("#") == 2, (name, ch)
        assert "#" not in glyphs[ch][1], (name, ch)


def test_generated_module_is_up_to_date():
    assert gen.OUTPUT.read_text(encoding="utf-8") == gen.render_module()
    assert font_mod.font_data.EXTRA == gen.EXTRA


def test_generated_data_is_compact():
    total = 0
    for name in ("SMALL", "REGULAR"):
        total += len(getattr(font_mod.font_data, name + "_INDEX"))
        total += len(getattr(font_mod.font_data, name + "_BITS"))
    assert total < 2500


def _art(glyphs, height=3, extra=""):
    """Build art text for a font with every required glyph 1 px wide and blank."""
    out = ["@height %d" % height]
    for key in gen.glyph_order():
        if key in glyphs:
            continue
        out.append("== " + ("SPACE" if key == " " else key))
        out += ["."] * height
    for key, rows in glyphs.items():
        out.append("== " + key)
        out += rows
    return "\n".join(out) + "\n" + extra


def test_parse_accepts_a_complete_font():
    settings, glyphs = gen.parse(_art({}))
    assert settings == {"height": "3"}
    assert len(glyphs) == 95 + len(gen.EXTRA) + 1


def test_parse_names_and_code_points():
    text = _art({}).replace("== A\n", "== U+0041\n")
    _settings, glyphs = gen.parse(text)
    assert "A" in glyphs


@pytest.mark.parametrize(
    "text, message",
    [
        (_art({}).replace("== B\n.\n", "== B\n.#\n"), "differ in width"),
        (_art({}).replace("== B\n.\n.\n.\n", "== B\n.\n.\n"), "has 2 rows"),
        (_art({}).replace("== B\n.\n", "== B\nx\n"), "only '#' and '.'"),
        (_art({}, extra="== €\n.\n.\n.\n"), "outside the charset"),
        (_art({}).replace("== B\n", "== ZZ\n"), "one character"),
        (_art({}).replace("== B\n", "== C\n", 1), "drawn twice"),
        (_art({}).replace("@height 3\n", "@height 3\n#\n"), "row before the first"),
        (_art({}).replace("@height 3\n", ""), "missing '@height"),
        ("@height 3\n", "glyphs missing"),
        (_art({}).replace("@height 3", "@height 0"), "@height must be"),
        (_art({}).replace("== B\n.\n.\n.\n", "== B\n\n\n\n"), "has 0 rows"),
    ],
)
def test_parse_rejects_bad_art(text, message):
    with pytest.raises(gen.ArtError, match=message):
        gen.parse(text)


def test_encode_column_major_vlsb():
    rows = {"A": ["#.", ".#", "#."]}
    height, glyphs = 3, gen.parse(_art(rows))[1]
    index, bits = gen.encode(height, glyphs)
    a = 33 * 3
    offset = index[a] | index[a + 1] << 8
    assert index[a + 2] == 2
    assert bits[offset:offset + 2] == bytes((0b101, 0b010))
