"""New game: rules preset, target, seats (people and computers), order."""

from engine.game import MAX_SEATS
from engine.levels import LEVELS, PLAN, needs
from engine.rules import PRESETS, TARGETS, TOP_GUESS, preset
from firmware.players import SOLVE_PACE, computer_name, plan_known
from firmware.screen import Menu
from firmware.screens.names import default_name

KINDS = ("",) + LEVELS
REMEMBER_MS = 1500  # the form's choices, unchanged this long, are kept (a power-off keeps them)


def solve_seconds(rules, pace):
    """About how many seconds the Expert's plan for `rules` takes to solve
    at `pace` ms per 100 steps (0: SOLVE_PACE): the steps of
    engine.turnplan.PlanSolver, the roll tables (8 rolls a step), the turn
    totals and the reach rows up to the target, counted without solving."""
    steps = 1
    count = 1  # rolls of n dice told apart by their faces: C(n + 5, 5)
    for n in range(1, rules.dice + 1):
        count = count * (n + 5) // n
        steps += (count + 7) // 8
    steps += TOP_GUESS.get(rules.dice, TOP_GUESS[6]) + 1 + min(rules.target, 20000) // 50 + 20
    return (steps * (pace or SOLVE_PACE) + 99999) // 100000


class Setup(Menu):
    """The new-game form. Rows: preset, target, seat count (RIGHT adds a
    computer, A a person, LEFT drops the last seat), one row per seat
    (LEFT/RIGHT: person or computer level; A: pick the person's name, or
    make a computer's seat a person's),
    seat order, tips, start.

    The rules row steps through the presets, then the saved custom sets
    (firmware.session), then an unsaved edit; A on it opens the rules
    editor (firmware.screens.rules_edit) on the chosen set. The tips row
    (firmware.tips) names the people with tips on; A opens their list,
    LEFT/RIGHT switch tips for all people (default: the "tips" setting)."""

    name = "setup"

    def __init__(self, app):
        Menu.__init__(self)
        self.sets = app.session.rulesets()  # [name, encoding] pairs
        self.custom = None  # an unsaved edit from the rules editor
        self._solve = None  # (plan rules' encoding, seconds, rules choice) of `_solve_seconds`
        from firmware.clock import Due

        self.remember_due = Due()  # the choices' save, once they have rested (see `tick`)
        last = app.session.load_seating()
        if last is None:  # the first game, or the table file was damaged
            self.preset = 0
            self.target = preset(PRESETS[0]).target
            self.seats = [[default_name(app, 1, []), ""],
                          [computer_name(app, "profi", 2), "profi"]]
            self.tips = [self.seats[0][0]] if app.session.settings["tips"] else []
            return
        choice, rules, self.seats, self.tips = last
        self._select(rules, choice, choice)
        self.index = len(self._rows()) - 1  # on "start": the same table again is one press

    # ------------------------------------------------------------ rows

    def _rows(self):
        return ["preset", "target", "count"] + ["seat"] * len(self.seats) + [
            "order", "tips", "start"]

    def _choice_count(self):
        """How many rules choices there are: presets, saved sets, an edit."""
        return len(PRESETS) + len(self.sets) + (0 if self.custom is None else 1)

    def _choice(self):
        """The number of the chosen rules (kept in range when a saved set is
        gone)."""
        return min(self.preset, self._choice_count() - 1)

    def _chosen(self):
        """The chosen rules row: (preset key, None) for a preset, (None,
        [name, encoding]) for a saved set, (None, None) for the edit."""
        i = self._choice()
        if i < len(PRESETS):
            return PRESETS[i], None
        i -= len(PRESETS)
        return None, (self.sets[i] if i < len(self.sets) else None)

    def _select(self, rules, name=None, key=None):
        """Choose the row of `rules`: the preset `key`, else the saved set
        `name`, else the preset the rules are (as the rules editor's "use"
        does), else the rules as an unsaved edit (also a saved set deleted
        since)."""
        names = [n for n, _ in self.sets]
        self.custom = None
        if key in PRESETS:
            self.preset = PRESETS.index(key)
        elif name and name in names:
            self.preset = len(PRESETS) + names.index(name)
        elif rules.preset_key() is not None:
            self.preset = PRESETS.index(rules.preset_key())
        else:
            self.custom = rules
            self.preset = len(PRESETS) + len(self.sets)
        self.target = rules.target

    def _choice_label(self, app):
        """The chosen rules' name: a preset's, a saved set's, or "custom".
        (Only this one: the form redraws at every value change, and each
        text costs a lookup on the chip.)"""
        key, saved = self._chosen()
        if key is not None:
            return app.t("preset_" + key)
        return saved[0] if saved is not None else app.t("rules_custom")

    def _rules(self, app):
        """The chosen rules."""
        key, saved = self._chosen()
        if key is not None:
            return preset(key)
        if saved is not None:
            from engine.rules import Rules

            return Rules.decode(saved[1])
        # _choice reaches past the saved sets only when there is an edit;
        # the first preset stands in should that ever change.
        return self.custom if self.custom is not None else preset(PRESETS[0])

    def _edited(self, app, rules, name):
        """From the rules editor: choose the saved set `name` or the edit,
        kept at once (an edit is work a power-off must not lose)."""
        self.sets = app.session.rulesets()
        self._select(rules, name)
        self.remember_due.clear()
        app.session.save_seating(*self._table(app))

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
            app.t("rules_preset") + ": " + self._choice_label(app),
            app.t("target") + ": %d" % self.target,
            app.t("seats") + ": %d" % len(self.seats),
        ]
        for i, (name, _kind) in enumerate(self.seats):
            out.append("%d %s" % (i + 1, name))
        out.append(app.t("order") + "…")
        out.append(self._tips_label(app))
        solve = self._solve_seconds(app)
        out.append(app.t("start_solve") % solve if solve else app.t("start_game"))
        return out

    def _solve_seconds(self, app):
        """Seconds the first computer's move will work out the Expert's
        plan (firmware.screens.solving) at this device's measured pace,
        or 0: no computer needs one, or it is shipped or cached. It looks
        at the flash only when the rules the plan depends on change
        (Rules.plan_rules: a new target or tie rule reads nothing)."""
        kinds = [kind for _, kind in self.seats if kind and needs(kind, PLAN)]
        if not kinds:
            return 0
        # The same rules choice has the same plan rules: making them (two
        # Rules and an encoding) took most of a value change's 13 ms draw
        # on the chip, and a seat or target change keeps the choice.
        key, saved = self._chosen()
        chosen = (key, None if saved is None else tuple(saved), self.custom)
        solve = self._solve
        if solve is not None and solve[2] == chosen:
            return solve[1]
        rules = self._rules(app)
        key = rules.plan_rules().encode()  # a plan does not depend on the target:
        if solve is None or solve[0] != key:  # changing it reads no flash
            if rules.target != self.target:
                rules = rules.replace(target=self.target, entry=min(rules.entry, self.target))
            known = plan_known(rules, (app.tables, app.session.store.fs))
            seconds = 0 if known else solve_seconds(rules, app.session.settings["solve"])
        else:
            seconds = solve[1]
        self._solve = (key, seconds, chosen)
        return seconds

    def change(self, app, index, step):
        """LEFT/RIGHT cycle the value of a row; the choices are kept once
        they rest."""
        changed = self._change(app, index, step)
        if changed:
            self.remember_due.set(app.now, REMEMBER_MS)
        return changed

    def tick(self, app, now):
        """Keep the form's choices as the next form's start once they have
        rested REMEMBER_MS (one write for a burst of presses): a power-off
        with the form open keeps the chosen rules and seats (issue 51)."""
        if self.remember_due.reached(now):
            self.remember_due.clear()
            app.session.save_seating(*self._table(app))
        return False

    def _change(self, app, index, step):
        row = self._rows()[index]
        if row == "preset":
            self.preset = (self.preset + step) % self._choice_count()
            self.target = self._rules(app).target
        elif row == "tips":
            people = [name for name, kind in self.seats if not kind]
            self.tips = [] if [n for n in people if n in self.tips] else people
        elif row == "target":
            # (a target of no step, from a saved set: stepping goes on from 10000)
            i = TARGETS.index(self.target if self.target in TARGETS else 10000)
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
            seat[0] = default_name(app, index - 2, taken) if not kind else computer_name(
                app, kind, index - 2)
        else:
            return False
        return True

    def choose(self, app, index):
        """A: pick a name, open the order screen, or start."""
        row = self._rows()[index]
        if row in ("seat", "count"):  # the seats change: kept once they rest
            self.remember_due.set(app.now, REMEMBER_MS)
        if row == "seat":
            i = index - 3
            if not self.seats[i][1]:
                from firmware.screens.names import NamePicker

                taken = [s[0] for j, s in enumerate(self.seats) if j != i]
                app.push(NamePicker(taken, lambda app, name: self._set_name(i, name)))
            else:  # a computer's seat: A makes it a person's
                seat = self.seats[i]
                seat[1] = ""
                seat[0] = default_name(app, i + 1, [s[0] for s in self.seats if s is not seat])
        elif row == "count":  # A adds a person (RIGHT a computer): as easy
            n = len(self.seats) + 1
            if n <= MAX_SEATS:
                self.seats.append([default_name(app, n, [s[0] for s in self.seats]), ""])
                if app.session.settings["tips"]:
                    self.tips.append(self.seats[-1][0])
        elif row == "order":
            app.push(Order(self.seats))
        elif row == "preset":
            app.busy()  # the editor's module loads (about 0.1 s on the chip)
            from firmware.screens.rules_edit import RulesEditor

            saved = self._chosen()[1]
            app.push(RulesEditor(self._rules(app), self._edited,
                                 saved[0] if saved is not None else None))
        elif row == "tips":
            from firmware.screens.tips_pick import TipsPick

            app.push(TipsPick(self.seats, self.tips))
        elif row == "start":
            self._start(app)
        # The target row: A does nothing, as its hint says ("←→ Ziel
        # ändern"; a press meant as "ok" made 10000 12000).

    def _set_name(self, i, name):
        self.seats[i][0] = name

    def hint(self, app):
        """What the keys do on the selected row: LEFT/RIGHT change the
        rules, the target, the seat count, a seat's kind; A edits the
        rules, adds a seat, names a person."""
        row = self._rows()[self.index]
        if row == "seat":
            row = "bot" if self.seats[self.index - 3][1] else "person"
        if row == "order":
            return app.t("nav_hint")
        key = "form_hint_" + row
        if not app.big and row in ("preset", "count", "person"):
            key += "_small"
        return app.t(key)

    def _table(self, app):
        """The form's table as Session.save_seating takes it: (rules row's
        name, rules with the target, seats, people with tips)."""
        rules = self._rules(app)
        if rules.target != self.target:
            rules = rules.replace(target=self.target, entry=min(rules.entry, self.target))
        key, saved = self._chosen()
        choice = key if key is not None else (saved[0] if saved is not None else "")
        seats = [list(s) for s in self.seats]
        tips = [name for name, kind in seats if not kind and name in self.tips]
        return choice, rules, seats, tips

    def _start(self, app):
        """Start the game; a running game is replaced only after a yes."""
        self.remember_due.clear()  # the start keeps the table itself
        choice, rules, seats, tips = self._table(app)
        flow = app.flow
        if app.session.has_game():
            flow.ask_replace(app, lambda app: flow.start_game(app, choice, rules, seats, tips))
        else:
            flow.start_game(app, choice, rules, seats, tips)

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
        """How to move a seat: pick it up, then carry it."""
        if not self.held:
            return app.t("order_hint")
        return app.t("order_held_hint" if app.big else "order_held_hint_small")

    def on_key(self, app, key, kind):
        """Carry the held seat with UP/DOWN."""
        from firmware import buttons

        if self.held and key in (buttons.UP, buttons.DOWN):
            j = self.index + (-1 if key == buttons.UP else 1)
            if 0 <= j < len(self.seats):
                self.seats[self.index], self.seats[j] = self.seats[j], self.seats[self.index]
                self.index = j
                self.relabel()  # the rows show the new order (a cursor move keeps them)
                app.redraw()
            return
        Menu.on_key(self, app, key, kind)

    def choose(self, app, index):
        """A picks up or puts down the seat."""
        self.held = not self.held
