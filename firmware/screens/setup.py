"""New game: rules preset, target, seats (people and computers), order."""

from engine.rules import PRESETS, preset
from firmware.screens.menu import Menu

TARGETS = (1000, 2000, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000)
LEVELS = ("vorsichtig", "mutig", "profi")  # the Master is not built yet
KINDS = ("",) + LEVELS
MAX_SEATS = 8


class Setup(Menu):
    """The new-game form. Rows: preset, target, seat count, one row per seat
    (LEFT/RIGHT: person or computer level; A: pick the person's name),
    seat order, start."""

    name = "setup"

    def __init__(self, app):
        Menu.__init__(self)
        self.preset = 0
        self.target = preset(PRESETS[0]).target
        names = app.session.names
        self.seats = [[names[0] if names else self._free_name(app, []), ""],
                      [app.t("computer"), "profi"]]
        self.seats[1][0] = self._computer_name(app, 1, "profi")

    # ------------------------------------------------------------ rows

    def _rows(self):
        return ["preset", "target", "count"] + ["seat"] * len(self.seats) + ["order", "start"]

    def title(self, app):
        """The screen title."""
        return app.t("new_game")

    def labels(self, app):
        """One text per row."""
        out = [
            app.t("rules_preset") + ": " + app.t("preset_" + PRESETS[self.preset]),
            app.t("target") + ": %d" % self.target,
            app.t("seats") + ": %d" % len(self.seats),
        ]
        for i, (name, _kind) in enumerate(self.seats):
            out.append("%d %s" % (i + 1, name))
        out.append(app.t("order") + "…")
        out.append(app.t("start_game"))
        return out

    def change(self, app, index, step):
        """LEFT/RIGHT cycle the value of a row."""
        row = self._rows()[index]
        if row == "preset":
            self.preset = (self.preset + step) % len(PRESETS)
            self.target = preset(PRESETS[self.preset]).target
        elif row == "target":
            i = TARGETS.index(self.target) if self.target in TARGETS else 7
            self.target = TARGETS[(i + step) % len(TARGETS)]
        elif row == "count":
            n = len(self.seats) + step
            if n < 1 or n > MAX_SEATS:
                return False
            if step > 0:
                self.seats.append([self._computer_name(app, n - 1, "profi"), "profi"])
            else:
                self.seats.pop()
        elif row == "seat":
            seat = self.seats[index - 3]
            kind = KINDS[(KINDS.index(seat[1]) + step) % len(KINDS)]
            seat[1] = kind
            taken = [s[0] for s in self.seats if s is not seat]
            seat[0] = self._free_name(app, taken) if not kind else self._computer_name(
                app, index - 3, kind)
        else:
            return False
        return True

    def choose(self, app, index):
        """A: pick a name, open the order screen, or start."""
        row = self._rows()[index]
        if row == "seat":
            i = index - 3
            if not self.seats[i][1]:
                from firmware.screens.names import NamePicker

                taken = [s[0] for j, s in enumerate(self.seats) if j != i]
                app.push(NamePicker(taken, lambda app, name: self._set_name(i, name)))
            else:
                self.change(app, index, 1)
        elif row == "order":
            app.push(Order(self.seats))
        elif row == "start":
            self._start(app)
        else:
            self.change(app, index, 1)

    def _set_name(self, i, name):
        self.seats[i][0] = name

    def _start(self, app):
        from engine.game import Game
        from firmware.screens.play import Play

        rules = preset(PRESETS[self.preset])
        if rules.target != self.target:
            rules = rules.replace(target=self.target, entry=min(rules.entry, self.target))
        for name, kind in self.seats:
            if not kind:
                app.session.remember_name(name)
        game = Game(rules, [(name, kind) for name, kind in self.seats], app.dice)
        app.session.save_game(game)
        app.home(Play(app, game))

    def _free_name(self, app, taken):
        for name in app.session.names:
            if name not in taken:
                return name
        n = 1
        while True:
            name = ("Spieler %d" if app.lang == "de" else "Player %d") % n
            if name not in taken:
                return name
            n += 1

    def _computer_name(self, app, i, kind):
        return "%s %d" % (app.t("level_" + kind)[:8], i + 1)

    def state(self):
        """The form's values."""
        return {"index": self.index, "preset": PRESETS[self.preset], "target": self.target,
                "seats": [list(s) for s in self.seats]}


class Order(Menu):
    """Seat order: A picks a seat up, UP/DOWN carry it, A puts it down."""

    name = "order"

    def __init__(self, seats):
        Menu.__init__(self)
        self.seats = seats
        self.held = False

    def title(self, app):
        """The screen title."""
        return app.t("order")

    def labels(self, app):
        """The seats in order; the carried one is marked."""
        out = []
        for i, (name, _kind) in enumerate(self.seats):
            mark = "» " if self.held and i == self.index else ""
            out.append("%s%d %s" % (mark, i + 1, name))
        return out

    def hint(self, app):
        """How to move a seat."""
        return app.t("move_hint")

    def on_key(self, app, key, kind):
        """Carry the held seat with UP/DOWN."""
        from firmware import buttons

        if self.held and key in (buttons.UP, buttons.DOWN):
            j = self.index + (-1 if key == buttons.UP else 1)
            if 0 <= j < len(self.seats):
                self.seats[self.index], self.seats[j] = self.seats[j], self.seats[self.index]
                self.index = j
                app.redraw()
            return
        Menu.on_key(self, app, key, kind)

    def choose(self, app, index):
        """A picks up or puts down the seat."""
        self.held = not self.held
