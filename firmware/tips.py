"""Tips on the play screen ("Mit Tipps lernen"), per person.

What a person with tips on sees on their turn (engine.coach does the
sums, with the Expert's plan and, for two seats under a preset with a
table, the Master's win chances):

- a dot under every die that scores (belongs to some valid keep);
- the best move (the Expert's keep, then roll on or bank);
- the worth of the current selection (or of the best keep when nothing
  valid is picked): the points banked now (↓) against the expected final
  points of rolling on (B ≈), or the chance to pass the leader on a last
  turn, and the Master's win chance of each where it has a table;
- the chance to farkle with the dice that would be rolled;
- after a decision that gave away at least COST_POINTS expected points
  (or COST_PERCENT of a chance), one short line saying how much; the
  game's end shows each person's total (a message above the winner).

The guided part: a person's first GUIDED confirmed decisions (rolling on,
banking, passing a farkle) also get a sentence on what the marks and keys
mean, and a step count; after the third one a line says the guided part
is done and the tips go on with the numbers only.

Where the flags live (the engine's Seat has no field for them): a small
file "tips" beside the game save, [game key, flags, guided steps, costs]
per seat, the key being the rules encoding and the seat names. The
new-game form writes it before the game is saved (a power cut in between
leaves no game, so a stale file never meets a new game); a file whose key
does not match the game means tips off. Toggling during play (the
standings screen) rewrites it.

Drawing: 128x64 shows the best move on the line below the dice (where
the set-aside dice go without tips) and cycles the other lines on the
status line every PAGE_MS; 72x40 cycles everything on its one status
line. A message of the play screen always wins over a tip.
"""

from engine.game import BANK, PASS, ROLL, TAKE
from firmware.clock import Due
from firmware.files import KIND_TIPS, MASTER
from firmware.files import TIPS as FILE
from firmware.screens.menu import Menu
from firmware.store import NoSave, SaveDamaged, SaveFailed

GUIDED = 3
PAGE_MS = 2000
NOTE_MS = 4000
COST_POINTS = 50
COST_PERCENT = 3


def game_key(game):
    """The text identifying a game for the tips file."""
    return game.rules.encode() + "|" + "|".join([s.name for s in game.seats])


def start_game(session, game, flags):
    """Write a fresh tips file for `game` (flags per seat, people only)."""
    n = len(game.seats)
    value = [game_key(game), [1 if (flags[i] and not game.seats[i].is_bot) else 0
                              for i in range(n)], [0] * n, [0] * n]
    try:
        session.store.save(FILE, KIND_TIPS, value)
    except SaveFailed:
        pass


def _ints(value, n):
    out = [0] * n
    if isinstance(value, list):
        for i in range(min(n, len(value))):
            if type(value[i]) is int and value[i] >= 0:
                out[i] = value[i]
    return out


