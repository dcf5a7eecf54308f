"""A message box: a few lines and 'A ok'; A or B closes it."""

from firmware import buttons
from firmware.screen import Screen


class Message(Screen):
    """Shows `lines` under `title`; `then(app)` runs when it is closed."""

    name = "message"

    def __init__(self, title, lines, then=None):
        self.title_text = title
        self.text_lines = lines
        self.then = then

    def on_key(self, app, key, kind):
        """A or B closes the message."""
        if kind == "press" and key in (buttons.A, buttons.B):
            app.pop()
            if self.then is not None:
                self.then(app)

    def draw(self, app, canvas):
        """Title, lines, hint."""
        app.ui.clear(canvas)
        app.ui.title(canvas, self.title_text)
        app.ui.lines(canvas, self.text_lines)
        app.ui.hints(canvas, app.t("ok_hint"))

    def state(self):
        """The message text."""
        return {"title": self.title_text, "lines": list(self.text_lines)}
