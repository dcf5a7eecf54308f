"""A page of text lines under a title: UP/DOWN scroll a line, LEFT/RIGHT a
page, A or B close it. Statistics sheets and help pages use it."""

from firmware import buttons
from firmware.screen import Screen


class Pager(Screen):
    """Shows `text_lines` under `title`; subclasses may make the lines in
    `lines(app)` (help pages wrap paragraphs to the screen)."""

    name = "sheet"
    hint_key = "sheet_hint"

    def __init__(self, title, lines=(), name=None):
        self.title_text = title
        self.text_lines = lines
        self.first = 0
        if name is not None:
            self.name = name

    def lines(self, app):
        """The lines to show."""
        return self.text_lines

    def _rows(self, app):
        ui = app.ui
        return max(1, (ui.h - 2 * ui.line - 1) // ui.line)

    def on_key(self, app, key, kind):
        """See the class docstring."""
        rows = self._rows(app)
        last = max(0, len(self.lines(app)) - rows)
        first = self.first
        if key == buttons.UP:
            first -= 1
        elif key == buttons.DOWN:
            first += 1
        elif key == buttons.LEFT:
            first -= rows
        elif key == buttons.RIGHT:
            first += rows
        elif kind == "press" and key in (buttons.A, buttons.B):
            app.pop()
            return
        first = max(0, min(last, first))
        if first != self.first:
            self.first = first
            app.redraw()

    def draw(self, app, canvas):
        """Title, the visible lines with scroll marks, hint."""
        ui = app.ui
        app.ui.clear(canvas)
        ui.title(canvas, self.title_text)
        lines = self.lines(app)
        rows = self._rows(app)
        ui.lines(canvas, lines[self.first:self.first + rows])
        if self.first > 0:
            ui.right(canvas, "↑", ui.line + 1)
        if self.first + rows < len(lines):
            ui.right(canvas, "↓", ui.line + 1 + (rows - 1) * ui.line)
        more = len(lines) > rows
        ui.hints(canvas, app.t(self.hint_key) if more or self.hint_key != "sheet_hint" else
                 app.t("ok_hint"))

    def state(self):
        """The title, every line and where it is scrolled to."""
        return {"title": self.title_text, "lines": list(self.text_lines), "first": self.first}
