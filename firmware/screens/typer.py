"""The letter grid that types a new name (a person's, offered whole names
and a guessing cursor: firmware.first_names) or a rule set's. Apart from
firmware.screens.names, which the device keeps loaded: this one is loaded
when a name is typed."""

from engine.game import MAX_NAME
from firmware import buttons
from firmware.screen import Screen

ALPHABET = ("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"
            "abcdefghijklmnopqrstuvwxyzäöüß"
            "0123456789 -.")


DONE = "✓"  # the grid's last row starts with it: A there takes the name
COLS = 13  # the grid's columns (A-M, N-Z) on both layouts


def grid_rows(cols):
    """The picker's letters in rows of `cols`, the last row led by DONE (UP
    from the first row reaches it in one press). Upper case only: the
    Typer writes a word's first letter upper case, the rest lower case."""
    cells = ALPHABET[:29] + "ß -." + ALPHABET[-13:-3]
    rows = [cells[i:i + cols] for i in range(0, len(cells), cols)]
    if len(rows[-1]) < cols:
        rows[-1] = DONE + rows[-1]
    else:
        rows.append(DONE)
    return rows


class Typer(Screen):
    """The letter grid, all letters in view: the arrows move the cursor
    (round the edges), A adds the letter under it (on DONE: takes the
    name), B deletes the last letter (or leaves when the name is empty).
    A word's first letter is upper case, the rest lower case. For a
    person's name (`used`: the names used before) the cursor then goes to
    the cell from which the letter that follows is the fewest presses
    away on average, and the title line offers the likeliest whole name
    that begins with what is typed (firmware.first_names: the names used
    before, then common first names), a row of its own above the grid's
    first (and below its last) where the cursor waits when that is the
    fewest presses on average: A there takes that name, LEFT/RIGHT show
    the other names that begin alike. "Paul" is P, a, then A on the offer
    (tests/cpython/test_presses.py counts more names)."""

    name = "typer"

    def __init__(self, taken, done, used=None):
        self.taken = taken
        self.done = done
        self.used = used
        self.typed = ""
        self.row = 0
        self.col = 0
        self.error = ""
        self.suggestion = ""  # the whole name offered ("": none); its row: len(grid_rows())
        self._guess(grid_rows(COLS))

    def _guess(self, rows):
        """Put the cursor where the next letter most likely is, the fewest
        presses away on average, or on the whole name offered, keeping that
        column for a DOWN (a person's name only)."""
        if self.used is None:
            return
        from firmware.first_names import OFFER, complete, next_cell

        offer = self.suggestion = complete(self.typed, self.used, self.taken)
        n = len(rows) + (1 if offer else 0)  # the offer: a row below the last

        def cell_of(ch):
            if ch == OFFER:
                return (len(rows), 0)
            if ch == "":
                ch = DONE
            else:
                i = ALPHABET.find(ch)
                if 29 <= i < 58:
                    ch = ALPHABET[i - 29]  # the grid holds the upper case
            for r in range(len(rows)):
                c = rows[r].find(ch)
                if c >= 0:
                    return (r, c)
            return None

        def distance(a, b):  # the shorter way round, rows then columns
            down = (b[0] - a[0]) % n
            if b[0] == len(rows):  # the offer: one cell
                return min(down, n - down)
            width = len(rows[b[0]])
            right = (b[1] - min(a[1], width - 1)) % width
            return min(down, n - down) + min(right, width - right)

        cell = next_cell(self.typed, self.used, self.taken, cell_of, distance, offer)
        if cell is not None:
            self.row, self.col = cell
        elif self.row >= n:
            self.row = 0

    def text(self):
        """The name typed so far (without trailing spaces)."""
        return self.typed.rstrip()

    def _cell(self, rows, row, col):
        if row == len(rows):
            return self.suggestion
        ch = rows[row][min(col, len(rows[row]) - 1)]
        if ch != DONE and self.typed and self.typed[-1] not in " -":
            i = ALPHABET.find(ch)
            if i < 29:  # within a word: lower case (by the table: MicroPython
                ch = ALPHABET[i + 29]  # lowers ASCII only)
        return ch

    def on_key(self, app, key, kind):
        """See the class docstring."""
        rows = grid_rows(_cols(app))
        self.error = ""
        on_name = self.row == len(rows)  # the whole name offered
        if key in (buttons.UP, buttons.DOWN):
            n = len(rows) + (1 if self.suggestion else 0)
            self.row = (self.row + (1 if key == buttons.DOWN else -1)) % n
        elif key in (buttons.LEFT, buttons.RIGHT):
            if on_name:  # the other names that begin alike; the column stays
                from firmware.first_names import complete

                step = 1 if key == buttons.RIGHT else -1
                self.suggestion = complete(self.typed, self.used, self.taken,
                                           self.suggestion, step)
                app.redraw()
                return
            n = len(rows[self.row])
            self.col = (min(self.col, n - 1) + (1 if key == buttons.RIGHT else -1)) % n
        elif key == buttons.A and kind == "press":
            ch = self._cell(rows, self.row, self.col)
            if on_name:
                app.pop()
                self.done(app, ch)
                return
            if ch != DONE:
                if len(self.typed) < MAX_NAME:
                    self.typed += ch
                    self._guess(rows)
            else:
                name = self.text()
                if not name:
                    self.error = app.t("name_empty")
                elif name in self.taken:
                    self.error = app.t("name_taken")
                else:
                    app.pop()
                    self.done(app, name)
                    return
        elif key == buttons.B and kind == "press":
            if self.typed:
                self.typed = self.typed[:-1]
                if self.used is not None:
                    from firmware.first_names import complete

                    self.suggestion = complete(self.typed, self.used, self.taken)
                    if on_name and not self.suggestion:
                        self._guess(rows)
            else:
                app.pop()
                return
        else:
            return
        app.redraw()

    def draw(self, app, canvas):
        """The name so far and the whole name offered on the title line (the
        cursor on it inverts it), the grid with the cursor's cell inverted,
        the hint (or a refusal)."""
        ui = app.ui
        ui.clear(canvas)
        rows = grid_rows(_cols(app))
        on_name = self.row == len(rows)
        self._title(app, canvas, on_name)
        cols = _cols(app)
        cw = ui.w // cols
        ch_h = ui.font.height + (1 if app.big else 0)
        y = ui.line + 1
        from firmware import font

        rec = font.recorder
        if rec is not None:  # a host's text layer: the cells as a menu names the one chosen
            cells = [self.suggestion] if self.suggestion else []
            for r, row in enumerate(rows):
                for c in range(len(row)):
                    cells.append(self._cell(rows, r, c))
            index = 0
            if not on_name:
                index = len(cells) - sum(len(row) for row in rows[self.row:])
                index += min(self.col, len(rows[self.row]) - 1)
            # (said before the grid is drawn: its letters are this menu, not
            # lines of text, where the cursor's row read as one chosen line)
            rec.menu(cells, index, len(cells) - (1 if self.suggestion else 0))
        for r, row in enumerate(rows):
            for c in range(len(row)):
                ch = self._cell(rows, r, c)
                x = c * cw
                on = r == self.row and c == min(self.col, len(row) - 1)
                if on:
                    canvas.fill_rect(x, y - 1, cw, ch_h, 1)
                ui.text(canvas, ch, x + (cw - ui.width(ch)) // 2, y, 0 if on else 1)
            y += ch_h
        hint = self.error
        if not hint and on_name:
            hint = ui.fit_name(app.t("name_hint_take" if app.big else "name_hint_take_small"),
                               self.suggestion, ui.w)
        ui.hints(canvas, hint or app.t("name_hint" if app.big else "name_hint_small"))

    def _title(self, app, canvas, on_name):
        """The title bar: what is typed, and on its right the whole name
        offered after an arrow, inverted when the cursor is on it (the text
        layer hears both as the title)."""
        from firmware import font

        ui = app.ui
        left = (self.typed or app.t("type_name")) + "_"
        if not self.suggestion:
            ui.title(canvas, left)
            return
        offer = "→" + self.suggestion  # →Paul
        rec = font.recorder
        if rec is not None:
            rec.title(left + " " + offer)  # the fitted text drawn next is skipped
        y = 1 if app.big else 0
        offer = ui.fit(offer, ui.w * 5 // 8)
        w = ui.width(offer)
        x = ui.w - w - 1
        canvas.fill_rect(0, 0, ui.w, ui.line, 1)
        ui.text(canvas, ui.fit(left, x - 3), 1, y, 0)
        font.recorder = None  # said with the title
        try:
            if on_name:
                canvas.fill_rect(x - 1, 0, w + 2, ui.line, 0)
            ui.text(canvas, offer, x, y, 1 if on_name else 0)
        finally:
            font.recorder = rec

    def state(self):
        """The name typed so far, the cursor and the whole name offered."""
        return {"text": self.text(), "row": self.row, "col": self.col,
                "suggestion": self.suggestion}


def _cols(app):
    """Grid columns: COLS on both layouts."""
    return COLS
