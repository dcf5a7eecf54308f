"""The title screen: continue the saved game, start a new one, language."""

from firmware.screens.menu import Menu
from firmware.store import NoSave, SaveDamaged


class Title(Menu):
    """The root of the screen stack."""

    name = "title"

    def _entries(self, app):
        entries = []
        if app.session.has_game():
            entries.append("continue")
        entries.append("new_game")
        entries.append("language")
        return entries

    def title(self, app):
        """The game's name."""
        return app.t("app")

    def labels(self, app):
        """Continue (when a game is saved), New game, Language."""
        return [app.t(key) for key in self._entries(app)]

    def back(self, app):
        """B on the title screen does nothing."""

    def choose(self, app, index):
        """Open the chosen entry."""
        key = self._entries(app)[index]
        if key == "continue":
            resume(app)
        elif key == "new_game":
            from firmware.screens.setup import Setup

            app.push(Setup(app))
        elif key == "language":
            app.lang = "en" if app.lang == "de" else "de"
            app.session.settings["lang"] = app.lang
            app.session.save_settings()


def resume(app):
    """Load the saved game and show it; a damaged save is reported and the
    last good copy used (the store falls back by itself)."""
    from firmware.screens.message import Message
    from firmware.screens.play import Play

    try:
        game, note = app.session.load_game(app.dice)
    except NoSave:
        app.push(Message(app.t("no_save"), []))
        return
    except SaveDamaged as e:
        app.push(Message(app.t("save_damaged"), [str(e)]))
        return
    play = Play(app, game)
    app.push(play)
    if note:
        app.push(Message(app.t("older_copy"), [note]))
