"""The shared dialogs: a message box (`Message`: a few lines and 'A ok')
and a yes/no question (`Confirm`)."""

from firmware import buttons
from firmware.screen import Screen


class Message(Screen):
    """Shows `lines` under `title`; A or B closes it, then `then(app)` runs
    (when given)."""

    name = "message"
    hint = "ok_hint"  # the text key of the hint line

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
        app.ui.hints(canvas, app.t(self.hint))

    def state(self):
        """The message text."""
        return {"title": self.title_text, "lines": list(self.text_lines)}


class Confirm(Message):
    """A yes/no question: A runs `yes(app)` after this screen closes, B only
    closes it. `hint` is the text key of the hint line, for a question
    whose answers say what they do."""

    name = "confirm"

    def __init__(self, title, lines, yes, hint="confirm_hint"):
        Message.__init__(self, title, lines)
        self.yes = yes
        self.hint = hint

    def on_key(self, app, key, kind):
        """A yes, B no."""
        if kind != "press":
            return
        if key == buttons.A:
            app.pop()
            self.yes(app)
        elif key == buttons.B:
            app.pop()
