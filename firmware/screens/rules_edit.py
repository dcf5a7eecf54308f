"""The rules editor: every option of docs/rules.md, starting from any rule set.

Rows: one per option key (LEFT/RIGHT cycle its value, A opens a page that
explains it), then "Save as…", for a saved set "Delete", and last "Use
these". The options come in ROWS order, not the engine's: the ones tables
change most (target, entry, the penalty, taking over, an exact target,
small straights, triples across throws) first, so that a table's house
rules are a few presses from the top, and "Use these" one UP from it (the
list wraps). The target steps through the form's common targets
(engine.rules.TARGETS; a set's own other target stays in the cycle).
A change that clashes with linked options changes those too
(engine.rules.settle: 5 dice turn the straight and three pairs off, an
exact target sets the finish "exact", ...) and a page names what else
changed; stepping the same option straight back brings the linked values
back as they were. So the set being edited is always one the engine
accepts. Should the engine still refuse it (Rules raises RulesError
naming the option), that option's row is marked "!", the problem is
named under the list and explained when the set is used or saved.
B with unsaved changes asks: keep editing, discard or use them. Saved
sets (firmware.session, file "rulesets") appear in the new-game form's
rules row after the presets.
"""

from engine.rules import (
    ENTRIES,
    FINISH,
    HOT_DICE,
    KEYS,
    N_OF_KIND,
    PENALTIES,
    TARGETS,
    TIE,
    Rules,
    RulesError,
    settle,
)
from firmware import font
from firmware.screen import Kept, Menu

# The values LEFT/RIGHT step through (the target: `steps`).
VALUES = {
    "dice": (6, 5),
    "entry": ENTRIES,
    "n_of_kind": N_OF_KIND,
    "ones_triple": (1000, 300),
    "straight": (0, 500, 1000, 1500, 2000, 2500, 3000),
    "small_straights": ((0, 0), (500, 750), (500, 500), (1000, 1000), (2000, 2000)),
    "three_pairs": (0, 500, 750, 1000, 1500, 2000),
    "quad_pair": (0, 1000, 1500, 2000),
    "two_triplets": (0, 1500, 2500, 3000),
    "hot_dice": HOT_DICE,
    "auto_keep": (False, True),
    "triples_across": (False, True),
    "penalty": PENALTIES,
    "takeover": (False, True),
    "exact": (False, True),
    "finish": FINISH,
    "tie": TIE,
}
# The editor's rows of options: what tables change most first (see above).
ROWS = ("target", "entry", "penalty", "takeover", "exact", "small_straights", "triples_across",
        "n_of_kind", "straight", "three_pairs", "quad_pair", "two_triplets", "hot_dice",
        "auto_keep", "finish", "tie", "ones_triple", "dice")
POINT_KEYS = ("entry", "straight", "three_pairs", "quad_pair", "two_triplets", "penalty",
              "target")


def steps(key, value):
    """The values LEFT/RIGHT step option `key` through from `value`, in
    order (the target: the common targets, and `value` where it is another)."""
    if key == "target":
        if value in TARGETS:
            return TARGETS
        return tuple(sorted(TARGETS + (value,)))
    return VALUES[key]


def value_text(app, key, value):
    """An option's value as shown on the device."""
    if key == "small_straights":
        return app.t("val_off") if value == (0, 0) else "%d/%d" % value
    if value is True:
        return app.t("val_on")
    if value is False:
        return app.t("val_off")
    if isinstance(value, str):
        return app.t("val_" + value)
    if key in POINT_KEYS and key != "target" and value == 0 and key != "entry":
        return app.t("val_off")
    return "%d" % value


# The refusals the editor's values can run into (the combination checks):
# these have a short text for the hint line as well.
SHORT = ("six_dice", "five_flat", "entry", "exact")


def problem(opts):
    """(option key, RulesError) for options the engine refuses, or None."""
    try:
        Rules(**opts)
    except RulesError as e:
        return e.option, e
    return None


def problem_text(app, found, short=False):
    """The localised explanation of `problem()`'s answer (`short`: the
    form shown under the list). A rules text names the option first."""
    key, err = found
    end = "_short" if short and err.key in SHORT else ""
    label = app.t("opt_" + key) if key else ""
    return app.tf("rule_why_" + err.key + end, (label,) + err.values)


def explain(app, key, opts):
    """What option `key` does, in words (the rules help's sentences where
    they exist, with the values of `opts`)."""
    t = app.t
    value = opts[key]
    if key == "dice":
        return t("op_dice") % (value, opts["target"])
    if key == "entry":
        return t("op_entry") % value if value else t("op_no_entry")
    if key == "hot_dice":
        return t("op_hot_may") + "\n" + t("op_hot_must")
    if key == "penalty":
        return t("op_penalty") % (value or PENALTIES[-1])
    if key == "finish":
        return t("op_exact_finish" if value == "exact" else "op_" + value)
    if key == "tie":
        return t("op_" + value)
    if key in ("auto_keep", "triples_across", "takeover", "exact"):
        return t("op_" + key)
    return t("ex_" + key)


