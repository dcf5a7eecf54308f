"""The score pad ("Tafel", seed 002): points of games with real dice.

The logic is engine.scorepad.ScorePad; these screens only enter its actions
and show it. The pad is saved after every entry in its own file (`pad`,
codec kind 'P' through firmware.store), so it resumes like a game: the
title offers "Tafel weiter" while one is saved.

Screens:
- `PadSetup`: target (10000 or 5000), the entry hurdle (0, 300, 350, 500,
  1000), the penalty for three Nichts in a row (off, 500, 1000), seats and
  names, start. The pad saves its hurdle and penalty with the entries; the
  next new pad starts from them (setting "pad"), as tables keep their
  habits from one evening to the next.
- `PadScreen`: the current seat's turn. UP/DOWN change the points by 50
  (held: auto-repeat, the steps grow to 100 and then 500 the longer it is
  held), LEFT/RIGHT by 500 (x10). A enters them; A at 0 enters "Nichts".
  Right after an entry DOWN takes it back ("Rückgängig", named on the hint
  line) until another key is pressed. While the points are below the entry
  hurdle of a seat that is not in, the status line says so before A. B
  opens the menu.
- `PadMenu`: undo ("Rückgängig", naming the entry it takes back), Nichts,
  the overview, digit entry, +/- (a correction or a penalty by hand) for a
  seat, join, leave, main menu; B goes back to the pad.
- `PadOverview`: the standings next to the base scoring table (from the
  menu); A opens the menu, B goes back to the pad.
- `PadDigits`: the points digit by digit (UP/DOWN the digit, LEFT/RIGHT move);
  values that are not a multiple of 50 are possible here and refused with
  both neighbours named ("120: 100 oder 150?").
- `PadAdjust`: a signed change for one seat.
- `PadWinner`: the winner and the standings; B takes the last entry back,
  A closes the evening (the save is deleted, then the statistics count it).
"""

from engine.game import MAX_SEATS
from engine.rules import ENTRIES, PENALTIES
from engine.scorepad import BASE_TABLE, STEP, PadError, ScorePad
from firmware import buttons
from firmware.screen import Menu, Screen
from firmware.screens.lines import marked_lines, need_of, standing_marks
from firmware.screens.seat_pick import SeatPick

TARGETS = (10000, 5000)
# A new pad offers the entry hurdles and the penalties for three Nichts in
# a row of engine.rules (ENTRIES, PENALTIES); the first pad starts at ENTRY
# and PENALTY, later ones at the last pad's choice.
ENTRY = 350
PENALTY = 1000
MAX_VALUE = 99950
BIG_STEP = 500  # LEFT/RIGHT, and UP/DOWN after a while held
# UP/DOWN held: the step after this many auto-repeats.
ACCEL = ((6, 50), (12, 100), (1 << 30, BIG_STEP))
ARROWS = (buttons.UP, buttons.DOWN, buttons.LEFT, buttons.RIGHT)
TABLE_LABELS = {"one": "1", "five": "5", "three_1": "111", "three_2": "222", "three_3": "333",
                "three_4": "444", "three_5": "555", "three_6": "666"}



# ------------------------------------------------------------ texts


def refusal_text(app, err):
    """The screen text of a PadError (every key has a text in each language)."""
    return app.tf("pad_err_" + err.key, err.values)


def arrow_change(key, kind, reps=0):
    """The signed change an arrow makes to the points: UP/DOWN one STEP,
    more the longer they are held (`reps`: their auto-repeats so far,
    ACCEL), LEFT/RIGHT BIG_STEP; 0 for a long press (it comes between the
    repeats and changes nothing)."""
    if kind == "long":
        return 0
    if key == buttons.LEFT or key == buttons.RIGHT:
        return BIG_STEP if key == buttons.RIGHT else -BIG_STEP
    step = STEP
    for most, size in ACCEL:
        if reps <= most:
            step = size
            break
    return step if key == buttons.UP else -step


def signed(points):
    """'+350' or '-500'."""
    return ("+%d" if points >= 0 else "-%d") % abs(points)


def entry_name(pad, entry):
    """The name of the seat an entry of `pad.history()` is about."""
    # a join taken back has no row any more: its entry carries the name
    return entry[2] if entry[0] == "join" else pad.seats[entry[1]].name


