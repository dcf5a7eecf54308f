"""What text costs on CircuitPython's heap: the game's renderer against glyph bitmaps.

    micropython -X heapsize=N tools/mp/text_cost.py [--path DIR]

Under CircuitPython's Unix port (tools/cpy_unix.py --text), with the real
`displayio.Bitmap` and `bitmaptools`. Prints:

    @own_modules B      firmware.font with its glyph data, loaded (the game's renderer)
    @own_draw B N       bytes allocated drawing the title menu's N labels into the
                        frame's Bitmap (the garbage collector held off)
    @own_draw_us U      microseconds for those N labels on this machine (no chip time)
    @glyph_bitmaps B N  what adafruit_bitmap_font keeps per glyph at the least: one
                        displayio.Bitmap of the glyph's size, for the N glyphs of
                        both fonts (its fontio.Glyph objects and the font's dict
                        come on top; that port has no fontio)
    @blit_draw B N      bytes allocated drawing the same N labels by blitting those
                        glyph Bitmaps into the frame with bitmaptools.blit (in C), as
                        bitmap_label draws its text
    @blit_draw_us U     microseconds for that on this machine
    @label_bitmaps B N  one Bitmap per label the size of its text, as
                        adafruit_display_text.bitmap_label makes for each of the N
                        labels (TileGrid, Group and Palette per label come on top)
"""

import gc
import sys
import time


def _path(argv):
    paths = []
    i = 1
    while i < len(argv):
        if argv[i] == "--path" and i + 1 < len(argv):
            paths.append(argv[i + 1])
            i += 2
        else:
            raise SystemExit("unknown option %s" % argv[i])
    for p in reversed(paths):
        sys.path.insert(0, p)
    sys.path.insert(len(paths), ".")


def _glyphs(font_data, name):
    height = getattr(font_data, name + "_HEIGHT")
    index = getattr(font_data, name + "_INDEX")
    return height, [index[i] for i in range(2, len(index), 3)]


def main():
    """Measure and print (see the module docstring)."""
    _path(sys.argv)
    import displayio

    from circuitpy.canvas import BitmapCanvas

    canvas = BitmapCanvas(None, 128, 64)
    gc.collect()
    before = gc.mem_alloc()
    from firmware import font

    gc.collect()
    print("@own_modules", gc.mem_alloc() - before)
    from firmware import strings

    keys = ("new_game", "pad_title", "stats_title", "help_title", "settings_title")
    labels = [strings.text("de", k) for k in keys]
    regular = font.REGULAR
    regular.draw(canvas, labels[0], 0, 0)  # (a first call's one-off work out of the way)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    start = time.ticks_us()  # (the Unix port's time has MicroPython's ticks; a chip's has not)
    y = 0
    for text in labels:
        regular.draw(canvas, text, 2, y)
        y += 10
    took = time.ticks_diff(time.ticks_us(), start)
    used = gc.mem_alloc() - before
    gc.enable()
    print("@own_draw", used, len(labels))
    print("@own_draw_us", took)

    from firmware import font_data

    glyphs = {}
    gc.collect()
    before = gc.mem_alloc()
    for name in ("SMALL", "REGULAR"):
        height, widths = _glyphs(font_data, name)
        for i, w in enumerate(widths):
            glyphs[name, i] = displayio.Bitmap(max(w, 1), height, 2)
    gc.collect()
    print("@glyph_bitmaps", gc.mem_alloc() - before, len(glyphs))
    import bitmaptools

    frame = canvas.bitmap
    _, widths = _glyphs(font_data, "REGULAR")
    plan = [[(glyphs["REGULAR", regular.glyph(ch)], widths[regular.glyph(ch)]) for ch in text]
            for text in labels]  # (the glyph lookups bitmap_font does once per label)
    gc.collect()
    gc.disable()
    before = gc.mem_alloc()
    start = time.ticks_us()
    y = 0
    for row in plan:
        x = 2
        for bitmap, w in row:
            bitmaptools.blit(frame, bitmap, x, y, skip_source_index=0)
            x += w + 1
        y += 10
    took = time.ticks_diff(time.ticks_us(), start)
    used = gc.mem_alloc() - before
    gc.enable()
    print("@blit_draw", used, len(labels))
    print("@blit_draw_us", took)
    del glyphs, plan
    gc.collect()
    gc.collect()  # (a Bitmap is freed a collection after it is found unreachable)
    keep = []
    before = gc.mem_alloc()
    for text in labels:
        keep.append(displayio.Bitmap(regular.width(text) + 1, regular.height, 2))
    gc.collect()
    print("@label_bitmaps", gc.mem_alloc() - before, len(keep))

if __name__ == "__main__":
    main()
