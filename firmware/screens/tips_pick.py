"""The new-game form's list of the people with tips (firmware/tips.py)."""

from firmware.screen import Menu


class TipsPick(Menu):
    """The people at the table; A switches a person's tips on or off, B
    goes back."""

    name = "tips_pick"

    def __init__(self, seats, tips):
        Menu.__init__(self)
        self.seats = seats
        self.tips = tips  # the form's list of names, changed in place

    def _people(self):
        return [name for name, kind in self.seats if not kind]

    def title(self, app):
        """'Tips for'."""
        return app.t("tips_for")

    def labels(self, app):
        """'Name: on/off' per person."""
        return ["%s: %s" % (n, app.t("tips_on" if n in self.tips else "tips_off"))
                for n in self._people()] or [app.t("tips_none")]

    def choose(self, app, index):
        """A switches the person's tips."""
        people = self._people()
        if index < len(people):
            name = people[index]
            if name in self.tips:
                self.tips.remove(name)
            else:
                self.tips.append(name)

    def hint(self, app):
        """A on/off, B back."""
        return app.t("tips_hint")