def entry_text(app, pad, entry, name=None):
    """An entry of `pad.history()` in a short line: 'Anna +350' (`name`
    in place of the seat's name: "%s" makes a template for Ui.fit_name)."""
    kind = entry[0]
    if name is None:
        name = entry_name(pad, entry)
    if kind == "enter" or kind == "adjust":
        return "%s %s" % (name, signed(entry[2]))
    return "%s %s" % (name, app.t("pad_" + kind))


def event_text(app, pad, events):
    """The message for the events of one action (the most telling one);
    a name in it is shortened to keep the words whole."""
    msg = ""
    ui = app.ui
    for ev in events:
        kind = ev[0]
        if kind == "hurdle":
            msg = app.t("pad_hurdle") % ev[3]
        elif kind == "penalty" and ev[2]:  # at 0 nothing is taken: the Nichts are the news
            key = "penalty_floor" if ev[2] < pad.penalty else "penalty"  # stopped at 0: said
            msg = ui.fit_name(app.t(key) % ("%s", ev[2]), pad.seats[ev[1]].name, ui.w)
        elif kind == "final":
            msg = app.t("final_round")
        elif kind == "playoff":
            msg = app.t("playoff")
        elif kind == "join":
            msg = ui.fit_name(app.t("seat_joined"), ev[2], ui.w)
        elif kind == "leave":
            msg = ui.fit_name(app.t("seat_left"), ev[2], ui.w)
        elif kind == "undo":
            msg = ui.fit_name(app.t("pad_undone") % entry_text(app, pad, ev[1], "%s"),
                              entry_name(pad, ev[1]), ui.w)
        elif kind == "nothing" and not msg:
            msg = ui.fit_name(app.t("pad_nothing_n") % ("%s", ev[2]), pad.seats[ev[1]].name,
                              ui.w)
        elif kind == "adjust" and not ev[2] and not msg:  # a minus at 0: say so, not "+0"
            msg = ui.fit_name(app.t("pad_at_zero"), pad.seats[ev[1]].name, ui.w)
        elif kind in ("adjust", "turn") and not msg:
            # the name gives way: the points and the new total stay whole (72x40 cut them)
            msg = ui.fit_name("%%s %s = %d" % (signed(ev[2]), ev[3]), pad.seats[ev[1]].name, ui.w)
    return msg


def pad_marks(pad):
    """The pad's standings with their marks (firmware.screens.lines)."""
    return standing_marks(pad, not pad.over, pad.final_round or pad.playoff is not None,
                          pad.to_play())


def table_cells():
    """The base scoring table as 'dice=points' texts."""
    return ["%s=%d" % (TABLE_LABELS[key], points) for key, points in BASE_TABLE]


# ------------------------------------------------------------ the pad


