"""The play screen: dice, selection, turn total, and the computer's turns.

Buttons while dice are on the table: LEFT/RIGHT move the cursor, A toggles
the die under it, UP selects every scoring die (again: clears), B rolls on
with the selection, DOWN banks with it. At the start of a turn A rolls,
UP takes over an offered turn and B opens the standings. After a farkle A
passes the dice on. During a computer's turn any button hurries it.

Every decision is applied to the engine and saved before the new dice are
drawn; the short roll animation is decoration only.
"""

from engine import scoring
from engine.game import BANK, PASS, ROLL, TAKE, IllegalAction
from firmware import buttons
from firmware.clock import Due
from firmware.players import Players
from firmware.screen import Screen
from firmware.tips import Tips

ROLL_ANIM_MS = (600, 360, 150)  # per speed setting: slow, normal, fast
ANIM_FRAME_MS = 60
BOT_PACE_MS = (1100, 650, 250)  # per speed setting: slow, normal, fast
MESSAGE_EVENTS = ("hot", "penalty", "final", "playoff", "join", "leave")


class Play(Screen):
    """A game in progress (see the module docstring)."""

    name = "play"

    def __init__(self, app, game):
        self.game = game
        self.players = Players(game.rules, app.tables, app.session.store.fs)
        self.cursor = 0
        self.sel = []
        self.msg = ""
        self.anim = Due()  # the end of the roll animation (armed while the dice tumble)
        self.anim_frame = Due()  # its next frame
        self.bot_due = Due()  # a computer's next visible step
        self.bot_keep = None  # a computer's keep, shown before it is applied
        self.handed = -1  # the turn (events_total) whose hand-over was shown
        self.tips = Tips(app, game, self.players)  # firmware/tips.py: per person, off by default
        self._reset_selection()

    # ------------------------------------------------------------ helpers

    def _reset_selection(self):
        roll = self.game.roll
        self.sel = [False] * len(roll)
        self.cursor = 0
        for i, d in enumerate(roll):  # start on the first die that scores alone
            if d in (1, 5):
                self.cursor = i
                break

    def selected(self):
        """The selected dice, sorted."""
        roll = self.game.roll
        return tuple(sorted(roll[i] for i in range(len(roll)) if self.sel[i]))

    def _bad_dice(self):
        """Positions of selected dice that belong to no scoring combination
        of the selection, and the reason text key."""
        game = self.game
        chosen = self.selected()
        if not chosen:
            return [], ""
        points = scoring.score_keep(chosen, game.rules, game.open_singles)
        if points is not None:
            allowed = [k[0] for k in game.valid_keeps()]
            return [], ("" if chosen in allowed else "past_target")
        # The largest valid keep inside the selection; the rest do not score.
        best = ()
        for keep, _ in game.valid_keeps():
            if len(keep) > len(best) and _inside(keep, chosen):
                best = keep
        spare = list(chosen)
        for d in best:
            spare.remove(d)
        bad = []
        for i, d in enumerate(game.roll):
            if self.sel[i] and d in spare:
                spare.remove(d)
                bad.append(i)
        return bad, "not_scoring"

    def person_to_move(self):
        """True when a person (not a computer) is to move."""
        return not self.game.seat().is_bot

    # ------------------------------------------------------------ actions

    def _apply(self, app, actions):
        """Apply engine actions, save, and note what happened. A person's
        press is answered on the panel at once with a "working" mark on the
        screen as it was (App.busy: the tips' judgement, the engine and the
        save take tens of ms on the chip); a decision that rolls no dice
        then shows its new screen before the save (App.flush). Nothing of
        new dice shows before they are saved."""
        game = self.game
        person = self.person_to_move()
        if person:
            app.busy()
        before = game.events_total
        self.tips.judge(app, self, actions)
        try:
            for action in actions:
                game.apply(action)
        except IllegalAction as e:
            self.msg = app.tf("why_" + e.key, e.values)
            app.redraw()
            return False
        new = game.events_total - before
        rolled = False
        for event in game.events[len(game.events) - new:]:
            if event[0] == "roll":
                rolled = True
        if rolled:
            self.anim.set(app.now, ROLL_ANIM_MS[app.session.settings.get("speed", 1) % 3])
            self.anim_frame.set(app.now, 0)
        self._reset_selection()
        self.bot_keep = None
        self.msg = ""
        if person and not rolled:
            app.flush()
        failed = app.session.save_game(game)
        self.msg = app.t("save_failed") if failed else ""
        for event in game.events[len(game.events) - new:]:
            kind = event[0]
            if kind == "roll":
                app.cue = "roll"
            elif kind in ("farkle", "bust", "win"):
                app.cue = "win" if kind == "win" else "farkle"
            elif kind in MESSAGE_EVENTS and not failed:
                self.msg = _event_text(app, game, event)
        self.tips.confirmed(app, self)
        app.redraw()
        return True

    def table_action(self, app, action):
        """A join or a leave from the standings: applied and saved like a
        turn action (a seat that leaves during its turn hands the dice on);
        the tips file follows the new table. True when it was taken."""
        if not self._apply(app, [action]):
            return False
        self.tips.save(app)
        # A hand-over below names the seat that was to move, who may have
        # left: drop it, the play screen shows the right one when on top.
        app.discard("handover")
        self.handed = -1
        return True

    def _keep_then(self, app, then):
        """Keep the selection, then roll on or bank (one press)."""
        game = self.game
        if game.phase == "decide":
            self._apply(app, [then])
            return
        chosen = self.selected()
        bad, reason = self._bad_dice()
        if reason:
            self.msg = self._reason_text(app, bad, reason)
            return
        # The engine says why the keep (nothing chosen), or banking after
        # it, is refused: asked before anything is applied.
        keep = ("keep", chosen)
        refusal = game.why_not(keep) or (game.bank_refusal(chosen) if then == BANK else None)
        if refusal:
            self.msg = app.tf("why_" + refusal[0], refusal[1])
            return
        self._apply(app, [keep, then])

    def _reason_text(self, app, bad, reason):
        if reason == "past_target":
            return app.tf("why_past_target", (self.game.rules.target,))
        face = self.game.roll[bad[0]] if bad else 0
        return app.t("not_scoring" if app.big else "not_scoring_small") % face

    def _select_all(self):
        found = scoring.scoring_keep(self.game.roll, self.game.rules, self.game.open_singles)
        allowed = [k[0] for k in self.game.valid_keeps()]
        if found is None:
            return
        keep = found[0] if found[0] in allowed else (allowed[0] if allowed else ())
        if self.selected() == keep:
            self.sel = [False] * len(self.sel)
            return
        self.sel = _mark(self.game.roll, keep)

    # ------------------------------------------------------------ input

    def on_key(self, app, key, kind):
        """See the module docstring."""
        game = self.game
        if game.phase == "over":
            return
        if self.anim.armed:  # a press ends the animation and still counts
            self.anim.clear()
            app.redraw()
        if not self.person_to_move():
            if kind == "press":
                self.bot_due.set(app.now, 0)  # hurry the computer
                app.busy()  # its next step (a decision, a save) follows in this pass
            return
        phase = game.phase
        self.msg = ""
        if phase == "start":
            if key == buttons.A and kind == "press":
                self._apply(app, [ROLL])
            elif key == buttons.UP and kind == "press" and TAKE in game.legal_actions():
                self._apply(app, [TAKE])
            elif key == buttons.B and kind == "press":
                from firmware.screens.table import Standings

                app.push(Standings(game))
        elif phase == "keep":
            n = len(self.sel)
            if key == buttons.LEFT:
                self.cursor = (self.cursor - 1) % n
            elif key == buttons.RIGHT:
                self.cursor = (self.cursor + 1) % n
            elif key == buttons.A and kind == "press":
                self.sel[self.cursor] = not self.sel[self.cursor]
                bad, reason = self._bad_dice()
                if reason:
                    self.msg = self._reason_text(app, bad, reason)
            elif key == buttons.UP and kind == "press":
                self._select_all()
            elif key == buttons.B and kind == "press":
                self._keep_then(app, ROLL)
            elif key == buttons.DOWN and kind == "press":
                self._keep_then(app, BANK)
        elif phase == "decide":
            if key == buttons.B and kind == "press":
                self._apply(app, [ROLL])
            elif key == buttons.DOWN and kind == "press":
                self._apply(app, [BANK])
        elif phase == "farkle":
            if key == buttons.A and kind == "press":
                self._apply(app, [PASS])
        app.redraw()

    # ------------------------------------------------------------ time

    def tick(self, app, now):
        """Animation frames, computer turns, hand-overs, the end."""
        game = self.game
        if self.anim.armed:
            if self.anim.reached(now):
                self.anim.clear()
                return True
            if self.anim_frame.reached(now):
                self.anim_frame.set(now, ANIM_FRAME_MS)
                return True
            return False
        if game.phase == "over":
            from firmware.screens.table import Winner
            from firmware.stats import record_game

            app.session.clear_game()
            record_game(app.session.store, game)  # after the clear: never counted twice
            app.replace(Winner(game))
            self.tips.game_over(app)
            return True
        if self.person_to_move():
            return self._hand_over_due(app) or self.tips.tick(app, self, now)
        kind = game.seat().kind
        if self.players.needs_solving(kind):  # custom rules: work the plan out first
            from firmware.screens.solving import Solving

            app.push(Solving(self.players))
            return True
        if not self.bot_due.armed:
            self.bot_due.set(now, BOT_PACE_MS[app.session.settings.get("speed", 1) % 3])
            return False
        if not self.bot_due.reached(now):
            return False
        self.bot_due.clear()
        self._bot_step(app)
        # A person's turn may begin now: hand over in this same step, so that
        # no press reaches the play screen before the hand-over shows.
        self._hand_over_due(app)
        return True

    def _hand_over_due(self, app):
        """Show the hand-over when a person's turn begins; True when shown."""
        game = self.game
        if (game.phase == "start" and self.person_to_move() and self.handed != game.events_total
                and _hand_over(game)):
            from firmware.screens.table import HandOver

            self.handed = game.events_total
            app.push(HandOver(self))
            return True
        return False

    def _bot_step(self, app):
        """One visible step of a computer's turn."""
        game = self.game
        if self.bot_keep is not None:
            keep = self.bot_keep
            self.bot_keep = None
            self._apply(app, [keep])
            return
        from engine.view import View

        action = self.players.bot(game.seat().kind).decide(View(game))
        if action[0] == "keep":
            self.bot_keep = action  # show the choice first, apply it next step
            self.sel = _mark(game.roll, action[-1])  # the dice of ("keep", dice)
            app.redraw()
            return
        self._apply(app, [action])

    def start_turn(self, app):
        """From the hand-over screen: roll at once unless there is a choice."""
        if self.game.phase == "start" and not self.game.offer:
            self._apply(app, [ROLL])

    # ------------------------------------------------------------ drawing

    def draw(self, app, canvas):
        """The whole play screen."""
        ui = app.ui
        game = self.game
        seat = game.seat()
        canvas.fill(0)
        # Header: who plays and their total; the turn total on the right.
        turn = "+%d" % game.turn_total
        # the name gives way, the score stays whole
        ui.text(canvas, ui.fit_name("%%s %d" % seat.score, seat.name, ui.w - ui.width(turn) - 4),
                0, 0)
        ui.right(canvas, turn, 0)
        dice_y = ui.line + (1 if app.big else 0)
        phase = game.phase
        if phase == "start":
            self._draw_start(app, canvas, dice_y)
        else:
            self._draw_dice(app, canvas, dice_y)
        ui.hints(canvas, self._hint(app))

    def _draw_start(self, app, canvas, y):
        ui = app.ui
        game = self.game
        if game.offer:
            from firmware.screens.table import offer_text

            ui.center(canvas, offer_text(app, game), y + 2)
        elif game.turn_total:
            ui.center(canvas, app.t("left") % game.dice_left(), y + 2)
        self._draw_aside(app, canvas, y + ui.die + 3)
        status = self.msg or self.tips.start_line(app, self)
        if status:
            ui.text(canvas, ui.fit(status, ui.w), 0, ui.h - 2 * ui.line)

    def _draw_dice(self, app, canvas, y):
        ui = app.ui
        game = self.game
        roll = game.roll
        size = ui.die
        n = len(roll)
        gap = 4 if app.big else max(0, (ui.w - n * size) // max(1, n - 1))
        gap = min(gap, 4)
        width = n * size + (n - 1) * gap
        x = (ui.w - width) // 2
        bad = self._bad_dice()[0] if game.phase == "keep" else []
        animating = self.anim.armed
        seed = app.now
        for i in range(n):
            face = roll[i]
            if animating:  # decoration: random faces while the dice tumble
                seed = (seed * 1103515245 + 12345 + i) & 0x7FFFFFFF
                face = seed % 6 + 1
            chosen = i < len(self.sel) and self.sel[i] and not animating
            ui.draw_die(canvas, x, y, size, face, chosen, i in bad)
            if (i == self.cursor and game.phase == "keep" and self.person_to_move()
                    and not animating):
                canvas.fill_rect(x, y + size + 1, size, 2, 1)
            x += size + gap
        below = y + size + 4
        if not self.tips.draw(app, canvas, self, x - n * (size + gap), y, gap, below):
            self._draw_aside(app, canvas, below)
        status = self.msg or self.tips.status(app, self, self._status(app))
        if status:
            ui.text(canvas, ui.fit(status, ui.w), 0, ui.h - 2 * ui.line + (1 if app.big else 0))

    def _draw_aside(self, app, canvas, y):
        ui = app.ui
        if not app.big:
            return  # no room on 72x40: the turn total in the header says it
        x = 0
        for d in self.game.aside:
            ui.draw_die(canvas, x, y, ui.mini, d, True)
            x += ui.mini + 1
        if self.game.aside and self.game.phase not in ("start", "farkle"):
            ui.text(canvas, app.t("left") % self.game.dice_left(), x + 3,
                    y + (ui.mini - ui.font.height) // 2)

    def _status(self, app):
        game = self.game
        if game.phase == "farkle":
            key = "bust" if game.lost_kind == "bust" else "farkle"
            if not app.big:
                return app.t(key) + " -%d" % game.lost
            return app.t(key) + " " + app.t("lost") % game.lost
        if game.phase == "keep" and self.person_to_move():
            chosen = self.selected()
            if chosen:
                points = scoring.score_keep(chosen, game.rules, game.open_singles)
                if points is not None:
                    return app.t("selection") % points
            return app.t("pick_hint")
        return ""

    def _hint(self, app):
        game = self.game
        if not self.person_to_move():
            return app.t("computer_plays") if app.big else app.t("hurry_hint")
        phase = game.phase
        if phase == "start":
            return app.t("offer_hint") if game.offer else app.t("start_hint")
        if phase == "keep":
            return app.t("keep_hint") if app.big else app.t("keep_hint_small")
        if phase == "decide":
            return app.t("decide_hint")
        if phase == "farkle":
            return app.t("pass_hint")
        return ""

    def state(self):
        """The engine state and the selection, for the simulator's state file."""
        game = self.game
        return {
            "phase": game.phase,
            "current": game.current,
            "roll": list(game.roll),
            "aside": list(game.aside),
            "turn_total": game.turn_total,
            "scores": [s.score for s in game.seats],
            "selected": list(self.selected()),
            "cursor": self.cursor,
            "message": self.msg,
            "engine": game.to_data(),
        }


def _inside(keep, chosen):
    rest = list(chosen)
    for d in keep:
        if d not in rest:
            return False
        rest.remove(d)
    return True


def _mark(roll, keep):
    """Selection flags over `roll` for the dice of `keep`."""
    rest = list(keep)
    flags = []
    for d in roll:
        if d in rest:
            rest.remove(d)
            flags.append(True)
        else:
            flags.append(False)
    return flags


def _hand_over(game):
    """True when a person's turn begins at a table with more than one seat."""
    return len(game.active_seats()) > 1


def _event_text(app, game, event):
    kind = event[0]
    if kind == "hot":
        return app.t("hot")
    if kind == "penalty":
        return app.t("penalty") % (game.seats[event[1]].name, event[2])
    if kind in ("join", "leave"):
        return app.t("seat_joined" if kind == "join" else "seat_left") % event[2]
    if kind == "final":
        return app.t("final_round")
    return app.t("playoff")

