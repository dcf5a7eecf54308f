"""tools/fonts/bdf.py: the project's fonts as BDF files draw, through
adafruit_bitmap_font and adafruit_display_text's bitmap_label (Blinka's
displayio), the same ink as firmware.font, pixel for pixel."""

from adafruit_bitmap_font import bitmap_font
from adafruit_display_text import bitmap_label

from circuitpy.canvas import BitmapCanvas
from firmware import font, font_data, strings
from tools.fonts import bdf


def _ink(bitmap, width, height):
    return ["".join("#" if bitmap[x, y] else "." for x in range(width)) for y in range(height)]


def _same(loaded, ours, text):
    label = bitmap_label.Label(loaded, text=text, color=0xFFFFFF)
    width = ours.width(text)
    canvas = BitmapCanvas(None, width + 2, ours.height)
    ours.draw(canvas, text, 0, 0)
    got = label.bitmap
    assert got.height == ours.height and got.width >= width, text
    assert _ink(got, width, ours.height) == _ink(canvas.bitmap, width, ours.height), text
    assert all(not got[x, y] for x in range(width, got.width) for y in range(got.height))


def test_every_glyph_and_the_games_texts_draw_the_same(tmp_path):
    paths = bdf.write(tmp_path)
    charset = "".join(chr(c) for c in range(33, 127)) + font_data.EXTRA
    texts = [strings.text(lang, key) for lang in ("de", "en")
             for key in ("new_game", "pad_title", "stats_title", "settings_title")]
    for path, ours in zip(paths, (font.SMALL, font.REGULAR), strict=True):
        loaded = bitmap_font.load_font(str(path))
        for i in range(0, len(charset), 12):
            _same(loaded, ours, charset[i:i + 12])
        for text in texts:
            _same(loaded, ours, text)


def test_the_files_say_what_the_fonts_are(tmp_path):
    small, regular = bdf.write(tmp_path)
    text = regular.read_text(encoding="ascii")
    assert text.startswith("STARTFONT 2.1\n") and text.rstrip().endswith("ENDFONT")
    assert "FONT_ASCENT %d\n" % font.REGULAR.height in text
    assert text.count("STARTCHAR") == len(font_data.REGULAR_INDEX) // 3
    assert "FONT_ASCENT %d\n" % font.SMALL.height in small.read_text(encoding="ascii")
