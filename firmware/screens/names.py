"""Names for people: pick a saved one or type a new one, and the name a
seat has until one is picked (`default_name`)."""

from engine.game import MAX_NAME
from firmware import buttons
from firmware.screen import Menu, Screen

ALPHABET = ("ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"
            "abcdefghijklmnopqrstuvwxyzäöüß"
            "0123456789 -.")


def default_name(app, number, taken):
    """A person's name for seat `number` until one is picked: "Spieler 2"
    at seat 2 (the next free number when that name is taken), never a
    saved name the player did not choose."""
    while True:
        name = app.t("player_n") % number
        if name not in taken:
            return name
        number += 1


class NamePicker(Menu):
    """Saved names not yet at the table, then 'New name…'. `done(app,
    name)` receives the choice."""

    name = "names"

    def __init__(self, taken, done):
        Menu.__init__(self)
        self.taken = taken
        self.done = done

    def _names(self, app):
        return [n for n in app.session.names if n not in self.taken]

    def title(self, app):
        """The screen title."""
        return app.t("pick_name")

    def labels(self, app):
        """Saved names, then 'New name…'."""
        return self._names(app) + [app.t("new_name")]

    def choose(self, app, index):
        """Take a saved name or open the character picker."""
        names = self._names(app)
        if index < len(names):
            app.pop()
            self.done(app, names[index])
        else:
            app.replace(Typer(self.taken, self.done))


class Typer(Screen):
    """The on-screen character picker: UP/DOWN change the letter under the
    cursor, RIGHT moves on (adding a letter), LEFT moves back, A takes the
    name, B deletes the last letter (or leaves when the name is empty)."""

    name = "typer"

    def __init__(self, taken, done):
        self.taken = taken
        self.done = done
        self.chars = [0]  # indices into ALPHABET
        self.pos = 0
        self.error = ""

    def text(self):
        """The name typed so far (without trailing spaces)."""
        return "".join(ALPHABET[i] for i in self.chars).rstrip()

    def on_key(self, app, key, kind):
        """See the class docstring."""
        self.error = ""
        if key == buttons.UP:
            self.chars[self.pos] = (self.chars[self.pos] - 1) % len(ALPHABET)
        elif key == buttons.DOWN:
            self.chars[self.pos] = (self.chars[self.pos] + 1) % len(ALPHABET)
        elif key == buttons.RIGHT:
            if self.pos + 1 < MAX_NAME:
                self.pos += 1
                if self.pos == len(self.chars):
                    # a new place starts at the previous letter's case group
                    self.chars.append(ALPHABET.index("a") if self.chars[-1] < 29 else
                                      self.chars[-1])
        elif key == buttons.LEFT:
            self.pos = max(0, self.pos - 1)
        elif key == buttons.A and kind == "press":
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
            if len(self.chars) > 1:
                self.chars.pop()
                self.pos = min(self.pos, len(self.chars) - 1)
            else:
                app.pop()
                return
        app.redraw()

    def draw(self, app, canvas):
        """The name with the cursor under the current letter."""
        ui = app.ui
        app.ui.clear(canvas)
        ui.title(canvas, app.t("type_name"))
        y = ui.line * 2
        x = 2
        for i, ch in enumerate(self.chars):
            ui.text(canvas, ALPHABET[ch], x, y)
            w = max(ui.width(ALPHABET[ch]), ui.width("n"))
            if i == self.pos:
                canvas.hline(x, y + ui.font.height + 1, w, 1)
            x += w + 1
        if self.error:
            ui.text(canvas, self.error, 0, y + ui.line * 2)
        ui.hints(canvas, app.t("name_hint"))

    def state(self):
        """The name typed so far."""
        return {"text": self.text(), "pos": self.pos}
