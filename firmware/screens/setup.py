"""New game: rules preset, target, seats (people and computers), order."""

from engine.bots import LEVELS
from engine.rules import PRESETS, preset
from firmware.players import computer_name
from firmware.screens.menu import Menu

TARGETS = (1000, 2000, 3000, 4000, 5000, 6000, 8000, 10000, 12000, 15000, 20000)
KINDS = ("",) + LEVELS
MAX_SEATS = 8


class Setup(Menu):
    """The new-game form. Rows: preset, target, seat count, one row per seat
    (LEFT/RIGHT: person or computer level; A: pick the person's name),
    seat order, tips, start.

    The rules row steps through the presets, then the saved custom sets
    (firmware.session), then an unsaved edit; A on it opens the rules
    editor (firmware.screens.rules_edit) on the chosen set. The tips row
    (firmware.tips) names the people with tips on; A opens their list,
    LEFT/RIGHT switch tips for all people (default: the "tips" setting)."""

    name = "setup"

    def __init__(self, app):
        Menu.__init__(self)
        self.preset = 0
        self.target = preset(PRESETS[0]).target
        names = app.session.names
        self.seats = [[names[0] if names else self._free_name(app, []), ""],
                      [app.t("computer"), "profi"]]
        self.seats[1][0] = computer_name(app, "profi", 2)
        self.sets = app.session.rulesets()  # [name, encoding] pairs
        self.custom = None  # an unsaved edit from the rules editor
        self.tips = [self.seats[0][0]] if app.session.settings.get("tips", False) else []

    # ------------------------------------------------------------ rows

    def _rows(self):
        return ["preset", "target", "count"] + ["seat"] * len(self.seats) + [
            "order", "tips", "start"]

    def _choices(self, app):
        """(label, rules) of every rules choice: presets, saved sets, an edit."""
        from engine.rules import Rules

        out = [(app.t("preset_" + k), k) for k in PRESETS]
        out += [(name, Rules.decode(enc)) for name, enc in self.sets]
        if self.custom is not None:
            out.append((app.t("rules_custom"), self.custom))
        return out

    def _rules(self, app):
        found = self._choices(app)[min(self.preset, len(self._choices(app)) - 1)][1]
        return preset(found) if isinstance(found, str) else found

    def _edited(self, app, rules, name):
        """From the rules editor: choose the saved set `name` or the edit."""
        self.sets = app.session.rulesets()
        self.custom = None
        names = [n for n, _ in self.sets]
        if name in names:
            self.preset = len(PRESETS) + names.index(name)
        elif rules.preset_key() is not None:
            self.preset = PRESETS.index(rules.preset_key())
        else:
            self.custom = rules
            self.preset = len(PRESETS) + len(self.sets)
        self.target = rules.target

    def _tips_label(self, app):
        people = [name for name, kind in self.seats if not kind and name in self.tips]
        if not people:
            return app.t("tips") + ": " + app.t("tips_none")
        if len(people) == 1:
            return app.t("tips") + ": " + people[0]
        return app.t("tips") + ": %d" % len(people)

    def title(self, app):
        """The screen title."""
        return app.t("new_game")

    def labels(self, app):
        """One text per row."""
        out = [
            app.t("rules_preset") + ": " + self._choices(app)[self.preset][0],
            app.t("target") + ": %d" % self.target,
            app.t("seats") + ": %d" % len(self.seats),
        ]
        for i, (name, _kind) in enumerate(self.seats):
            out.append("%d %s" % (i + 1, name))
        out.append(app.t("order") + "…")
        out.append(self._tips_label(app))
        out.append(app.t("start_game"))
        return out

    def change(self, app, index, step):
        """LEFT/RIGHT cycle the value of a row."""
        row = self._rows()[index]
        if row == "preset":
            self.preset = (self.preset + step) % len(self._choices(app))
            self.target = self._rules(app).target
        elif row == "tips":
            people = [name for name, kind in self.seats if not kind]
            self.tips = [] if [n for n in people if n in self.tips] else people
        elif row == "target":
            i = TARGETS.index(self.target) if self.target in TARGETS else 7
            self.target = TARGETS[(i + step) % len(TARGETS)]
        elif row == "count":
            n = len(self.seats) + step
            if n < 1 or n > MAX_SEATS:
                return False
            if step > 0:
                self.seats.append([computer_name(app, "profi", n), "profi"])
            else:
                self.seats.pop()
        elif row == "seat":
            seat = self.seats[index - 3]
            kind = KINDS[(KINDS.index(seat[1]) + step) % len(KINDS)]
            seat[1] = kind
            taken = [s[0] for s in self.seats if s is not seat]
            seat[0] = self._free_name(app, taken) if not kind else computer_name(
                app, kind, index - 2)
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
        elif row == "preset":
            app.busy()  # the editor's module loads (about 0.1 s on the chip)
            from firmware.screens.rules_edit import RulesEditor

            sets = self.sets
            i = self.preset - len(PRESETS)
            name = sets[i][0] if 0 <= i < len(sets) else None
            app.push(RulesEditor(self._rules(app), self._edited, name))
        elif row == "tips":
            from firmware.tips import TipsPick

            app.push(TipsPick(self.seats, self.tips))
        elif row == "start":
            self._start(app)
        else:
            self.change(app, index, 1)

    def _set_name(self, i, name):
        self.seats[i][0] = name

    def _start(self, app):
        app.busy()  # the play screen's modules load and the game is saved
        from engine.game import Game
        from firmware.screens.play import Play
        from firmware.tips import start_game

        rules = self._rules(app)
        if rules.target != self.target:
            rules = rules.replace(target=self.target, entry=min(rules.entry, self.target))
        for name, kind in self.seats:
            if not kind:
                app.session.remember_name(name)
        game = Game(rules, [(name, kind) for name, kind in self.seats], app.dice)
        start_game(app.session, game, [not kind and name in self.tips
                                       for name, kind in self.seats])  # before the game
        app.session.save_game(game)
        app.home(Play(app, game))

    def _free_name(self, app, taken):
        for name in app.session.names:
            if name not in taken:
                return name
        n = 1
        while True:
            name = app.t("default_name") % n
            if name not in taken:
                return name
            n += 1

    def state(self):
        """The form's values."""
        return {"index": self.index, "target": self.target,
                "preset": PRESETS[self.preset] if self.preset < len(PRESETS) else "custom",
                "seats": [list(s) for s in self.seats], "tips": list(self.tips)}


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
