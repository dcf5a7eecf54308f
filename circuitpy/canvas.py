"""The frame as a `displayio.Bitmap`, drawn with `bitmaptools`, shown by displayio.

`BitmapCanvas(display, width, height)` is what the app draws on (the
FrameBuffer calls the screens make: fill, fill_rect, hline, vline, rect,
line, pixel, and text in the app's own font) plus the panel calls of
firmware.display (show, refresh, contrast, poweroff, poweron). The
bitmap is the one TileGrid of the display's root group, so `show()` is
`display.refresh()`: displayio sends only the rows that changed.

Why the project's renderer and not adafruit_display_text: measured under
CircuitPython's Unix port (`make cpy-unix CPY_UNIX_ARGS=--text`; 64-bit
bytes, about 1.35x the chip's), firmware.font with its glyph data keeps
6.4 KB of heap and its .mpy files are 3.8 KB; drawing the title menu's
five labels allocates 160 B. adafruit_display_text's bitmap_label with the
fonts as BDF files (tools/fonts/bdf.py: pixel-equal) keeps a Bitmap per
loaded glyph (35 KB for all 228 glyphs of both fonts, before fontio's
Glyph objects), a Bitmap, TileGrid, Group and Palette per label, and its
code with adafruit_bitmap_font's is 17 KB of .mpy. On a chip where the
game already needs more heap than CircuitPython leaves (docs/handheld.md),
the heap decides. The price is time: the project's renderer runs in
Python (one `bitmaptools.fill_region` per run of ink, no viper on
CircuitPython), 25 to 170 times slower on the port than blitting glyph
Bitmaps with `bitmaptools.blit` (0.6 to 3.8 ms against 20 to 26 us for
those five labels, over runs on a shared machine; chip times are not
measured). A firmware with the game
frozen in has the heap to keep glyph Bitmaps: the faster path then.

A rectangle is clipped here (as framebuf does) before it reaches
bitmaptools; `line` is framebuf's Bresenham (modframebuf.c), so the dice's
crosses match the simulator's pixel for pixel.
"""

import bitmaptools
import displayio


class BitmapCanvas:
    """See the module docstring. `display` is a displayio display
    (busdisplay.BusDisplay, e.g. adafruit_displayio_ssd1306.SSD1306) or
    None (a canvas only, for tests); `contrast_max` scales `contrast`;
    `buses`: objects kept for as long as the canvas (circuitpy.host)."""

    def __init__(self, display, width, height, contrast_max=255, buses=()):
        self.width = width
        self.height = height
        self.bitmap = displayio.Bitmap(width, height, 2)
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        self.palette = palette
        self.display = display
        self.contrast_max = contrast_max
        self.buses = buses  # what the display is sent over, kept alive (circuitpy.host)
        if display is not None:
            group = displayio.Group()
            group.append(displayio.TileGrid(self.bitmap, pixel_shader=palette))
            display.root_group = group

    # ------------------------------------------------------------ drawing

    def fill(self, c):
        """Every pixel to `c`."""
        self.bitmap.fill(1 if c else 0)

    def fill_rect(self, x, y, w, h, c):
        """A filled rectangle, clipped to the canvas (nothing when w or h < 1)."""
        if w < 1 or h < 1 or x >= self.width or y >= self.height:
            return
        x2 = x + w
        y2 = y + h
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        if x2 > self.width:
            x2 = self.width
        if y2 > self.height:
            y2 = self.height
        if x2 > x and y2 > y:
            bitmaptools.fill_region(self.bitmap, x, y, x2, y2, 1 if c else 0)

    def hline(self, x, y, w, c):
        """A horizontal line of `w` pixels."""
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        """A vertical line of `h` pixels (firmware.font draws its ink so)."""
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        """A rectangle's outline (filled with `f`), as framebuf draws it."""
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        if w < 1 or h < 1:
            return
        self.fill_rect(x, y, w, 1, c)
        self.fill_rect(x, y + h - 1, w, 1, c)
        self.fill_rect(x, y, 1, h, c)
        self.fill_rect(x + w - 1, y, 1, h, c)

    def pixel(self, x, y, c=None):
        """Set the pixel at (x, y) to `c`, or return it (None off the canvas)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self.bitmap[x, y]
        self.bitmap[x, y] = 1 if c else 0
        return None

    def line(self, x1, y1, x2, y2, c):
        """framebuf's Bresenham line, both ends included, clipped per pixel."""
        bmp = self.bitmap
        w = self.width
        h = self.height
        c = 1 if c else 0
        dx = x2 - x1
        sx = 1
        if dx <= 0:
            dx = -dx
            sx = -1
        dy = y2 - y1
        sy = 1
        if dy <= 0:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            px, py = (y1, x1) if steep else (x1, y1)
            if 0 <= px < w and 0 <= py < h:
                bmp[px, py] = c
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < w and 0 <= y2 < h:
            bmp[x2, y2] = c

    def text(self, s, x, y, c=1):
        """`s` in the app's regular font (CircuitPython has no framebuf 8x8 font;
        only firmware.device's start-up messages call this)."""
        from firmware import font

        font.REGULAR.draw(self, s, x, y, c)

    # ------------------------------------------------------------ the panel

    def show(self):
        """Send what changed to the panel."""
        if self.display is not None:
            self.display.refresh()

    def refresh(self):
        """The next `show` sends the whole frame (after a wake: the panel's
        RAM may be stale). Setting the root group again makes displayio
        redraw all of it."""
        display = self.display
        if display is not None:
            display.root_group = display.root_group

    def contrast(self, value):
        """The panel's contrast, 0..255 scaled to 0..contrast_max."""
        if self.display is not None:
            self.display.brightness = min(255, value * self.contrast_max // 255) / 255

    def poweroff(self):
        """The panel off (its RAM is kept)."""
        if self.display is not None:
            self.display.sleep()

    def poweron(self):
        """The panel on again."""
        if self.display is not None:
            self.display.wake()
