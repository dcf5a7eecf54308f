"""The title screen: continue the saved game, start a new one, online
(a host with a network only), the score pad (and "Tafel weiter" while
one is saved), statistics, settings (the language is there)."""

from firmware.files import GAME, KIND_GAME, KIND_PAD, PAD
from firmware.screen import Kept, Menu


class Title(Menu):
    """The root of the screen stack."""

    name = "title"

    def __init__(self):
        Menu.__init__(self)
        self._keys = Kept()  # the entry keys

    def _entries(self, app):
        """The entry keys; worked out again only when the app's version has
        moved on since (asking the flash costs about 1 ms a file on the
        chip)."""
        keys = self._keys.get(app)
        if keys is None:
            keys = self._keys.keep(app, self._find_entries(app))
        return keys

    def _find_entries(self, app):
        entries = []
        # the page on the room server: a running room of this browser's first
        # (one press back into it, from wherever the player came to the title)
        if app.online is not None and getattr(app.online, "back_room", None):
            entries.append("back_room")
        store = app.session.store
        files = store.fs.names()  # one directory read, not six stats
        if store.has(GAME, KIND_GAME, files):
            entries.append("continue")
        entries.append("new_game")
        # a host with a network (the page on the room server), and the network is up
        if app.online is not None and getattr(app.online, "up", True):
            entries.append("online")
        if store.has(PAD, KIND_PAD, files):
            entries.append("pad_continue")
        entries.append("pad_title")
        entries.append("stats_title")
        entries.append("help")  # rules & help (firmware/screens/help.py)
        entries.append("settings_title")  # the language is there
        return entries

    def title(self, app):
        """The game's name."""
        return app.t("app")

    def labels(self, app):
        """Continue (when a game is saved), New game, the score pad, ..."""
        return [app.online.back_label(app) if key == "back_room" else app.t(key)
                for key in self._entries(app)]

    def back(self, app):
        """B on the title screen does nothing."""

    def hint(self, app):
        """Only A: there is nothing to go back to."""
        return app.t("title_hint")

    def choose(self, app, index):
        """Open the chosen entry (its screen's module loads first: tens of
        ms on the chip, so a "working" mark answers the press at once)."""
        key = self._entries(app)[index]
        app.busy()
        if key == "back_room":
            app.online.go_back(app)
        elif key == "continue":
            app.flow.resume_game(app)
        elif key == "new_game":
            from firmware.screens.setup import Setup

            app.push(Setup(app))
        elif key == "online":
            app.online(app)
        elif key == "pad_continue":
            app.flow.resume_pad(app)
        elif key == "pad_title":
            app.flow.new_pad(app)
        elif key == "stats_title":
            from firmware.screens.stats_menu import StatsMenu

            app.push(StatsMenu(app))
        elif key == "help":
            from firmware.screens.help import HelpMenu

            app.push(HelpMenu())
        elif key == "settings_title":
            from firmware.screens.settings import Settings

            app.push(Settings())
