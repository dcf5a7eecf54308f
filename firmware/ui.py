"""Drawing helpers shared by the screens: text, lists, hints and dice.

Two layouts: 128x64 (`app.big`) with the regular font and 17 px dice, and
72x40 (Thumby) with the small font and 12 px dice. Screens ask `Ui` for
positions instead of hard-coding pixels where the layouts differ.
"""

from firmware import font

try:  # native on the chip (firmware/native.py); framebuf's own calls otherwise
    from firmware.native import copy as _copy
    from firmware.native import die as _die
    from firmware.native import fill as _fill
except Exception:  # CPython, WebAssembly, or a .mpy of another architecture
    _die = _fill = None

    def _copy(dst, at, src, start, n):
        """Python version of firmware.native.copy."""
        dst[at:at + n] = src[start:start + n]

# Pip positions on a 3x3 grid: (column, row) per face.
_PIPS = (
    (),
    ((1, 1),),
    ((0, 0), (2, 2)),
    ((0, 0), (1, 1), (2, 2)),
    ((0, 0), (2, 0), (0, 2), (2, 2)),
    ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
)

# size -> (pip size, grid offsets)
_DIE_GEOMETRY = {
    17: (3, (3, 7, 11)),
    12: (2, (2, 5, 8)),
    9: (1, (2, 4, 6)),
    7: (1, (1, 3, 5)),
}
# The same for firmware.native.die: each face's pips as bytes (column,
# row, ...), each size's grid as bytes.
_PIP_BYTES = tuple(bytes(v for pair in pips for v in pair) for pips in _PIPS)
_GRID_BYTES = {size: bytes(geometry[1]) for size, geometry in _DIE_GEOMETRY.items()}


# Dice styles (the "dice" setting, cosmetic): pips on square dice, pips on
# rounded dice, digits on square dice.
PIPS, ROUND, DIGITS = 0, 1, 2
DICE_STYLES = (PIPS, ROUND, DIGITS)


