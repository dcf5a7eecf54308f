"""What a person with tips on sees on the play screen, and the cost notes.
firmware/tips.py makes a CoachView only when such a person is to move.

engine.coach does the sums (with the Expert's plan and, for two seats
under a preset with a table, the Master's win chances);
firmware/tip_words.py picks the words:

- an arrow under each die the tip suggests (the coach's best keep;
  without a plan, under every die that scores);
- the move, step by step: "Nimm 1 und 5", and once they are picked
  "Dann sichern" or "Dann würfeln"; in phase "decide" "Besser sichern";
  at a turn's start "Besser übernehmen" or what a turn brings;
- on 128x64 a second line says why: how often the dice left would score
  ("3 von 4 Würfen treffen") or farkle ("Fehlwurf bei 1 von 3"), on a
  last turn the chance to pass the leader;
- after a decision that gave away at least COST_POINTS expected points
  (or COST_PERCENT of a chance), a note saying how much; the game's end
  shows each person's total (firmware/tips.py).

Nothing rotates: a tip changes only when a press changes the situation,
and a note stays until the next press. A farkle's message comes first
(it shows in the frame after the roll), and a message of the play screen
always wins.

Lines: 128x64 shows the move on the line below the dice (where the
set-aside dice go without tips) and the reason (or the note, or the value
of a selection that is not the tip) on the status line; 72x40 shows the
move (or the note) on its one status line.

Timing: the coach's answer for a new situation is asked in the pass after
a frame (`_stale`, `tick`): it takes up to a tenth of a second on the chip,
and the new dice must show at once. Until then a new roll shows no tip.
"""

from engine.game import BANK, ROLL, TAKE
from firmware import tip_words
from firmware.files import MASTER
from firmware.screen import Kept

COST_POINTS = 50
COST_PERCENT = 3