class PadScreen(Screen):
    """The current seat's turn (see the module docstring)."""

    name = "pad"

    def __init__(self, pad):
        self.pad = pad
        self.value = 0
        self.reps = 0
        self.msg = ""
        self.undo_offer = False  # an entry was just made: DOWN takes it back

    def act(self, app, action):
        """Apply a pad action and save; True when accepted (else `msg` says
        why and the pad is unchanged)."""
        try:
            events = self.pad.apply(action)
        except PadError as e:
            self.msg = refusal_text(app, e)
            app.redraw()
            return False
        failed = app.session.save_pad(self.pad)
        self.msg = app.t("save_failed") if failed else event_text(app, self.pad, events)
        pad = self.pad
        if not failed and pad.final_round and pad.playoff is None and not pad.over:
            self.msg = ""  # the status says the final round and what the next seat needs
        self.value = 0
        self.undo_offer = False
        app.redraw()
        return True

    def enter(self, app, value):
        """Enter `value` for the current seat (0: Nichts); True when
        accepted. Taking it back is one press (DOWN) from now on, until
        another key."""
        ok = self.act(app, ("enter", value) if value else ("nothing",))
        self.undo_offer = ok and self.pad.can_undo
        if ok and self.pad.over:
            app.push(PadWinner(self))
        return ok

    def on_key(self, app, key, kind):
        """See the module docstring."""
        pad = self.pad
        if pad.over:
            if kind == "press":
                app.push(PadWinner(self))
            return
        offer = self.undo_offer
        if kind == "press":
            self.undo_offer = False
        if key == buttons.DOWN and kind == "press" and offer and not self.value:
            self.act(app, ("undo",))  # "Rückgängig": the entry just made
            return
        if key in ARROWS:
            if key == buttons.UP or key == buttons.DOWN:
                if kind == "press":
                    self.reps = 0
                elif kind == "repeat":
                    self.reps += 1
            delta = arrow_change(key, kind, self.reps)
            if not delta:
                return
            self._change(delta)
        elif key == buttons.A and kind == "press":
            self.enter(app, self.value)
            return
        elif key == buttons.B and kind == "press":
            app.push(PadMenu(self))
        else:
            return
        app.redraw()

    def _change(self, delta):
        self.msg = ""
        self.value = max(0, min(MAX_VALUE, self.value + delta))

    def status(self, app):
        """The status line: a message, the hurdle, the final round or play-off."""
        pad = self.pad
        if self.msg:
            return self.msg
        if self.value and pad.hurdle_note(self.value):
            return app.tf("why_entry", (pad.entry,))
        if pad.playoff is not None:
            return app.t("playoff")
        if pad.final_round:  # every seat still to play: the round, and what it needs
            need = need_of(pad, pad.current)
            return app.t("pad_final_need") % need if need else app.t("final_round")
        return ""

    def draw(self, app, canvas):
        """Whose turn, their total and the points, status, standings, hints."""
        ui = app.ui
        pad = self.pad
        seat = pad.seat()
        app.ui.clear(canvas)
        rnd = app.t("pad_round") % pad.round_no
        canvas.fill_rect(0, 0, ui.w, ui.line, 1)
        ty = 1 if app.big else 0
        ui.right(canvas, rnd, ty, 0, ui.w - 1)
        who = app.t("your_turn") if app.big else "%s"
        ui.text(canvas, ui.fit_name(who, seat.name, ui.w - ui.width(rnd) - 5), 1, ty, 0)
        y = ui.line + 2
        value = "+%d" % self.value if self.value else app.t("pad_nothing")
        # the points in a frame: what A enters
        vw = ui.width(value) + 5
        ui.text(canvas, ui.fit(app.t("pad_total") % seat.score, ui.w - vw - 2), 0, y)
        canvas.rect(ui.w - vw, y - 2, vw, ui.line + 1, 1)
        ui.right(canvas, value, y, 1, ui.w - 3)
        y += ui.line + 1
        status = self.status(app)
        if status:
            ui.text(canvas, ui.fit(status, ui.w), 0, y)
        y += ui.line
        if app.big:
            # the others' totals in two columns, best first
            others = [i for i in pad.standings() if i != pad.current]
            cols = 1 if len(others) <= 2 else 2
            col = ui.w // cols
            for k in range(min(2 * cols, len(others))):
                s = pad.seats[others[k]]
                x = (k % cols) * col
                yy = y + (k // cols) * ui.line
                num = "%d" % s.score
                ui.right(canvas, num, yy, 1, x + col - 4)
                ui.text(canvas, ui.fit(s.name, col - ui.width(num) - 7), x, yy)
        else:
            lead = pad.standings()[0]
            if lead == pad.current and len(pad.standings()) > 1:
                lead = pad.standings()[1]
            if lead != pad.current:
                s = pad.seats[lead]
                num = " %d" % s.score
                ui.text(canvas, ui.fit(s.name, ui.w - ui.width(num)) + num, 0, y)
        ui.hints(canvas, self._hint_text(app))

    def _hint_text(self, app):
        key = "pad_hint" if self.value else "pad_hint_zero"
        if self.undo_offer and not self.value:
            key = "pad_hint_undo"
        return app.t(key if app.big else key + "_small")

    def state(self):
        """The pad, the points being entered and the message."""
        pad = self.pad
        return {"pad": pad.to_data(), "value": self.value, "message": self.msg,
                "current": pad.current, "scores": [s.score for s in pad.seats],
                "round": pad.round_no, "winner": pad.winner, "undo": self.undo_offer}


# ------------------------------------------------------------ overview and menu


class PadOverview(Screen):
    """The standings next to the base scoring table; UP/DOWN scroll the
    standings, A opens the menu, B goes back to the pad. 128x64: the
    standings and the table side by side in the small font; 72x40: the
    table below the standings."""

    name = "pad_table"

    def __init__(self, screen):
        self.screen = screen
        self.first = 0

    def _rows(self, app):
        """(font, line height, rows of standings shown, lines in all)."""
        ui = app.ui
        n = len(self.screen.pad.active_seats())
        if app.big:
            from firmware import font

            f = font.SMALL
            step = f.height + 1
            return f, step, (ui.h - 2 * ui.line - 1) // step, n
        return ui.font, ui.line, (ui.h - 2 * ui.line - 1) // ui.line, n + 1 + len(BASE_TABLE) // 2

    def on_key(self, app, key, kind):
        """See the class docstring."""
        _f, _step, rows, n = self._rows(app)
        if key == buttons.UP:
            self.first = max(0, self.first - 1)
        elif key == buttons.DOWN:
            self.first = max(0, min(n - rows, self.first + 1))
        elif key == buttons.A and kind == "press":
            app.replace(PadMenu(self.screen))
        elif key == buttons.B and kind == "press":
            app.pop()
        else:
            return
        app.redraw()

    def heading(self, app):
        """The title: the target and the entry hurdle, if there is one."""
        pad = self.screen.pad
        if pad.entry:
            return app.t("pad_overview") % (pad.target, pad.entry)
        return "%s %d" % (app.t("pad_title"), pad.target)  # "from 0" would only puzzle

    def draw(self, app, canvas):
        """Standings (left) and table (right, 128x64) or below (72x40)."""
        ui = app.ui
        app.ui.clear(canvas)
        pad = self.screen.pad
        ui.title(canvas, self.heading(app))
        f, step, rows, n = self._rows(app)
        aw = f.width("↓")  # the scroll marks' column, right of the numbers
        if app.big:  # the standings' half, narrower by that column when it scrolls
            width = ui.w // 2 - 2 - (aw + 1 if self.first > 0 or self.first + rows < n else 0)
        else:
            width = ui.w - 2 - aw
        cells = table_cells()
        order = pad_marks(pad)
        y = ui.line + 2
        for k in range(self.first, min(n, self.first + rows)):
            if k < len(order):  # '1»Anna   4550', with • for a turn still to come
                i, mark = order[k]
                s = pad.seats[i]
                head = "%d%s" % (k + 1, mark)
                num = "%d" % s.score
                f.draw(canvas, head, 0, y, 1)
                x = f.width("8»") + 1
                f.draw(canvas, f.fit(s.name, width - x - f.width(num) - 3), x, y, 1)
                f.draw(canvas, num, width - f.width(num), y, 1)
            elif k == len(order):
                f.draw(canvas, app.t("pad_table"), 0, y, 1)
            else:
                j = 2 * (k - len(order) - 1)
                f.draw(canvas, cells[j], 0, y, 1)
                f.draw(canvas, cells[j + 1], ui.w // 2 - 2, y, 1)
            y += step
        if app.big:
            x0 = ui.w // 2 + 2
            canvas.vline(x0 - 2, ui.line + 1, ui.h - 2 * ui.line - 1, 1)
            half = (len(cells) + 1) // 2
            for k in range(len(cells)):
                x = x0 + (0 if k < half else 33)
                f.draw(canvas, cells[k], x, ui.line + 2 + (k % half) * (f.height + 2), 1)
        arrow_x = width + 1
        if self.first > 0:
            f.draw(canvas, "↑", arrow_x, ui.line + 2, 1)
        if self.first + rows < n:
            f.draw(canvas, "↓", arrow_x, ui.line + 2 + (rows - 1) * step, 1)
        ui.hints(canvas, app.t("pad_overview_hint"))

    def state(self):
        """The first standings row shown."""
        return {"first": self.first}


class PadMenu(Menu):
    """What else can happen at the table (see the module docstring)."""

    name = "pad_menu"

    def __init__(self, screen):
        Menu.__init__(self)
        self.screen = screen

    def _entries(self):
        out = ["undo"] if self.screen.pad.can_undo else []
        out += ["nothing", "overview", "digits", "adjust", "join", "leave", "to_title"]
        return out

    def title(self, app):
        """The pad's name."""
        return app.t("pad_title")

    def labels(self, app):
        """One text per entry."""
        pad = self.screen.pad
        ui = app.ui
        out = []
        for key in self._entries():
            if key == "nothing":
                out.append(ui.fit_name(app.t("pad_menu_nothing"), pad.seat().name, ui.w - 4))
            elif key == "undo" and not app.big:  # no room to name the entry: the pad says it after
                out.append(app.t("pad_menu_undo_small"))
            elif key == "undo":
                last = pad.last_entry()
                out.append(ui.fit_name(app.t("pad_menu_undo") % entry_text(app, pad, last, "%s"),
                                       entry_name(pad, last), ui.w - 4))
            elif key in ("to_title", "overview"):
                out.append(app.t("to_title" if key == "to_title" else "pad_menu_overview"))
            else:
                out.append(app.t(("menu_" if key in ("join", "leave") else "pad_menu_") + key))
        return out

    def choose(self, app, index):
        """Carry out the entry (back on the pad screen, which shows the result)."""
        key = self._entries()[index]
        screen = self.screen
        pad = screen.pad
        if key == "to_title":
            app.home()
            return
        app.pop()
        if key == "nothing":
            screen.enter(app, 0)
        elif key == "undo":
            screen.act(app, ("undo",))
        elif key == "overview":
            app.push(PadOverview(screen))
        elif key == "digits":
            app.push(PadDigits(screen))
        elif key == "adjust":
            app.push(SeatPick(pad, "pad_menu_adjust",
                             lambda app, i: app.push(PadAdjust(screen, i))))
        elif key == "join":
            from firmware.screens.names import NamePicker

            if pad.final_round or pad.playoff is not None:
                screen.msg = app.t("pad_err_final")  # said before a name is typed
                return

            taken = [pad.seats[i].name for i in pad.active_seats()]
            app.push(NamePicker(taken, lambda app, name: _join(app, screen, name)))
        elif key == "leave":
            app.push(SeatPick(pad, "menu_leave", lambda app, i: _ask_leave(app, screen, i)))


def _ask_leave(app, screen, seat):
    """Ask before seat `seat` leaves the pad (one press on the list took
    it away at once)."""
    from firmware.screens.message import Confirm

    if screen.pad.why_not(("leave", seat)) is not None:
        screen.act(app, ("leave", seat))  # refused (the last seat): said at once, not asked
        return
    name = screen.pad.seats[seat].name
    app.push(Confirm(app.ui.fit_name(app.t("leave_ask"), name, app.ui.w - 2),
                     [app.t("leave_note")], lambda app: screen.act(app, ("leave", seat))))


def _join(app, screen, name):
    if screen.act(app, ("join", name)):
        app.session.remember_name(name)


# ------------------------------------------------------------ entering numbers


def _submit(entry, app, attempt):
    """Close the entry screen `entry` and run `attempt()` on the pad screen
    below; when the pad refuses, come back with its reason."""
    screen = entry.screen
    app.pop()
    if not attempt():
        entry.msg = screen.msg
        screen.msg = ""
        app.push(entry)


class PadDigits(Screen):
    """The points digit by digit; A enters them for the current seat."""

    name = "pad_digits"
    DIGITS = 5

    def __init__(self, screen):
        self.screen = screen
        v = screen.value
        self.digits = [(v // 10 ** (self.DIGITS - 1 - k)) % 10 for k in range(self.DIGITS)]
        self.pos = self.DIGITS - 3  # the hundreds
        self.msg = ""

    def value(self):
        """The number shown."""
        v = 0
        for d in self.digits:
            v = v * 10 + d
        return v

    def on_key(self, app, key, kind):
        """UP/DOWN change the digit, LEFT/RIGHT move, A enters, B back."""
        if key in (buttons.UP, buttons.DOWN):
            d = 1 if key == buttons.UP else -1
            self.digits[self.pos] = (self.digits[self.pos] + d) % 10
            self.msg = ""
        elif key == buttons.LEFT:
            self.pos = max(0, self.pos - 1)
        elif key == buttons.RIGHT:
            self.pos = min(self.DIGITS - 1, self.pos + 1)
        elif key == buttons.A and kind == "press":
            screen = self.screen
            _submit(self, app, lambda: screen.enter(app, self.value()))
            return
        elif key == buttons.B and kind == "press":
            app.pop()
            return
        else:
            return
        app.redraw()

    def draw(self, app, canvas):
        """The digits with the cursor under one, the message, hints."""
        ui = app.ui
        app.ui.clear(canvas)
        pad = self.screen.pad
        ui.title(canvas, ui.fit_name(app.t("your_turn"), pad.seat().name, ui.w - 2))
        from firmware import font

        f = font.REGULAR
        cw = f.width("0") + (4 if app.big else 3)
        x = (ui.w - cw * self.DIGITS) // 2
        y = ui.line + (4 if app.big else 2)
        for k in range(self.DIGITS):
            s = "%d" % self.digits[k]
            f.draw(canvas, s, x + k * cw + 1, y, 1)
            if k == self.pos:
                canvas.hline(x + k * cw, y + f.height, cw - 1, 1)
        if self.msg:
            ui.text(canvas, ui.fit(self.msg, ui.w), 0, y + f.height + (4 if app.big else 2))
        ui.hints(canvas, app.t("pad_digits_hint" if app.big else "pad_digits_hint_small"))

    def state(self):
        """The number and the message."""
        return {"value": self.value(), "pos": self.pos, "message": self.msg}


class PadAdjust(Screen):
    """A signed change for one seat (+/-): UP/DOWN by 50, LEFT/RIGHT by 500,
    A applies it, B goes back."""

    name = "pad_adjust"

    def __init__(self, screen, seat):
        self.screen = screen
        self.seat = seat
        self.delta = 0
        self.msg = ""

    def on_key(self, app, key, kind):
        """See the class docstring."""
        if key in ARROWS:
            step = arrow_change(key, kind)
            if not step:
                return
            self.delta = max(-MAX_VALUE, min(MAX_VALUE, self.delta + step))
            self.msg = ""
        elif key == buttons.A and kind == "press":
            screen = self.screen
            _submit(self, app, lambda: screen.act(app, ("adjust", self.seat, self.delta)))
            return
        elif key == buttons.B and kind == "press":
            app.pop()
            return
        else:
            return
        app.redraw()

    def draw(self, app, canvas):
        """The seat, the change and the new total."""
        ui = app.ui
        app.ui.clear(canvas)
        s = self.screen.pad.seats[self.seat]
        ui.title(canvas, ui.fit_name(app.t("pad_adjust_title"), s.name, ui.w - 2))
        total = max(0, s.score + self.delta)
        y = ui.line + 2
        change = signed(self.delta)
        vw = ui.width(change) + 5
        ui.text(canvas, ui.fit(app.t("pad_total") % s.score, ui.w - vw - 2), 0, y)
        canvas.rect(ui.w - vw, y - 2, vw, ui.line + 1, 1)
        ui.right(canvas, change, y, 1, ui.w - 3)
        # a minus past the total stops at 0, and the line says so
        below = s.score + self.delta < 0
        ui.text(canvas, app.t("pad_floor") if below else "→ %d" % total, 0, y + ui.line + 1)
        if self.msg:
            ui.text(canvas, ui.fit(self.msg, ui.w), 0, y + 2 * ui.line + 1)
        ui.hints(canvas, app.t("pad_adjust_hint" if app.big else "pad_adjust_hint_small"))

    def state(self):
        """The seat and the change."""
        return {"seat": self.seat, "delta": self.delta, "message": self.msg}


# ------------------------------------------------------------ setup and end


class PadSetup(Menu):
    """A new pad: target, entry hurdle, penalty, seat count, one row per
    name, start."""

    name = "pad_setup"
    SEAT_ROW = 4  # the first name's row

    def __init__(self, app):
        Menu.__init__(self)
        self.target = TARGETS[0]
        last = app.session.settings["pad"]
        if isinstance(last, list) and len(last) == 2 and last[0] in ENTRIES and (
                last[1] in PENALTIES):
            self.entry, self.penalty = last
        else:
            self.entry, self.penalty = ENTRY, PENALTY
        self.names = []
        for _ in range(2):
            self.names.append(self._free_name(app))

    def _free_name(self, app):
        """The first saved name not at the table yet, else "Spieler n"."""
        for name in app.session.names:
            if name not in self.names:
                return name
        from firmware.screens.names import default_name

        return default_name(app, 1, self.names)

    def _rows(self):
        return ["target", "entry", "penalty", "count"] + ["seat"] * len(self.names) + ["start"]

    def title(self, app):
        """The screen title."""
        return app.t("pad_new")

    def labels(self, app):
        """One text per row."""
        off = app.t("val_off")
        out = [app.t("target") + ": %d" % self.target,
               app.t("opt_entry") + ": " + ("%d" % self.entry if self.entry else off),
               app.t("pad_penalty") % ("-%d" % self.penalty if self.penalty else off),
               app.t("seats") + ": %d" % len(self.names)]
        for i, name in enumerate(self.names):
            out.append("%d %s" % (i + 1, name))
        out.append(app.t("start_game"))
        return out

    def change(self, app, index, step):
        """LEFT/RIGHT: the target, the entry hurdle, the penalty or the seat count."""
        row = self._rows()[index]
        if row == "target":
            self.target = _step(TARGETS, self.target, step)
        elif row == "entry":
            self.entry = _step(ENTRIES, self.entry, step)
        elif row == "penalty":
            self.penalty = _step(PENALTIES, self.penalty, step)
        elif row == "count":
            n = len(self.names) + step
            if n < 1 or n > MAX_SEATS:
                return False
            if step > 0:
                self.names.append(self._free_name(app))
            else:
                self.names.pop()
        else:
            return False
        return True

    def choose(self, app, index):
        """A: a name, start, or the next value."""
        row = self._rows()[index]
        if row == "seat":
            i = index - self.SEAT_ROW
            from firmware.screens.names import NamePicker

            taken = [n for j, n in enumerate(self.names) if j != i]
            app.push(NamePicker(taken, lambda app, name: self._set(i, name)))
        elif row == "start":
            self._start(app)
        # A on a value row does nothing: its hint names LEFT/RIGHT only (a
        # press meant as "ok" turned 10000 into 5000)

    def _set(self, i, name):
        self.names[i] = name

    def _start(self, app):
        try:
            pad = ScorePad(self.target, self.entry, self.penalty, list(self.names))
        except PadError as e:
            from firmware.screens.message import Message

            app.push(Message(app.t("pad_title"), [refusal_text(app, e)]))
            return
        screen = PadScreen(pad)
        # The pad shows before the saves (about 140 ms of flash on the
        # chip), drawn while the form's texts are still loaded: going home
        # lets the help book go, which the pad's texts come from.
        app.push(screen)
        app.flush()
        for name in self.names:
            app.session.remember_name(name)
        settings = app.session.settings
        if settings["pad"] != [self.entry, self.penalty]:
            settings["pad"] = [self.entry, self.penalty]
            app.session.save_settings()
        if app.session.save_pad(pad):
            screen.msg = app.t("save_failed")
        app.home(screen)

    def hint(self, app):
        """What the keys do on the row: LEFT/RIGHT change a value, A names
        a seat or starts."""
        row = self._rows()[self.index]
        if row == "start":
            return app.t("form_hint_start")
        return app.t("nav_hint" if row == "seat" else "pad_setup_hint")

    def state(self):
        """The form's values."""
        return {"index": self.index, "target": self.target, "entry": self.entry,
                "penalty": self.penalty, "names": list(self.names)}


def _step(values, value, step):
    """The value `step` places from `value` in `values`, round the end."""
    return values[(values.index(value) + step) % len(values)]


class PadWinner(Screen):
    """The evening is decided: A ends it (the statistics count it), B takes
    the last entry back."""

    name = "pad_winner"

    def __init__(self, screen):
        self.screen = screen

    def on_key(self, app, key, kind):
        """See the class docstring."""
        if kind != "press":
            return
        if key == buttons.A:
            from firmware.stats import record_pad

            app.session.clear_pad()  # first: a power cut between the two never counts it twice
            record_pad(app.session.store, self.screen.pad)
            app.home()
        elif key == buttons.B:  # asked first: it takes back the entry that decided the evening
            from firmware.screens.message import Confirm

            screen = self.screen
            pad = screen.pad
            entry = pad.last_entry()
            what = app.ui.fit_name(entry_text(app, pad, entry, "%s"), entry_name(pad, entry),
                                   app.ui.w) if entry is not None else ""

            def undo(app):
                app.pop()  # this screen: the pad again, without that entry
                screen.act(app, ("undo",))

            app.push(Confirm(app.t("pad_undo_ask"), [what], undo))

    def draw(self, app, canvas):
        """The winner and the standings."""
        ui = app.ui
        pad = self.screen.pad
        app.ui.clear(canvas)
        ui.title(canvas, ui.fit_name(app.t("winner"), pad.seats[pad.winner].name, ui.w - 2))
        rows = max(1, (ui.h - 2 * ui.line) // ui.line)
        ui.lines(canvas, marked_lines(app, pad, pad_marks(pad), False)[:rows])
        ui.hints(canvas, app.t("pad_winner_hint"))

    def state(self):
        """The winner and the totals."""
        pad = self.screen.pad
        return {"winner": pad.winner, "scores": [s.score for s in pad.seats]}
