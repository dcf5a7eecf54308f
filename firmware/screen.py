"""The bases of every screen: `Screen` and the list screen `Menu`.

They live here, not in firmware/screens/, because every screen module
imports them: `App.home()` releases the modules under firmware.screens. on
MicroPython, and this module stays loaded instead of being loaded again
with the next screen. It imports no screen and not the app, so no import
runs in a circle (firmware.app -> firmware.screens.title -> here).
"""

from firmware import buttons


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
        app.ui.clear(canvas)
        ui.title(canvas, self.title(app))
        labels = self.texts(app)
        self.index = min(self.index, len(labels) - 1)
        ui.menu(canvas, labels, self.index)
        ui.hints(canvas, self.hint(app))

    def state(self):
        """The highlighted entry."""
        return {"index": self.index}