class CoachView:
    """The tips of the person to move (see the module docstring); `tips`
    is the play screen's firmware.tips.Tips."""

    def __init__(self, tips):
        self.tips = tips
        self.game = tips.game
        self.players = tips.players
        self._coach = None
        self._looked = False  # looked for a stored plan
        self._situation = None  # the table's situation the tip is for
        self._stale = False  # the coach has yet to be asked (in `tick`)
        self.advice = None  # the coach's engine.coach.Advice for the situation
        self.basic = False  # no plan: marks and simple words only
        self.marks = []  # positions in the roll of the suggested dice
        self.note = ""  # the cost of the last decision, until the next press
        self._note_at = 0  # app.now of the step that set the note
        self._judged = None
        self._reason = Kept()  # `reason`'s line for the advice now
        self._move = Kept()  # `move`'s (advice, phase, picked, words), see there

    def forget(self):
        """Work the tip out anew (tips were switched)."""
        self._situation = None

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
        exists the tips show the basics (marks, simple words)."""
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
        exists = getattr(tables, "exists", None)
        if exists is not None:
            for rules, _ in self.game.rules.master_sources():  # its own, or one read shifted
                if exists(MASTER % rules.fingerprint()):
                    break
            else:
                return None
        try:
            master = self.players.bot("meister")
        except (ImportError, AttributeError, ValueError, OSError, MemoryError):
            return None
        return master if getattr(master, "table", None) is not None else None

    def _view(self):
        from engine.view import View

        return View(self.game)

    def _update(self, play):
        """Note the situation on the table. Without a plan the marks are
        found at once (cheap); with one, the coach is asked in the next
        pass (`tick`), after this frame is on the panel."""
        game = self.game
        situation = (game.events_total, game.phase, game.current, len(game.roll))
        if situation == self._situation:
            return
        self._situation = situation
        self._reason.drop()
        self.advice = None
        self.marks = []
        self.basic = self.coach() is None
        if self.basic:
            if game.phase == "keep":  # every die that some keep uses
                for dice, _ in game.valid_keeps():
                    for i in _positions(game.roll, dice):
                        if i not in self.marks:
                            self.marks.append(i)
        else:
            self._stale = True

    def tick(self, app, play):
        """Ask the coach for a new situation; True when the tip changed."""
        if not self._stale or not self.tips.active(play):
            return False
        self._stale = False
        game = self.game
        coach = self.coach()
        if coach is None:  # _stale is set only with a coach; kept for the type check
            return False
        self.advice = advice = coach.advise(self._view())
        self._reason.drop()
        if game.phase == "keep" and advice.keep:
            self.marks = _positions(game.roll, advice.keep)
        return True

    # ------------------------------------------------------------ decisions

    def judge(self, app, play, actions):
        """Before a person's decision is applied: what it gives away (see
        `confirmed`)."""
        self._judged = None
        game = self.game
        if not self.tips.active(play) or not actions:
            return
        phase = game.phase
        last = actions[-1]
        keep = actions[0][1] if actions[0][0] == "keep" else None
        if phase in ("keep", "decide") and last in (ROLL, BANK) or (
                phase == "start" and last in (ROLL, TAKE) and game.offer):
            coach = self.coach()
            if coach is not None:
                self._judged = (game.current, coach.cost(self._view(), last, keep))

    def confirmed(self, app, play):
        """After the judged decision was applied: the note on its cost (in
        the frame that follows), added to the seat's total and saved."""
        judged = self._judged
        self._judged = None
        if judged is None:
            self.set_note(app, "")  # this press ends an older note
            return
        from engine import coach

        seat, (lost, lost_win, scale) = judged
        big = app.big
        note = ""
        if lost >= coach.WIN:
            note = app.t("tip_cost_win_now")
        elif lost_win is not None and lost_win * 100 >= COST_PERCENT:
            note = app.t("tip_cost_win" if big else "tip_cost_win_small") % int(
                lost_win * 100 + 0.5)
        elif scale == coach.CHANCE:
            pct = coach.percent(lost, scale)
            if pct >= COST_PERCENT:
                note = app.t("tip_cost_chance") % pct
        else:
            pts = coach.points(lost)
            if pts >= COST_POINTS:
                note = app.t("tip_cost" if big else "tip_cost_small") % pts
                self.tips.add_cost(app, seat, pts)
        self.set_note(app, note)

    def set_note(self, app, note):
        """Show `note` until the next press (a cost, a lesson step)."""
        self.note = note
        self._note_at = app.now

    # ------------------------------------------------------------ words

    def _said(self, app, found):
        if not found:
            return ""
        key, values = found
        return app.t(key) % values if values else app.t(key)

    def _wins(self):
        from engine.coach import WIN

        a = self.advice
        return a is not None and a.bank is not None and a.bank >= WIN

    def move(self, app, play):
        """The move in words ('' before the coach has answered)."""
        game = self.game
        phase = game.phase
        a = self.advice
        if a is None:
            return app.t("tip_basic") if self.basic and phase == "keep" else ""
        if phase == "farkle":
            return self._said(app, tip_words.farkles(a.farkle))
        if phase == "start" and not game.offer:
            from engine import coach

            if a.scale == coach.POINTS and a.roll is not None:
                return app.t("tip_turn") % coach.points(a.roll)
            return ""
        chosen = play.selected() if phase == "keep" else ()
        # Kept for the advice, phase and screen stack they were worked out
        # for, and whether the pick is the advised keep (the only thing
        # tip_words.move reads of it): a die pick redraws the screen, and
        # the wording took about a millisecond of it on the chip.
        picked = chosen == a.keep
        last = self._move.get(app)
        if last is not None and last[0] is a and last[1] == phase and last[2] == picked:
            return last[3]
        said = self._said(app, tip_words.move(phase, a.best, a.then, a.keep, chosen,
                                              len(game.roll), self._wins()))
        self._move.keep(app, (a, phase, picked, said))
        return said

    def reason(self, app, play):
        """Why (128x64's second line), or ''. Worked out once for each
        advice (its fraction takes about a millisecond of float sums on the
        chip, at every redraw before) and again after any change of the
        screen stack (the language may have changed)."""
        line = self._reason.get(app)
        if line is None:
            line = self._reason.keep(app, self._reason_line(app))
        return line

    def _reason_line(self, app):
        game = self.game
        a = self.advice
        if game.phase not in ("keep", "decide"):
            return ""
        if a is None:
            return app.t("tip_no_plan") if self.basic else ""
        chance = None
        from engine import coach

        if a.scale == coach.CHANCE:
            worth = a.bank if a.then == BANK and a.bank is not None else a.roll
            if worth is not None:
                chance = worth / 65536
        return self._said(app, tip_words.reason(a.then, a.farkle, self._wins(), chance))

    # ------------------------------------------------------------ screen

    def _seen(self, app):
        """A press after the note's step ends the note."""
        if self.note and app.buttons.pressed and app.now != self._note_at:
            self.note = ""

    def status(self, app, play, status):
        """The status line: a farkle's message, the note, then (tips on) the
        reason on 128x64 or the move on 72x40, else `status`."""
        self._seen(app)
        game = self.game
        if game.phase == "farkle" and status:
            return status
        if self.note:
            return self.note
        if not self.tips.active(play):
            return status
        self._update(play)
        if not app.big:
            return self.move(app, play) or status
        if game.phase == "keep":
            chosen = play.selected()
            if chosen and (self.advice is None or chosen != self.advice.keep):
                return status  # the value of the person's own pick
        return self.reason(app, play) or status

    def draw(self, app, canvas, play, dice_x, dice_y, gap, below):
        """Arrows under the suggested dice, and on 128x64 the move (in a
        farkle: the note or how often that happens) on the line below them;
        True when tips took that line (no set-aside dice)."""
        if not self.tips.active(play):
            return False
        self._seen(app)
        self._update(play)
        ui = app.ui
        size = ui.die
        big = app.big
        if not play.anim.armed and self.game.phase == "keep":
            top = dice_y + size + (4 if big else 3)  # below the cursor bar, a row apart
            for i in self.marks:
                ui.mark(canvas, dice_x + i * (size + gap) + size // 2, top)
        if not big:
            return False
        line = self.note if self.game.phase == "farkle" and self.note else self.move(app, play)
        if line:
            ui.text(canvas, ui.fit(line, ui.w), 0, below + 4)
        return True

    def start_line(self, app, play):
        """The line on a turn's first screen: the note, else the tip."""
        self._seen(app)
        if self.note:
            return self.note
        if not self.tips.active(play):
            return ""
        self._update(play)
        return self.move(app, play)


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