class Tips:
    """The tips of one play screen (see the module docstring)."""

    def __init__(self, app, game, players):
        self.game = game
        self.players = players
        n = len(game.seats)
        self.flags = [0] * n
        self.guided = [0] * n
        self.cost = [0] * n
        self._load(app)
        self._coach = None
        self._looked = False  # looked for a stored plan
        self._key = None
        self._situation = None  # the table's situation the lines are for
        self._chosen = None  # and the dice picked
        self._stale = False  # the coach has yet to be asked (in `tick`)
        self._head = ""
        self._lines = []
        self._marks = []
        self.page = 0
        self.page_due = Due()  # the next page of tip lines
        self.note = ""
        self.note_due = Due()  # the end of the note
        self._judged = None

    # ------------------------------------------------------------ state

    def _load(self, app):
        try:
            value, _ = app.session.store.load(FILE, KIND_TIPS)
        except (NoSave, SaveDamaged):
            return
        if not isinstance(value, list) or len(value) != 4 or value[0] != game_key(self.game):
            return
        n = len(self.game.seats)
        self.flags = _ints(value[1], n)
        self.guided = _ints(value[2], n)
        self.cost = _ints(value[3], n)

    def save(self, app):
        """Rewrite the tips file."""
        self._fit()
        try:
            app.session.store.save(FILE, KIND_TIPS, [game_key(self.game), self.flags,
                                                     self.guided, self.cost])
        except SaveFailed:
            pass

    def _fit(self):
        n = len(self.game.seats)  # seats may join during a game
        for values in (self.flags, self.guided, self.cost):
            while len(values) < n:
                values.append(0)

    def on(self, i=None):
        """True when seat i (default: the seat to move) has tips on."""
        i = self.game.current if i is None else i
        return i < len(self.flags) and bool(self.flags[i]) and not self.game.seats[i].is_bot

    def toggle(self, app, i=None):
        """Switch tips of seat i (default: the seat to move); a person only."""
        i = self.game.current if i is None else i
        if self.game.seats[i].is_bot:
            return
        self._fit()
        self.flags[i] = 0 if self.flags[i] else 1
        self._key = self._situation = None  # worked out anew
        self.save(app)

    def active(self, play):
        """True when the screen should show tips now."""
        game = self.game
        return game.phase != "over" and self.on() and play._person()

    # ------------------------------------------------------------ analysis

    def coach(self):
        """The engine.coach.Coach for the game's rules (made once): the
        Expert's plan from the players, the Master where it has a table."""
        if self._coach is None:
            plan = self._plan()
            if plan is None:
                return None
            from engine.coach import Coach

            self._coach = Coach(plan, self._master())
        return self._coach

    def _plan(self):
        """The Expert's plan when it needs no solving: the players' (a
        computer Expert made it, or it is shipped for the presets or cached
        on flash for rules a computer has played). Never solved here: that
        takes half a minute and much heap on the device; until a plan
        exists the tips show the basics (marks, farkle risk)."""
        players = self.players
        if players.plan is None and not self._looked:
            self._looked = True
            players.stored_plan()
        return players.plan

    def _master(self):
        """The Master for its win chances: two seats and a table file (the
        bot is made only when the shipped tables hold one for the rules)."""
        tables = self.players.tables
        if len(self.game.seats) != 2 or tables is None or not hasattr(tables, "open"):
            return None
        name = MASTER % self.game.rules.fingerprint()
        exists = getattr(tables, "exists", None)
        if exists is not None and not exists(name):
            return None
        try:
            master = self.players.bot("meister")
        except (ImportError, AttributeError, ValueError, OSError, MemoryError):
            return None
        return master if getattr(master, "table", None) is not None else None

    def _view(self):
        from engine.view import View

        return View(self.game)

    def judge(self, app, play, actions):
        """Before a person's decision is applied: note what it is and what
        it gives away (see `confirmed`)."""
        self._judged = None
        game = self.game
        if not self.active(play) or not actions:
            return
        phase = game.phase
        last = actions[-1]
        keep = actions[0][1] if actions[0][0] == "keep" else None
        counted = last in (ROLL, BANK) and phase in ("keep", "decide") or last == PASS
        lost = (0, None, "points")
        if phase in ("keep", "decide") and last in (ROLL, BANK) or (
                phase == "start" and last in (ROLL, TAKE) and game.offer):
            coach = self.coach()
            if coach is not None:
                lost = coach.cost(self._view(), last, keep)
        self._judged = (game.current, counted, lost)

    def confirmed(self, app, play):
        """After the judged decision was applied: count it, add its cost,
        set the note and save."""
        judged = self._judged
        self._judged = None
        if judged is None:
            return
        from engine import coach

        seat, counted, (lost, lost_win, scale) = judged
        self._fit()
        note = ""
        if counted and self.guided[seat] < GUIDED:
            self.guided[seat] += 1
            step = self.guided[seat]
            note = app.t("tip_guided_done") if step == GUIDED else app.t("tip_step") % (
                step, GUIDED)
        if lost >= coach.WIN:
            note = app.t("tip_cost_win_now")
        elif lost_win is not None and lost_win * 100 >= COST_PERCENT:
            note = app.t("tip_cost_win") % int(lost_win * 100 + 0.5)
        elif scale == coach.CHANCE:
            pct = coach.percent(lost, scale)
            if pct >= COST_PERCENT:
                note = app.t("tip_cost_chance") % pct
        else:
            pts = coach.points(lost)
            if pts >= COST_POINTS:
                note = app.t("tip_cost") % pts
                self.cost[seat] += pts
        if note:
            self.note = note
            self.note_due.set(app.now, NOTE_MS)
        self.save(app)

    def game_over(self, app):
        """At the end: each tips user's total cost, as a message above the
        winner; the file is forgotten."""
        game = self.game
        self._coach = None  # the plan stays with the players; the heap needs room
        lines = []
        for i, seat in enumerate(game.seats):
            if not seat.is_bot and i < len(self.flags) and (self.flags[i] or self.cost[i]):
                lines.append(app.t("tip_total") % (seat.name, self.cost[i]))
        try:
            app.session.store.clear(FILE)
        except SaveFailed:
            pass
        if lines:
            from firmware.screens.message import Message

            app.push(Message(app.t("tip_total_title"), lines))

    # ------------------------------------------------------------ lines

    def _update(self, app, play):
        """Note the situation on the table; True when it changed. Without a
        plan the lines are worked out at once (cheap). With one, the coach
        is asked in the next pass (`tick`), after this frame is on the
        panel: the coach takes up to a tenth of a second on the chip, and a
        die pick must show at once. Until then a pick keeps the lines of
        the one before; a new roll shows none."""
        game = self.game
        chosen = play.selected() if game.phase == "keep" else ()
        situation = (game.events_total, game.phase, game.current, game.roll,
                     game.turn_total, app.lang, self.guided[game.current]
                     if game.current < len(self.guided) else 0)
        if situation == self._situation and chosen == self._chosen:
            return False
        if situation != self._situation:
            self._lines, self._head, self._marks = [], "", []
        self._situation = situation
        self._chosen = chosen
        self._key = situation
        self.page = 0
        self.page_due.set(app.now, PAGE_MS)
        if self.coach() is None:
            self._lines, self._head, self._marks = self._basics(app, play, chosen)
        else:
            self._stale = True
        return True

    def _basics(self, app, play, chosen):
        """Lines without a plan: the marks, the farkle risk of the dice a
        valid selection leaves, the lesson lines."""
        from engine import odds

        game = self.game
        t = app.t
        lines = []
        marks = []
        view = self._view()
        guided = game.current < len(self.guided) and self.guided[game.current] < GUIDED
        if game.phase == "keep":
            for dice, _ in view.keeps:
                for i in _positions(game.roll, dice):
                    if i not in marks:
                        marks.append(i)
            if guided:
                lines.append(t("tip_marks"))
            for dice, _ in view.keeps:
                if dice == chosen:
                    left = view.dice_left - len(dice) or game.rules.dice
                    lines.append(t("tip_risk") % (left, _pct(odds.farkle_chance(
                        left, game.rules))))
            lines.append(t("tip_no_plan"))
        elif game.phase == "decide":
            lines.append(t("tip_risk") % (view.dice_left, _pct(odds.farkle_chance(
                view.dice_left, game.rules))))
            lines.append(t("tip_no_plan"))
        elif game.phase == "farkle" and guided:
            lines.append(t("tip_farkle_pass"))
        if guided and game.phase in ("keep", "decide", "farkle"):
            lines.append(t("tip_step_now") % (self.guided[game.current] + 1, GUIDED))
        return lines, "", marks

    def _compute(self, app, play, chosen):
        from engine import coach

        game = self.game
        t = app.t
        big = app.big
        view = self._view()
        advice = self.coach().advise(view)
        phase = game.phase
        guided = self.guided[game.current] < GUIDED if game.current < len(self.guided) else 0
        lines = []
        head = ""
        marks = []
        if phase == "keep":
            for dice, _ in view.keeps:  # a die scores when some keep uses it
                for i in _positions(game.roll, dice):
                    if i not in marks:
                        marks.append(i)
            digits = "".join([str(d) for d in advice.keep])
            key = "tip_keep_bank" if advice.then == BANK else "tip_keep_roll"
            head = t(key if big else key + "_small") % digits
            mine = coach_stand = None
            if chosen:
                coach_stand = self.coach().stand(view, chosen)
                mine = coach_stand
            numbers = mine if mine is not None else advice
            label = t("tip_pick") if mine is not None else t("tip_best")
            lines.append(label + " " + _worth(app, numbers))
            lines.append(t("tip_risk") % (numbers.left, _pct(numbers.farkle)))
            win = _win(app, numbers)
            if win:
                lines.append(win)
            if guided:
                lines.insert(0, t("tip_marks"))
                lines.append(t("tip_keys"))
        elif phase == "decide":
            head = t("tip_bank") if advice.best == BANK else t("tip_roll")
            lines.append(_worth(app, advice))
            lines.append(t("tip_risk") % (advice.left, _pct(advice.farkle)))
            win = _win(app, advice)
            if win:
                lines.append(win)
            if guided:
                lines.append(t("tip_keys"))
        elif phase == "farkle":
            head = t("tip_farkle_was") % _pct(advice.farkle)
            if guided:
                lines.append(t("tip_farkle_pass"))
        elif phase == "start":
            if advice.best == TAKE:
                head = t("tip_take")
            elif game.offer:
                head = t("tip_fresh")
            else:
                head = ""
            if advice.scale == coach.POINTS and advice.roll is not None:
                lines.append(t("tip_turn_worth") % coach.points(advice.roll))
        if guided and phase in ("keep", "decide", "farkle"):
            step = self.guided[game.current] + 1
            lines.append(t("tip_step_now") % (step, GUIDED))
        return lines, head, marks

    # ------------------------------------------------------------ screen

    def tick(self, app, play, now):
        """True when the shown tip changes (the coach's answer for a new
        situation, the next page, a note expires)."""
        changed = False
        if self._stale and self.active(play):
            self._stale = False
            game = self.game
            chosen = play.selected() if game.phase == "keep" else ()
            self._lines, self._head, self._marks = self._compute(app, play, chosen)
            changed = True
        if self.note and self.note_due.reached(now):
            self.note = ""
            self.note_due.clear()
            changed = True
        if self._key is not None and self.active(play) and self.page_due.reached(now):
            self.page += 1
            self.page_due.set(now, PAGE_MS)
            changed = True
        return changed

    def status(self, app, play, status):
        """The text for the status line: the note, else (tips on) the
        page of tip lines (with the play screen's own `status` as one
        page), else `status`."""
        if self.note and self.note_due.waiting(app.now):
            return self.note
        if not self.active(play):
            return status
        self._update(app, play)
        pages = []
        if status:
            pages.append(status)
        if not app.big and self._head:
            pages.append(self._head)
        pages.extend(self._lines)
        if not pages:
            return status
        return pages[self.page % len(pages)]

    def draw(self, app, canvas, play, dice_x, dice_y, gap, below):
        """Marks under the scoring dice, and on 128x64 the best move on the
        line below them; True when tips took that line (no set-aside dice)."""
        if not self.active(play):
            return False
        self._update(app, play)
        ui = app.ui
        size = ui.die
        if not play.anim.armed:
            dot = 2
            for i in self._marks:
                x = dice_x + i * (size + gap) + (size - dot) // 2
                canvas.fill_rect(x, dice_y + size + (4 if app.big else 3), dot,
                                 1 if app.big else dot, 1)
        if app.big and self._head:
            ui.text(canvas, ui.fit(self._head, ui.w), 0, below + 4)
        return app.big

    def start_line(self, app, play):
        """The tip on a turn's first screen (offer or a turn's worth)."""
        if self.note and self.note_due.waiting(app.now):
            return self.note
        if not self.active(play):
            return ""
        self._update(app, play)
        if self._head:
            return self._head
        pages = self._lines
        return pages[self.page % len(pages)] if pages else ""


