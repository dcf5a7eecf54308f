"""Names for people: pick a saved one or open the letter grid
(firmware.screens.typer, loaded only then) for a new one, and the name a
seat has until one is picked (`default_name`)."""

from firmware.screen import Menu


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
    """Saved names not yet at the table (the last used first), then 'New
    name…'; with `default` (a person joining mid-game: "Spieler 3") that
    name first. `done(app, name)` receives the choice."""

    name = "names"

    def __init__(self, taken, done, default=None):
        Menu.__init__(self)
        self.taken = taken
        self.done = done
        self.default = default

    def _names(self, app):
        out = [self.default] if self.default else []
        return out + [n for n in app.session.names if n not in self.taken and n not in out]

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
            from firmware.screens.typer import Typer

            app.replace(Typer(self.taken, self.done, app.session.names))