_MADE_MAX = 64  # row texts the editor keeps (it starts again beyond: a long edit)


class _Rows:
    """The rules editor's rows as a sequence whose texts are made when read
    (RulesEditor.texts)."""

    def __init__(self, editor, app):
        self.editor = editor
        self.app = app
        self.n = editor._count()

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        return self.editor.row_label(self.app, i)


class RulesEditor(Menu):
    """See the module docstring. `start` is the Rules to begin from, `done(app,
    rules, name)` receives the chosen set (name None when unsaved), `name` the
    saved set's name when editing one."""

    name = "rules_edit"

    def __init__(self, start, done, name=None):
        Menu.__init__(self)
        self.opts = start.to_dict()
        self.base = dict(self.opts)  # as started or last saved: B asks only after changes
        self.done = done
        self.set_name = name
        self.found = None
        self.back_to = None  # (key, value before, options before) of a change that moved others
        self._made = Kept()  # {(option, mark, value) or action key: row text} (see labels)

    def _rows(self):
        rows = list(ROWS) + ["save"]
        if self.set_name:
            rows.append("delete")
        return rows + ["use"]

    def title(self, app):
        """The set's name or "Edit rules"."""
        return self.set_name or app.t("rules_edit")

    def labels(self, app):
        """'Option: value' rows (a refused option marked '!'), then the actions."""
        return [self.row_label(app, i) for i in range(self._count())]

    def texts(self, app):
        """The rows for the list: made when the list asks for them (Ui.menu
        asks only for the rows it shows), kept until `relabel`. A host's
        recorder reads every row: it gets them all (Menu.texts)."""
        if font.recorder is not None:
            return Menu.texts(self, app)
        # One sequence while the rows stay (as Menu.texts keeps its list):
        # a cursor move then redraws only two rows (Menu.draw).
        kept = self._labels
        if kept is None:
            kept = self._labels = Kept()
        rows = kept.get(app)
        if rows is None:
            rows = kept.keep(app, _Rows(self, app))
        return rows

    def _count(self):
        return len(ROWS) + (3 if self.set_name else 2)

    def row_label(self, app, i):
        """The text of row `i`. Each is kept by its option, value and mark
        while the app's version stays (firmware.screen.Kept): a value change
        makes only its own row again. Making all of them took 25 ms of a
        value change on the chip (the texts are more than App.t keeps, so
        each was looked up again, then measured and fitted), and 50 ms of
        the editor's first frame."""
        made = self._made.get(app)
        if made is None or len(made) > _MADE_MAX:
            made = self._made.keep(app, {})
        if i >= len(ROWS):  # the actions
            key = "rules_use"
            if i == len(ROWS):
                key = "rules_save"
            elif i == len(ROWS) + 1 and self.set_name:
                key = "rules_delete"
            text = made.get(key)
            if text is None:
                text = made[key] = app.t(key)
            return text
        key = ROWS[i]
        mark = "!" if self.found and key == self.found[0] else ""
        value = self.opts[key]
        kept_as = (key, mark, tuple(value) if type(value) is list else value)
        text = made.get(kept_as)
        if text is None:
            text = made[kept_as] = self._row_text(app, key, value, mark)
        return text

    def _row_text(self, app, key, value, mark):
        """One option's row: its name fitted before its whole value."""
        ui = app.ui
        value = ": " + value_text(app, key, value)
        room = ui.w - 6 - ui.width(value)  # the value stays whole, the name gives way
        return ui.fit(mark + app.t("opt_" + key), room) + value

    def hint(self, app):
        """The keys of the row: an option changes with LEFT/RIGHT and A
        explains it; an action is chosen with A."""
        if self._rows()[self.index] in KEYS:
            return app.t("edit_hint" if app.big else "edit_hint_small")
        return app.t("nav_hint")

    def draw(self, app, canvas):
        """The list; with a refused combination the list gives two lines
        to its short explanation."""
        if not self.found:
            Menu.draw(self, app, canvas)
            return
        from firmware.screens.wrap import wrap

        ui = app.ui
        app.ui.clear(canvas)
        ui.title(canvas, self.title(app))
        lines = wrap(app, problem_text(app, self.found, True))[:2]
        y = ui.line + 2
        rows = max(1, (ui.h - y - ui.line) // ui.line - len(lines))
        labels = self.labels(app)
        self.index = min(self.index, len(labels) - 1)
        ui.menu(canvas, labels, self.index, y, rows)
        y += rows * ui.line
        canvas.hline(0, y - 1, ui.w, 1)
        for s in lines:
            ui.text(canvas, s, 0, y)
            y += ui.line
        ui.hints(canvas, self.hint(app))

    def problem_line(self, app):
        """The short explanation shown under the list ('' when none)."""
        return problem_text(app, self.found, True) if self.found else ""

    def change(self, app, index, step):
        """LEFT/RIGHT step an option's value."""
        rows = self._rows()
        if index >= len(ROWS):
            return False
        key = rows[index]
        value = self.opts[key]
        values = steps(key, value)
        if value in values:
            value = values[(values.index(value) + step) % len(values)]
        else:
            value = values[0]
        before = self.opts
        back = self.back_to
        self.back_to = None
        if back and back[0] == key and back[1] == value:
            # stepped straight back: the linked options return as they were
            self.opts = back[2]
            changes = [(k, back[2][k]) for k in KEYS if k != key and back[2][k] != before[k]]
        else:
            opts = dict(before)
            opts[key] = value
            self.opts, changes = settle(opts, key)
            if changes:
                self.back_to = (key, before[key], before)
        found = self.found
        if not changes:
            # The new value on the panel before the engine checks the set
            # (a Rules made: about 8 ms on the chip); settle() keeps it
            # valid, so a refusal, marked after, is rare.
            app.flush()
        self.found = problem(self.opts)
        if self.found != found:
            self.relabel()  # (the flush kept the rows without the mark)
        if changes:
            self._tell(app, changes)
        return True

    def _tell(self, app, changes):
        """A page naming the linked options that changed with the last one."""
        from firmware.screens.pager import Pager
        from firmware.screens.wrap import wrap

        lines = []
        for key, value in changes:
            lines += wrap(app, "%s: %s" % (app.t("opt_" + key), value_text(app, key, value)),
                          app.ui.w - app.ui.width("↓") - 2)
        page = Pager(app.t("rules_linked"), lines, "rules_linked")
        page.passes = True  # the next arrow goes on editing (issue 34: 12 presses were lost)
        app.push(page)

    def changed(self):
        """True when the options differ from the start or the last save."""
        return self.opts != self.base

    def back(self, app):
        """B: close; with unsaved changes ask first."""
        if self.changed():
            app.push(Unsaved(self))
        else:
            app.pop()

    def use(self, app):
        """Hand the set to `done` and close (explain it instead if refused)."""
        if self._refused(app):
            return
        app.busy()  # the new-game form reads the saved sets from the flash
        rules = Rules(**self.opts)
        app.pop()
        self.done(app, rules, self.set_name if self._unchanged(app, rules) else None)

    def choose(self, app, index):
        """A: step an option, or use / save / delete the set."""
        row = self._rows()[index]
        if row == "use":
            self.use(app)
        elif row == "save":
            if self._refused(app):
                return
            from firmware.screens.typer import Typer

            app.push(Typer([], self._save))
        elif row == "delete":
            app.session.delete_ruleset(self.set_name)
            self.set_name = None
        else:  # an option: a page explains it (LEFT/RIGHT change it)
            from firmware.screens.pager import Pager
            from firmware.screens.wrap import wrap

            label = app.t("opt_" + row)
            text = label + ": " + value_text(app, row, self.opts[row]) + "\n" + explain(
                app, row, self.opts)
            app.push(Pager(label, wrap(app, text), "rules_explain"))

    def _unchanged(self, app, rules):
        for name, enc in app.session.rulesets():
            if name == self.set_name:
                return enc == rules.encode()
        return False

    def _refused(self, app):
        """Explain a refused combination in a message; True when refused."""
        if not self.found:
            return False
        from firmware.screens.message import Message
        from firmware.screens.wrap import wrap

        app.push(Message(app.t("rules_bad"), wrap(app, problem_text(app, self.found))))
        return True

    def _save(self, app, name):
        from firmware.screens.message import Message

        failed = app.session.save_ruleset(name, Rules(**self.opts))
        if failed:
            app.push(Message(app.t("save_failed"), [app.t("save_failed_note")]))
            return
        self.set_name = name
        self.base = dict(self.opts)
        app.push(Message(app.t("rules_saved"), [name]))

    def state(self):
        """The options being edited and the problem, if any."""
        opts = {}
        for key in KEYS:
            v = self.opts[key]
            opts[key] = list(v) if isinstance(v, tuple) else v
        return {"index": self.index, "opts": opts, "name": self.set_name,
                "problem": self.found[0] if self.found else "", "changed": self.changed()}


class Unsaved(Menu):
    """B in the editor with unsaved changes: keep editing (also B), discard
    them, or use them; keep editing is highlighted, so a second stray press
    loses nothing."""

    name = "rules_unsaved"
    CHOICES = ("rules_keep", "rules_discard", "rules_use")

    def __init__(self, editor):
        Menu.__init__(self)
        self.editor = editor

    def title(self, app):
        """The question."""
        return app.t("rules_unsaved")

    def labels(self, app):
        """The three answers."""
        return [app.t(key) for key in self.CHOICES]

    def choose(self, app, index):
        """Carry out the answer."""
        app.pop()
        if index == 1:
            app.pop()  # the editor: the form keeps the rules it had
        elif index == 2:
            self.editor.use(app)