def _positions(roll, dice):
    """Positions in `roll` of the faces of `dice` (first matches)."""
    out = []
    used = [False] * len(roll)
    for d in dice:
        for i in range(len(roll)):
            if not used[i] and roll[i] == d:
                used[i] = True
                out.append(i)
                break
    return out


def _pct(chance):
    return int(chance * 100 + 0.5)


def _worth(app, a):
    """'↓250 B≈310': banking against rolling on (or the chances)."""
    from engine import coach

    t = app.t
    if a.bank is not None and a.bank >= coach.WIN:
        return t("tip_wins_now")
    if a.scale == coach.CHANCE:
        roll = t("tip_roll_pct") % coach.percent(a.roll, a.scale)
        if a.bank is None:
            return roll
        return t("tip_bank_pct") % coach.percent(a.bank, a.scale) + " " + roll
    roll = t("tip_roll_pts") % coach.points(a.roll)
    if a.bank is None:
        return roll
    return t("tip_bank_pts") % coach.points(a.bank) + " " + roll


def _win(app, a):
    """The Master's win chances, or ''."""
    if a.win_bank is None and a.win_roll is None:
        return ""
    parts = [app.t("tip_win")]
    if a.win_bank is not None:
        parts.append(app.t("tip_bank_pct") % _pct(a.win_bank))
    if a.win_roll is not None:
        parts.append(app.t("tip_roll_pct") % _pct(a.win_roll))
    return " ".join(parts)



class TipsPick(Menu):
    """The new-game form's tips list: the people at the table; A switches a
    person's tips on or off, B goes back."""

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
