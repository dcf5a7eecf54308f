"""The bases of every screen: `Screen` and the list screen `Menu`, and
`Kept`, the one way a screen keeps texts it worked out.

They live here, not in firmware/screens/, because every screen module
imports them: `App.home()` releases the modules under firmware.screens. on
MicroPython, and this module stays loaded instead of being loaded again
with the next screen. It imports no screen and not the app, so no import
runs in a circle (firmware.app -> firmware.screens.title -> here).
"""

from firmware import buttons, font


class Kept:
    """A value a screen worked out (its labels, a wrapped page, a tip's
    words), kept while the app's `version` stays: the one rule for when
    such a value is stale is that the screen stack or the settings (the
    language) changed since (firmware.app.App.version). Its owner drops it
    when it changed what the value shows itself."""

    def __init__(self):
        self.value = None
        self.at = -1  # app.version when kept

    def get(self, app):
        """The kept value, or None when there is none or it is stale."""
        return self.value if self.at == app.version else None

    def keep(self, app, value):
        """Keep `value` for the app as it is now; returns it."""
        self.value = value
        self.at = app.version
        return value

    def drop(self):
        """Forget the value (its owner changed what it shows)."""
        self.value = None
        self.at = -1


class Screen:
    """Base class of the screens on the app's stack."""

    name = "screen"

    def on_key(self, app, key, kind):
        """Handle one button event: `key` a button bit, `kind` one of
        "press", "repeat" or "long"."""

    def tick(self, app, now_ms):
        """Called every step; return True when the screen needs a redraw."""
        return False

    def draw(self, app, canvas):
        """Draw the whole screen on `canvas`."""

    def state(self):
        """Extra facts for the simulator's state file (a dict)."""
        return {}


class Menu(Screen):
    """A titled list; `choose(app, index)` runs on A, `back(app)` on B.

    Subclasses set `name`, implement `title(app)`, `labels(app)` and
    `choose`; LEFT/RIGHT call `change(app, index, step)` (for entries that
    cycle through values, such as a target or a computer level)."""

    name = "menu"
    _labels = None  # the labels as last worked out, a Kept (see `texts`)
    # The frame `draw` left: app.draws then, the labels, first row shown,
    # title and highlighted entry (a cursor move redraws two rows of it).
    _drawn_at = -2
    _drawn_labels = None
    _drawn_first = 0
    _drawn_title = None
    _drawn_index = 0

    def __init__(self):
        self.index = 0

    def texts(self, app):
        """`labels(app)`, worked out again only after a change: a cursor
        move keeps them (a screen such as the rules editor spends tens of
        ms on the chip making its rows); LEFT/RIGHT, A, B (`relabel`) and
        a new `app.version` (a screen above may have changed a value) do
        not."""
        kept = self._labels
        if kept is None:
            kept = self._labels = Kept()
        labels = kept.get(app)
        if labels is None:
            labels = kept.keep(app, self.labels(app))
        return labels

    def relabel(self):
        """The values the rows show changed: work the labels out again."""
        if self._labels is not None:
            self._labels.drop()

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
            self.relabel()
            if not self.change(app, self.index, -1 if key == buttons.LEFT else 1):
                return
        elif key == buttons.A and kind == "press":
            self.relabel()
            self.choose(app, self.index)
        elif key == buttons.B and kind == "press":
            self.relabel()
            self.back(app)
        else:
            return
        app.redraw()

    def draw(self, app, canvas):
        """Title, list and hints. After a cursor move that scrolls nothing,
        on the frame this menu drew last (no other draw since, the same
        labels and title, no host recorder), only the two rows whose
        highlight moved and the hint line are drawn again: on the chip the
        whole list took about half of a move's draw (the panel gets only
        the changed pages anyway; firmware.display)."""
        ui = app.ui
        title = self.title(app)
        labels = self.texts(app)
        self.index = min(self.index, len(labels) - 1)
        index = self.index
        _y, rows, first = ui.scroll(index, None, None, len(labels))  # as `menu` asks
        was = self._drawn_index
        if (app.draws == self._drawn_at + 1 and labels is self._drawn_labels
                and first == self._drawn_first and title == self._drawn_title
                and font.recorder is None and app.top() is self):
            if was != index:
                ui.menu_row(canvas, labels, was, index, first, rows)
                ui.menu_row(canvas, labels, index, index, first, rows)
        else:
            ui.clear(canvas)
            ui.title(canvas, title)
            ui.menu(canvas, labels, index)
        ui.hints(canvas, self.hint(app))
        self._drawn_at = app.draws
        self._drawn_labels = labels
        self._drawn_first = first
        self._drawn_title = title
        self._drawn_index = index

    def state(self):
        """The highlighted entry."""
        return {"index": self.index}