class Ui:
    """Layout and drawing for one app (its screen size and font)."""

    def __init__(self, app):
        self.app = app
        self.w = app.width
        self.h = app.height
        big = app.big
        self.font = font.REGULAR if big else font.SMALL
        self.line = self.font.height + (2 if big else 1)
        self.die = 17 if big else 12
        self.mini = 9 if big else 7
        self.rows = (self.h - self.line) // self.line  # list rows above the hint line
        self.settings = app.session.settings  # "dice": the dice style (firmware.session)
        self._hint = None  # the hint line kept by `hints`: its text
        self._hint_page = None  # and the bytes of the page it fills
        self._head = None  # the top line kept by `header`: its texts
        self._head_page = None  # and the bytes of the first page
        self._first = 0  # the first entry a list (`scroll`) shows
        self._first_at = -1  # and the screen stack's version it was shown at

    def clear(self, canvas):
        """Blank `canvas` (every screen's draw starts so). The display
        driver's buffer is cleared by a native loop where there is one:
        framebuf's fill sets pixel by pixel, 0.8 ms for 128x64 on the chip."""
        buf = getattr(canvas, "buffer", None)
        if _fill is not None and buf is not None:
            _fill(buf, len(buf), 0)
        else:
            canvas.fill(0)

    # ------------------------------------------------------------ text

    def text(self, canvas, s, x, y, c=1):
        """Draw `s` with its top-left corner at (x, y)."""
        self.font.draw(canvas, s, x, y, c)

    def width(self, s):
        """Pixel width of `s`."""
        return self.font.width(s)

    def center(self, canvas, s, y, c=1):
        """Draw `s` centred on the line at y."""
        self.font.draw(canvas, s, (self.w - self.font.width(s)) // 2, y, c)

    def right(self, canvas, s, y, c=1, x=None):
        """Draw `s` ending at the right edge (or at x)."""
        end = self.w if x is None else x
        self.font.draw(canvas, s, end - self.font.width(s), y, c)

    def fit(self, s, width):
        """`s` shortened with '…' so that it fits `width` pixels (Font.fit)."""
        return self.font.fit(s, width)

    def fit_name(self, s, name, width):
        """`s % name` in `width` pixels: the name is shortened with '…', the
        words around it stay whole (`s` has one %s). A number at the end of
        the name stays ('Spiel…2'): default names differ only there."""
        line = s % name
        if self.font.width(line) <= width:
            return line
        # the name's glyphs are spaced from their neighbours: one more gap
        room = max(0, width - self.font.width(s % "") - font.SPACING)
        i = len(name)
        while i > 1 and "0" <= name[i - 1] <= "9":
            i -= 1
        if i < len(name):
            tail = name[i:]
            return s % (self.fit(name[:i], room - self.font.width(tail) - font.SPACING) + tail)
        return s % self.fit(name, room)

    def title(self, canvas, s):
        """A title bar: inverted text on the top line."""
        rec = font.recorder
        if rec is not None:  # the whole title, not the fitted text drawn next
            rec.title(s)
        canvas.fill_rect(0, 0, self.w, self.line, 1)
        self.text(canvas, self.fit(s, self.w - 2), 1, 1 if self.app.big else 0, 0)

    def hints(self, canvas, s):
        """The button hints on the bottom line. Where the line fills the
        last page of a display driver's buffer (128x64), that page is kept
        and copied back while the hint stays the same: fitting and drawing
        it took about half a millisecond of every frame on the chip."""
        w = self.w
        y = self.h - self.font.height
        buf = getattr(canvas, "buffer", None)
        at = -1 if buf is None or y & 7 else (y >> 3) * w  # the page's first byte
        rec = font.recorder
        if rec is not None:  # the whole hint; the fitted text follows unless kept
            rec.hints(s, 0 if at >= 0 and self._hint == s else 1)
        if at >= 0 and self._hint == s:
            canvas.fill_rect(0, y - 1, w, 1, 0)
            canvas.hline(0, y - 2, w, 1)
            _copy(buf, at, self._hint_page, 0, w)
            return
        canvas.fill_rect(0, y - 1, w, self.font.height + 1, 0)
        canvas.hline(0, y - 2, w, 1)
        self.text(canvas, self.fit(s, w), 0, y)
        if at >= 0:
            kept = self._hint_page
            if kept is None:
                kept = self._hint_page = bytearray(w)
            _copy(kept, 0, buf, at, w)
            self._hint = s

    def header(self, canvas, left, right, right_x):
        """A top line of two texts (the play screen's): `left` at x 0 and
        `right` at `right_x`, on a cleared first page. Where the font fits
        that page of a display driver's buffer, the page is kept and copied
        back while the texts stay the same (as `hints` does): drawing them
        was part of every die pick on the chip."""
        buf = getattr(canvas, "buffer", None)
        w = self.w
        keep = buf is not None and self.font.height <= 8 and font.recorder is None
        if keep and self._head is not None and self._head[0] == left and (
                self._head[1] == right and self._head[2] == right_x):
            _copy(buf, 0, self._head_page, 0, w)
            return
        self.text(canvas, left, 0, 0)
        self.text(canvas, right, right_x, 0)
        if keep:
            kept = self._head_page
            if kept is None:
                kept = self._head_page = bytearray(w)
            _copy(kept, 0, buf, 0, w)
            self._head = (left, right, right_x)

    def lines(self, canvas, items, y=None, fitted=False):
        """Draw text lines from y (default: below the title); `fitted`: the
        lines are known to fit (wrapped to the screen), so none is
        measured (a measure takes about 0.15 ms on the chip)."""
        y = self.line + 1 if y is None else y
        for s in items:
            self.text(canvas, s if fitted else self.fit(s, self.w), 0, y)
            y += self.line

    def scroll(self, index, y=None, rows=None, count=None):
        """Where a list (`menu`) with the entry `index` highlighted goes:
        (y of its first row, rows shown, the first entry shown).

        The rows shown stay put while the highlight moves inside them and
        turn a page when it leaves them (down: it becomes the first row, up:
        the last). A scroll sends most of the panel again (about 20 ms over
        I2C), a move of the highlight alone two rows, so most cursor moves
        stay within a frame. The window is kept per screen (`app.version`
        changes with the screen stack); `count`, the entries in the list,
        keeps the last page full."""
        y = self.line + 2 if y is None else y
        rows = rows or max(1, (self.h - y - self.line) // self.line)
        version = self.app.version
        first = self._first if self._first_at == version else 0
        if index < first:
            first = max(0, index - rows + 1)
        elif index >= first + rows:
            first = index
        if count is not None and first > count - rows:
            first = max(0, count - rows)
        self._first, self._first_at = first, version
        return y, rows, first

    def menu(self, canvas, labels, index, y=None, rows=None):
        """A scrolling list with the entry `index` highlighted."""
        y, rows, first = self.scroll(index, y, rows, len(labels))
        rec = font.recorder
        if rec is not None:  # every entry, not only the rows drawn next
            rec.menu(labels, index, min(len(labels), first + rows) - first, first, y, self.line)
        for i in range(first, min(len(labels), first + rows)):
            label = self.fit(labels[i], self.w - 4)
            if i == index:
                # The bar as wide as its label: a cursor move then changes
                # fewer columns of the panel (less to send over I2C).
                canvas.fill_rect(0, y - 1, self.width(label) + 4, self.line, 1)
            self.text(canvas, label, 2, y, 0 if i == index else 1)
            y += self.line
        if first > 0:
            self.text(canvas, "↑", self.w - self.width("↑"), self.line + 1)
        if first + rows < len(labels):
            self.text(canvas, "↓", self.w - self.width("↓"), y - self.line)

    def menu_row(self, canvas, labels, i, index, first, rows):
        """Draw row `i` of a list that `menu(canvas, labels, ...)` drew in
        its default place with entry `first` at the top and `rows` rows
        again, highlighted when `i` is `index`: the row's band (from a pixel
        above its text to the next row's) is cleared and drawn as `menu`
        draws it, with the arrow that band holds."""
        line = self.line
        y = line + 2 + (i - first) * line
        canvas.fill_rect(0, y - 1, self.w, line, 0)
        label = self.fit(labels[i], self.w - 4)
        if i == index:
            canvas.fill_rect(0, y - 1, self.width(label) + 4, line, 1)
        self.text(canvas, label, 2, y, 0 if i == index else 1)
        if i == first and first > 0:
            self.text(canvas, "↑", self.w - self.width("↑"), line + 1)
        if i == first + rows - 1 and first + rows < len(labels):
            self.text(canvas, "↓", self.w - self.width("↓"), y)

    # ------------------------------------------------------------ dice

    def draw_die(self, canvas, x, y, size, face, inverted=False, crossed=False):
        """A die of `size` px (17, 12, 9 or 7) showing `face`; inverted dice
        are filled with dark pips (selected), crossed dice get a slash (a
        selected die that does not score). The "dice" setting picks pips or digits
        and square or rounded corners."""
        pip, grid = _DIE_GEOMETRY[size]
        fg = 0 if inverted else 1
        style = self.settings["dice"]
        rec = font.recorder
        if rec is not None:  # (a digit die's digit is drawn as text: not a text)
            rec.die(face, inverted, crossed, size, x, 1 if style == DIGITS else 0, y)
        buf = getattr(canvas, "buffer", None)
        native = False
        if _die is not None and buf is not None:
            # the display driver on the chip: square and pips in one call
            native = True
            pips = b"" if style == DIGITS else _PIP_BYTES[face]
            _die(buf, canvas.width, canvas.pages, x, y, size, 1 if inverted else 0,
                 pips,  # pyright: ignore[reportArgumentType]  (viper takes a buffer for a ptr8 argument)
                 len(pips) >> 1,
                 _GRID_BYTES[size],  # pyright: ignore[reportArgumentType]  (as above)
                 pip)
        elif inverted:  # a dark rim keeps neighbouring selected dice apart
            canvas.fill_rect(x, y, size, size, 0)
            canvas.fill_rect(x + 1, y + 1, size - 2, size - 2, 1)
        else:
            canvas.fill_rect(x, y, size, size, 0)
            canvas.rect(x, y, size, size, 1)
        if style == ROUND:  # the corners cut off (inside the dark rim when inverted)
            o = 1 if inverted else 0
            far = size - 1 - o
            for cx, cy in ((x + o, y + o), (x + far, y + o), (x + o, y + far),
                           (x + far, y + far)):
                canvas.pixel(cx, cy, 0)
            if not inverted:
                for cx, cy in ((x + 1, y + 1), (x + far - 1, y + 1), (x + 1, y + far - 1),
                               (x + far - 1, y + far - 1)):
                    canvas.pixel(cx, cy, 1)
        if style == DIGITS:
            f = font.REGULAR if size >= 12 else font.SMALL
            s = "%d" % face
            # a digit fills the font's height but its descender row
            f.draw(canvas, s, x + (size - f.width(s)) // 2, y + (size - f.height + 1) // 2, fg)
        elif not native:  # (the native die has its pips; they never touch the corners)
            for col, row in _PIPS[face]:
                canvas.fill_rect(x + grid[col], y + grid[row], pip, pip, fg)
        if crossed:
            canvas.line(x, y + size - 1, x + size - 1, y, fg)
            canvas.line(x + 1, y + size - 1, x + size - 1, y + 1, fg)

    def dice_row(self, canvas, x, y, size, gap, faces, chosen, bad):
        """The dice `faces` from (x, y), `gap` px apart: die i inverted
        where chosen[i], crossed where i is in `bad` (as `draw_die`). On a
        display driver's buffer plain pips go to the native die in this
        one loop: a call of `draw_die` a die took most of the row's 1.8 ms
        on the chip, a die pick's draw."""
        buf = getattr(canvas, "buffer", None)
        if (_die is None or buf is None or font.recorder is not None or bad
                or self.settings["dice"] != PIPS):
            for i in range(len(faces)):
                self.draw_die(canvas, x, y, size, faces[i], chosen[i], i in bad)
                x += size + gap
            return
        pip, _grid = _DIE_GEOMETRY[size]
        grid = _GRID_BYTES[size]
        width = canvas.width
        pages = canvas.pages
        step = size + gap
        for i in range(len(faces)):
            pips = _PIP_BYTES[faces[i]]
            _die(buf, width, pages, x, y, size, 1 if chosen[i] else 0,
                 pips,  # pyright: ignore[reportArgumentType]  (viper takes a buffer for a ptr8 argument)
                 len(pips) >> 1,
                 grid,  # pyright: ignore[reportArgumentType]  (as above)
                 pip)
            x += step

    def cursor(self, canvas, x, y, size):
        """The cursor bar under the die of `size` px at x (its top at y)."""
        rec = font.recorder
        if rec is not None:
            rec.cursor(x)
        canvas.fill_rect(x, y, size, 2, 1)

    def mark(self, canvas, cx, top):
        """A small arrowhead pointing up at the die centred on cx (a tip's
        suggestion), its point at `top`."""
        rec = font.recorder
        if rec is not None:
            rec.mark(cx)
        for r in range(3):
            canvas.hline(cx - r, top + r, 2 * r + 1, 1)
