"""A page of text lines under a title: UP/DOWN scroll a line, LEFT/RIGHT a
page, A or B close it. Statistics sheets use `Pager`; help pages and the
tips lesson's pages use `TextPage` (paragraphs wrapped to the screen)."""

from firmware import buttons, font
from firmware.screen import Kept, Screen
from firmware.screens.wrap import wrap


class Pager(Screen):
    """Shows `text_lines` under `title`; subclasses may make the lines in
    `lines(app)` (help pages wrap paragraphs to the screen)."""

    name = "sheet"
    hint_key = "sheet_hint"
    then = None  # run after A or B closed the page (when set)
    # An arrow with nothing left to scroll closes the page and goes on to
    # the screen below (a notice over a form: the press is not lost).
    passes = False
    by_page = False  # UP/DOWN move a page (less a line kept in view), not a line
    fitted = False  # the lines fit the screen as they are (TextPage: wrapped to it)

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
        step = max(1, rows - 1) if self.by_page else 1
        if key == buttons.UP:
            first -= step
        elif key == buttons.DOWN:
            first += step
        elif key == buttons.LEFT:
            first -= rows
        elif key == buttons.RIGHT:
            first += rows
        elif kind == "press" and key in (buttons.A, buttons.B):
            app.pop()
            if self.then is not None:
                self.then(app)
            return
        first = max(0, min(last, first))
        if first != self.first:
            self.first = first
            app.redraw()
        elif self.passes and kind == "press" and key in (buttons.UP, buttons.DOWN, buttons.LEFT,
                                                          buttons.RIGHT):
            app.pop()
            if self.then is not None:
                self.then(app)
            app.top().on_key(app, key, kind)

    def draw(self, app, canvas):
        """Title, the visible lines with scroll marks, hint."""
        ui = app.ui
        app.ui.clear(canvas)
        ui.title(canvas, self.title_text)
        lines = self.lines(app)
        rows = self._rows(app)
        ui.lines(canvas, lines[self.first:self.first + rows], None, self.fitted)
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


class TextPage(Pager):
    """A title and paragraphs wrapped to the screen (see Pager); `then(app)`
    runs after the page closed (when given)."""

    name = "text"
    hint_key = "scroll_hint"
    fitted = True  # `lines` wraps them narrower than the screen

    def __init__(self, title, paragraphs, then=None, name=None):
        Pager.__init__(self, title, (), name)
        self.paragraphs = paragraphs
        self.then = then
        self._wrapped = Kept()

    def lines(self, app):
        """The wrapped lines (made again only when the app's version moved on)."""
        out = self._wrapped.get(app)
        if out is None:
            out = []
            width = app.ui.w - app.ui.width("↓") - 2  # room for the scroll marks
            for para in self.paragraphs:
                out.extend(wrap(app, para, width))
            self.text_lines = self._wrapped.keep(app, out)
        return out

    def draw(self, app, canvas):
        """As a Pager; a host's text layer hears the whole paragraphs."""
        Pager.draw(self, app, canvas)
        rec = font.recorder
        if rec is not None:
            rec.text_page(self.paragraphs)
