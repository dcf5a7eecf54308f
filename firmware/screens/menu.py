"""A generic list screen: UP/DOWN move, A chooses, B goes back."""

from firmware import buttons
from firmware.app import Screen


class Menu(Screen):
    """A titled list; `choose(app, index)` runs on A, `back(app)` on B.

    Subclasses set `name`, implement `title(app)`, `labels(app)` and
    `choose`; LEFT/RIGHT call `change(app, index, step)` (for entries that
    cycle through values, such as a target or a computer level)."""

    name = "menu"
    _texts = None  # the labels as last worked out (see `texts`)
    _texts_at = -1  # app.moves then

    def __init__(self):
        self.index = 0

    def texts(self, app):
        """`labels(app)`, worked out again only after a change: a cursor
        move keeps them (a screen such as the rules editor spends tens of
        ms on the chip making its rows); LEFT/RIGHT, A, B and any change of
        the screen stack (a screen above may have changed a value) do not."""
        if self._texts is None or self._texts_at != app.moves:
            self._texts = self.labels(app)
            self._texts_at = app.moves
        return self._texts

    def title(self, app):
        """The title line."""
        return ""

    def labels(self, app):
        """The entries, as text."""
        return []

    def choose(self, app, index):
        """A on entry `index`."""

    def change(self, app, index, step):
        """LEFT (-1) or RIGHT (+1) on entry `index`; True when it changed."""
        return False

    def back(self, app):
        """B: close this screen."""
        app.pop()

    def hint(self, app):
        """The hint line."""
        return app.t("nav_hint")

    def on_key(self, app, key, kind):
        """See the class docstring."""
        count = len(self.texts(app))
        if key == buttons.UP:
            self.index = (self.index - 1) % count
        elif key == buttons.DOWN:
            self.index = (self.index + 1) % count
        elif key in (buttons.LEFT, buttons.RIGHT):
            self._texts = None
            if not self.change(app, self.index, -1 if key == buttons.LEFT else 1):
                return
        elif key == buttons.A and kind == "press":
            self._texts = None
            self.choose(app, self.index)
        elif key == buttons.B and kind == "press":
            self._texts = None
            self.back(app)
        else:
            return
        app.redraw()

    def draw(self, app, canvas):
        """Title, list and hints."""
        ui = app.ui
        canvas.fill(0)
        ui.title(canvas, self.title(app))
        labels = self.texts(app)
        self.index = min(self.index, len(labels) - 1)
        ui.menu(canvas, labels, self.index)
        ui.hints(canvas, self.hint(app))

    def state(self):
        """The highlighted entry."""
        return {"index": self.index}


class SeatPick(Menu):
    """Pick a seat at the table (a game or the score pad: anything with
    `seats`, `current` and `active_seats()`); `done(app, seat)` runs after
    this screen closes."""

    name = "seat_pick"

    def __init__(self, table, title_key, done):
        Menu.__init__(self)
        self.table = table
        self.title_key = title_key
        self.done = done
        seats = table.active_seats()
        self.index = seats.index(table.current) if table.current in seats else 0

    def title(self, app):
        """What the seat is picked for."""
        return app.t(self.title_key)

    def labels(self, app):
        """The seats at the table, in seat order, with their totals."""
        t = self.table
        return ["%s %d" % (t.seats[i].name, t.seats[i].score) for i in t.active_seats()]

    def choose(self, app, index):
        """Close and hand the seat on."""
        seat = self.table.active_seats()[index]
        app.pop()
        self.done(app, seat)
