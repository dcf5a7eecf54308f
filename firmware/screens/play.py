"""The play screen: dice, selection, turn total, and the computer's turns.

Buttons while dice are on the table: LEFT/RIGHT move the cursor, A picks or
drops the die under it, UP rolls on and DOWN banks. With the setting
"ask" on (the default) neither happens on one press: the first press of
UP or DOWN picks every scoring die (when nothing is picked yet) and
asks "Weiter mit 650?" or "650 sichern?"; the same key again does it,
any other key (B: "nein") asks nothing more. Where the
other choice is refused (the entry hurdle, hot dice that must be rolled)
the roll needs no question: nothing is at stake that could be banked.
With "ask" off, the first press picks and does it. B
drops the question, else the picked dice, else opens the standings. At the
start of a turn A rolls, UP takes over an offered turn and B opens the
standings. After a farkle A passes the dice on. During a computer's turn
B opens the standings (the way back to the main menu at an all-computer
table); any other button hurries it.

Every decision is applied to the engine and saved before the new dice are
drawn; the short roll animation is decoration only. The dice a person has
picked and the cursor are no decision: they are saved on their own
(Session.save_picks) once they have rested PICKS_REST_MS, and Continue
after a power-off brings them back with the roll (issue 34).
"""

import gc

from engine import scoring
from engine.game import BANK, PASS, ROLL, TAKE, IllegalAction
from firmware import buttons, font
from firmware.clock import Due
from firmware.players import Computers
from firmware.screen import Kept, Screen
from firmware.screens.lines import race
from firmware.tips import Tips

ROLL_ANIM_MS = (600, 360, 150)  # per speed setting: slow, normal, fast
ANIM_FRAME_MS = 60
BOT_PACE_MS = (1100, 650, 250)  # per speed setting: slow, normal, fast
NAME_LEAST = "Ab…2"  # the header keeps room for at least this much of a name
MESSAGE_EVENTS = ("hot", "penalty", "final", "playoff", "join", "leave")
PICKS_REST_MS = 1000  # picks unchanged this long are saved: one write for a burst of presses


class Play(Screen):
    """A game in progress (see the module docstring)."""

    name = "play"
    _chosen = None  # while drawing: the selection, worked out once per frame (see draw)
    _scored = None  # the last score asked for: (dice, open singles, rules, points)
    _unscored = None  # the last _bad_dice: (roll, rules, open singles, picks, answer)
    _head = None  # the header's texts and what they were for, a Kept (see _header)
    _bankable = None  # the last _may_bank: (roll, phase, turn total, picks), answer
    _looked_up = None  # the last _valid_points: (roll, open singles, phase, dice, points)
    _best = None  # the last _best_keep: (roll, open singles, keep)
    _faces = None  # the faces the roll's allowed keeps hold: (roll, open singles, faces)

    def __init__(self, app, game):
        self.game = game
        self.players = Computers(game.rules, app.tables, app.session.store.fs)
        self.cursor = 0
        self.sel = []
        self.msg = ""
        self.anim = Due()  # the end of the roll animation (armed while the dice tumble)
        self.anim_frame = Due()  # its next frame
        self.bot_due = Due()  # a computer's next visible step
        self.bot_keep = None  # a computer's keep, shown before it is applied
        self.handed_over = -1  # the turn (events_total) whose hand-over was shown
        self.asking = None  # ROLL or BANK: the question on screen; the same key again does it
        self.asked_total = 0  # the turn total the question is about
        self.ask_kind = ""  # "lose" or "win": a final-round bank's question says so
        self.tips = Tips(app, game, self.players)  # firmware/tips.py: per person, off by default
        self.picks_due = Due()  # the picks' save (see the module docstring)
        self.picks_saved = None  # what was saved last (or restored)
        self._reset_selection()

    # ------------------------------------------------------------ helpers

    def _reset_selection(self):
        self.picks_due.clear()  # a new roll: nothing of the old one to save
        roll = self.game.roll
        self.sel = [False] * len(roll)
        self.cursor = 0
        self.asking = None
        for i, d in enumerate(roll):  # start on the first die that scores alone
            if d in (1, 5):
                self.cursor = i
                break

    def _picks_key(self):
        """What the picks belong to: the seat, its turn and the dice."""
        game = self.game
        return [game.current, game.turn_total, list(game.roll), list(game.aside),
                [s.score for s in game.seats]]

    def _save_picks(self, app):
        """Save the picks and the cursor of a person's roll (when changed)."""
        if self.game.phase != "keep" or not self.person_to_move():
            return
        bits = 0
        for i, on in enumerate(self.sel):
            if on:
                bits |= 1 << i
        value = [self._picks_key(), bits, self.cursor]
        if value != self.picks_saved:
            app.session.save_picks(value)
            self.picks_saved = value

    def restore_picks(self, app):
        """After Continue: the picks and the cursor saved for this very
        roll (anything else in the file is an older table's, left alone)."""
        value = app.session.load_picks()
        n = len(self.game.roll)
        if (self.game.phase == "keep" and isinstance(value, list) and len(value) == 3
                and value[0] == self._picks_key() and isinstance(value[1], int)
                and isinstance(value[2], int) and 0 <= value[2] < n):
            self.sel = [bool(value[1] >> i & 1) for i in range(n)]
            self.cursor = value[2]
            self.picks_saved = value

    def selected(self):
        """The selected dice, sorted."""
        chosen = self._chosen
        if chosen is None:
            roll = self.game.roll
            chosen = tuple(sorted(roll[i] for i in range(len(roll)) if self.sel[i]))
        return chosen

    def _score(self, chosen):
        """score_keep of the dice `chosen` from the roll on the table. A
        valid keep's points are read from the game's kept list of them (a
        score takes about 0.6 ms on the chip), and the last answer is kept:
        the press that picks a die, and the dice, the status line and the
        tips of the frame that shows it, all ask."""
        game = self.game
        last = self._scored
        if (last is not None and last[1] is game.open_singles and last[2] is game.rules
                and last[0] == chosen):
            return last[3]
        points = self._valid_points(chosen)
        if points is None:  # not a valid keep: it may still score (past an exact target)
            points = scoring.score_keep(chosen, game.rules, game.open_singles)
        self._scored = (chosen, game.open_singles, game.rules, points)
        return points

    def _valid_points(self, chosen):
        """The points of `chosen` when it is one of the roll's valid keeps,
        else None. The last answer is kept: a die pick asks three times
        (which dice do not score, the status line, the hint line), and a
        walk of the keeps (with the game's check that its list is still
        the roll's) took about a millisecond of the pick on the chip."""
        game = self.game
        last = self._looked_up
        if (last is not None and last[0] is game.roll and last[1] is game.open_singles
                and last[2] == game.phase and last[3] == chosen):
            return last[4]
        found = None
        for keep, points in game.valid_keeps():
            if keep == chosen:
                found = points
                break
        self._looked_up = (game.roll, game.open_singles, game.phase, chosen, found)
        return found

    def _bad_dice(self):
        """Positions of selected dice that belong to no scoring combination
        of the selection, and the reason text key. The last answer is kept
        for the same picks of the same roll: the press that picks a die and
        the frame that shows it both ask (about 0.6 ms on the chip)."""
        game = self.game
        chosen = self.selected()
        if not chosen:
            return [], ""
        last = self._unscored
        if (last is not None and last[0] is game.roll and last[1] is game.rules
                and last[2] is game.open_singles and last[3] == self.sel):
            return last[4]
        found = self._find_bad_dice(chosen)
        self._unscored = (game.roll, game.rules, game.open_singles, list(self.sel), found)
        return found

    def _find_bad_dice(self, chosen):
        """`_bad_dice` worked out for the sorted selection `chosen`."""
        game = self.game
        if self._score(chosen) is not None:
            return [], ("" if self._valid_points(chosen) is not None else "past_target")
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
            self.anim.set(app.now, ROLL_ANIM_MS[app.session.settings["speed"]])
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
        self.handed_over = -1
        return True

    def _commit(self, app, then):
        """UP (roll on) or DOWN (bank) in the keep or decide phase: the first
        press picks every scoring die if none is picked and asks; the same
        key again does it. A roll while banking is refused is no risk taken
        by choice: it needs no question."""
        game = self.game
        asked = self.asking
        self.asking = None
        if game.phase == "decide":
            actions = [then]
            chosen, points = (), 0
        else:
            if not any(self.sel):
                self._select_all()
            chosen = self.selected()
            bad, reason = self._bad_dice()
            if reason:
                self.msg = self._reason_text(app, bad, reason)
                return
            keep = ("keep", chosen)
            refusal = game.why_not(keep)  # nothing chosen: the engine says so
            if refusal:
                self.msg = app.tf("why_" + refusal[0], refusal[1])
                return
            points = self._score(chosen)
            actions = [keep, then]
        # The engine says whether banking (after the keep) is refused: a
        # refused bank is told, a roll then needs no question.
        refusal = game.bank_refusal(chosen, points if chosen else None)
        if then == BANK and refusal:
            self.msg = app.tf("why_" + refusal[0], refusal[1])
            return
        total = game.turn_total + points
        # In the final round a bank that loses is asked about in words even
        # with "ask" off, and one that wins says so (engine: bank_outcome).
        outcome = None
        if then == BANK and (game.final >= 0 or game.playoff is not None):
            from engine.ending import bank_outcome

            outcome = bank_outcome(game, total)
        if asked != then and (outcome == "lose" or (
                (then == BANK or not refusal) and app.session.settings["ask"])):
            self.asking = then
            self.asked_total = total
            self.ask_kind = outcome or ""
            return
        self._apply(app, actions)

    def _unpickable(self, app, i):
        """Why die `i` of the roll cannot be picked (no allowed keep of the
        roll holds its face: it cannot score whatever else is picked), naming
        it; "" when it can. The faces of the allowed keeps are worked out
        once a roll (issue 51: such a pick made UP and DOWN do nothing)."""
        game = self.game
        face = game.roll[i]
        if face in (1, 5) and not game.rules.exact:
            return ""  # a single 1 or 5 always scores: no walk of the keeps for it
        last = self._faces
        if last is None or last[0] is not game.roll or last[1] is not game.open_singles:
            faces = []
            for keep, _ in game.valid_keeps():
                for d in keep:
                    if d not in faces:
                        faces.append(d)
            last = self._faces = (game.roll, game.open_singles, faces)
        if face in last[2]:
            return ""
        if game.rules.exact:  # it scores, but only past the target
            for keep, _ in scoring.keeps(game.roll, game.rules, game.open_singles):
                if face in keep:
                    return app.tf("why_past_target", (game.rules.target,))
        return self._reason_text(app, [i], "not_scoring")

    def _reason_text(self, app, bad, reason):
        if reason == "past_target":
            return app.tf("why_past_target", (self.game.rules.target,))
        face = self.game.roll[bad[0]] if bad else 0
        return app.t("not_scoring" if app.big else "not_scoring_small") % face

    def _select_all(self):
        """Pick every scoring die (the best keep the rules allow)."""
        keep = self._best_keep()
        if keep is not None:
            self.sel = _mark(self.game.roll, keep)

    def _best_keep(self):
        """The dice the first UP or DOWN picks: every scoring die (the best
        keep the rules allow), or None when nothing scores. Kept for the
        roll: the hint line asks at each frame without a pick (a die
        dropped again) whether DOWN could bank it."""
        game = self.game
        last = self._best
        if last is not None and last[0] is game.roll and last[1] is game.open_singles:
            return last[2]
        valid = game.valid_keeps()  # (kept by the game: keeps() walks every subset)
        # Without an exact target every keep is valid: the one with the most
        # dice is scoring_keep's. With one, a keep past it is not, and the
        # best allowed one comes first.
        found = (scoring.scoring_keep(game.roll, game.rules, game.open_singles)
                 if game.rules.exact else scoring.most_dice(valid))
        allowed = [k[0] for k in valid]
        best = None
        if found is not None:
            best = found[0] if found[0] in allowed else (allowed[0] if allowed else ())
        self._best = (game.roll, game.open_singles, best)
        return best

    def _may_bank(self):
        """False when DOWN would be refused now: below the entry hurdle, hot
        dice that must be rolled (the hint line then offers only the roll).
        The answer is kept for the same roll and picks."""
        game = self.game
        key = (game.roll, game.phase, game.turn_total, tuple(self.sel))
        last = self._bankable
        if last is not None and last[0] == key:
            return last[1]
        keep = ()
        points = None
        if game.phase == "keep":
            keep = self.selected() if any(self.sel) else self._best_keep()
            points = self._valid_points(keep) if keep else None
            if points is None:
                keep = None  # nothing valid picked: DOWN tells why, the hint keeps both
        answer = keep is None or not game.bank_refusal(keep, points)
        self._bankable = (key, answer)
        return answer

    # ------------------------------------------------------------ input

    def on_key(self, app, key, kind):
        """See the module docstring."""
        game = self.game
        if game.phase == "over":
            return
        if kind == "long" or (kind == "repeat" and key not in (buttons.LEFT, buttons.RIGHT)):
            return  # a held UP or DOWN must not answer its own question
        if self.anim.armed:  # a press ends the animation and still counts
            self._settled(app)
            app.redraw()
        if not self.person_to_move():
            if key == buttons.B:
                self._standings(app)  # the way out, also when only computers play
            else:
                self.bot_due.set(app.now, 0)  # hurry the computer
                app.busy()  # its next step (a decision, a save) follows in this pass
            return
        phase = game.phase
        self.msg = ""
        if key == buttons.B:
            if self.asking:
                self.asking = None  # "nein"
            elif phase == "keep" and any(self.sel):
                self.sel = [False] * len(self.sel)
                self.picks_due.set(app.now, PICKS_REST_MS)
            else:
                self._standings(app)
        elif key in (buttons.UP, buttons.DOWN) and phase in ("keep", "decide"):
            self._commit(app, ROLL if key == buttons.UP else BANK)
        elif phase == "keep" and key in (buttons.LEFT, buttons.RIGHT, buttons.A):
            self.asking = None
            n = len(self.sel)
            if key == buttons.A:
                refused = "" if self.sel[self.cursor] else self._unpickable(app, self.cursor)
                if refused:  # a die no keep of this roll holds is not picked: said why
                    self.msg = refused
                else:
                    self.sel[self.cursor] = not self.sel[self.cursor]
                    bad, reason = self._bad_dice()
                    if reason:
                        self.msg = self._reason_text(app, bad, reason)
            else:
                self.cursor = (self.cursor + (1 if key == buttons.RIGHT else -1)) % n
            self.picks_due.set(app.now, PICKS_REST_MS)
        elif key == buttons.A and phase in ("start", "farkle"):
            self._apply(app, [ROLL if phase == "start" else PASS])
        elif key == buttons.UP and phase == "start" and TAKE in game.legal_actions():
            self.take_over(app)
        else:
            self.asking = None
        app.redraw()

    def _standings(self, app):
        from firmware.screens.standings import Standings

        self.asking = None
        app.push(Standings(self.game))

    def take_over(self, app):
        """Take over the offered turn (from here or the hand-over): the
        inherited points and dice stay on screen until A rolls them."""
        self._apply(app, [TAKE])
        self.handed_over = self.game.events_total  # the same turn: no second hand-over

    # ------------------------------------------------------------ time

    def tick(self, app, now):
        """Animation frames, computer turns, hand-overs, the end."""
        game = self.game
        if self.picks_due.reached(now):
            self.picks_due.clear()
            self._save_picks(app)
        if self.anim.armed:
            if self.anim.reached(now):
                self._settled(app)
                return True
            if self.anim_frame.reached(now):
                self.anim_frame.set(now, ANIM_FRAME_MS)
                return True
            return False
        if game.phase == "over":
            # The end loads the winner's and the statistics' code late in a
            # session: the modules no screen needs go, and their garbage,
            # so that the code finds its blocks (a MemoryError here was seen).
            app.trim()
            gc.collect()
            from firmware.screens.standings import Winner
            from firmware.stats import record_game, solo_record

            app.session.clear_game()
            best = solo_record(app.session.store, game) if len(game.seats) == 1 else 0
            record_game(app.session.store, game)  # after the clear: never counted twice
            app.replace(Winner(game, best))
            self.tips.game_over(app)
            return True
        if self.person_to_move():
            return self._hand_over_due(app) or self.tips.tick(app, self, now)
        kind = game.seat().kind
        if self.players.needs_solving(kind) and not self._plan_after_trim(app, kind):
            # custom rules: work the plan out first
            from firmware.screens.solving import Solving

            app.push(Solving(self.players))
            return True
        if not self.bot_due.armed:
            self.bot_due.set(now, BOT_PACE_MS[app.session.settings["speed"]])
            return False
        if not self.bot_due.reached(now):
            return False
        self.bot_due.clear()
        self._bot_step(app)
        # A person's turn may begin now: hand over in this same step, so that
        # no press reaches the play screen before the hand-over shows.
        self._hand_over_due(app)
        return True

    def _settled(self, app):
        """The roll animation ends: the result shows (the tips lesson's end
        page, when the roll was its last step, comes after it)."""
        self.anim.clear()
        self.tips.settled(app, app.now)

    def _plan_after_trim(self, app, kind):
        """True when the plan `kind` needs loads once the modules no screen
        needs and the garbage have gone: a stored plan that found no block
        for its largest table on a cut-up heap (Computers.stored_plan
        counts that as none) is not solved again."""
        app.trim()
        gc.collect()
        return not self.players.needs_solving(kind)

    def _hand_over_due(self, app):
        """Show the hand-over when a person's turn begins; True when shown."""
        game = self.game
        if (game.phase == "start" and self.person_to_move()
                and self.handed_over != game.events_total and _hand_over(game)):
            from firmware.screens.turns import HandOver

            self.handed_over = game.events_total
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
        """From the hand-over screen: roll at once (declining an offer)."""
        if self.game.phase == "start":
            self._apply(app, [ROLL])

    # ------------------------------------------------------------ drawing

    def draw(self, app, canvas):
        """The whole play screen. The selection, which the dice, the status
        line and the tips each ask for, is worked out once for the frame."""
        self._chosen = self.selected()
        try:
            self._draw(app, canvas)
        finally:
            self._chosen = None

    def _draw(self, app, canvas):
        ui = app.ui
        game = self.game
        seat = game.seat()
        app.ui.clear(canvas)
        head, turn, turn_x = self._header(app, seat)
        rec = font.recorder
        if rec is not None:  # a host's text layer says the header in whole words
            rec.play_header(game, self._shown_total())
        ui.header(canvas, head, turn, turn_x)
        dice_y = ui.line + (1 if app.big else 0)
        phase = game.phase
        if phase == "start":
            self._draw_start(app, canvas, dice_y)
        else:
            self._draw_dice(app, canvas, dice_y)
        ui.hints(canvas, self._hint(app))

    def _header(self, app, seat):
        """The header's texts: who plays, their total and where they stand
        ("Anna: 350 -200", see race; alone "Zug 4: 350") fitted, and the
        turn total with its x on the
        right. Kept while they stay the same: a die pick or a cursor move
        redraws the screen, and fitting them took about half a millisecond
        of it on the chip."""
        game = self.game
        standing = race(game)
        points = self._shown_total()
        key = (seat.name, seat.score, seat.turns, points, len(game.seats), standing)
        kept = self._head
        if kept is None:
            kept = self._head = Kept()
        last = kept.get(app)
        if last is not None and last[0] == key:
            return last[1]
        ui = app.ui
        turn = "+%d" % points
        turn_w = ui.width(turn)
        right = ui.w  # (App.busy's mark goes to the bottom right, on the hint line)
        room = right - turn_w - (4 if app.big else 2)
        if len(game.seats) == 1:
            head = app.t("solo_head") % (seat.turns + 1, seat.score)
            if ui.width(head) > room:  # the score matters more than the turn's number
                head = "%d" % seat.score
        else:  # the race gives way to the name (kept to a few letters), the name to the score
            score = ": %d" % seat.score
            tails = [score]
            if standing is not None and standing[0] == "need":
                # the final round: its name and what wins it; the seat's own
                # total gives way to them ("Bea Schluss »3200", "Bea »3200")
                final = " " + app.t("race_need") % standing[1]
                sign = " " + app.t("race_need_small") % standing[1]
                tails = [score + final, final, sign, score] if app.big else [sign, score]
            elif standing is not None:  # the race in words, in a sign ("↑3550"), or not at all
                key = "race_" + standing[0]
                tails = [score + " " + app.t(key + "_small") % standing[1], score]
                if app.big:
                    tails.insert(0, score + " " + app.t(key) % standing[1])
            head = None
            # The whole name first, the words around it giving way; the race
            # is not dropped for a whole name (the bare score is last).
            for tail in tails[:-1] if standing is not None else tails:
                if ui.width(seat.name + tail) <= room:
                    head = seat.name + tail
                    break
            least = min(ui.width(NAME_LEAST), ui.width(seat.name))
            for tail in tails if head is None else ():
                if ui.width(tail) + least <= room:
                    # the number of "Spieler 2" stays: default names differ only there
                    head = ui.fit_name("%s" + tail, seat.name, room)
                    break
            if head is None:  # no room for a name: the race without it, else the score
                head = tails[0].lstrip(": ")
                if ui.width(head) > room:
                    head = "%d" % seat.score
        texts = (ui.fit(head, room), turn, right - turn_w)
        kept.keep(app, (key, texts))
        return texts

    def _shown_total(self):
        """The turn's points the header shows: a farkle's are gone (+0, the
        status line says what was lost) once the dice have settled; while
        they tumble nothing of the roll's result shows (issue 51)."""
        game = self.game
        return 0 if game.phase == "farkle" and not self.anim.armed else game.turn_total

    def _draw_start(self, app, canvas, y):
        ui = app.ui
        game = self.game
        if game.offer:
            from firmware.screens.turns import offer_text

            ui.center(canvas, offer_text(app, game), y + 2)
        elif game.turn_total:  # taken over: the inherited points stay in view
            key = "inherited" if app.big else "inherited_small"
            ui.center(canvas, app.t(key) % (game.turn_total, game.dice_left()), y + 2)
        self._draw_aside(app, canvas, y + ui.die + 3)
        status = self.msg or self.tips.start_line(app, self)
        if not status:
            from firmware.screens.turns import penalty_ahead, warn_text

            warn = penalty_ahead(game, game.current)
            status = warn_text(app, game, warn) if warn else ""
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
        keep = game.phase == "keep"
        bad = self._bad_dice()[0] if keep else []
        faces = roll
        chosen = self.sel
        if self.anim.armed:  # decoration: random faces while the dice tumble, none chosen
            seed = app.now
            faces = []
            for i in range(n):
                seed = (seed * 1103515245 + 12345 + i) & 0x7FFFFFFF
                faces.append(seed % 6 + 1)
            chosen = (False,) * n
            keep = False  # no cursor
        elif len(chosen) < n:
            chosen = chosen + [False] * (n - len(chosen))
        ui.dice_row(canvas, x, y, size, gap, faces, chosen, bad)
        if keep and self.cursor < n and self.person_to_move():
            ui.cursor(canvas, x + self.cursor * (size + gap), y + size + 1, size)
        x += n * (size + gap)
        below = y + size + 4
        if not self.tips.draw(app, canvas, self, x - n * (size + gap), y, gap, below):
            self._draw_aside(app, canvas, below)
        status = self.msg or self._status(app)
        if not self.asking:  # a question stays in view, tips or not
            status = self.msg or self.tips.status(app, self, status)
        if self.anim.armed:
            status = ""  # the result (a farkle, hot dice, a penalty) when the dice settle
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
        if self.asking:
            key = "ask_roll" if self.asking == ROLL else "ask_bank"
            if self.ask_kind:  # the final round: "200 sichern: damit verlierst du?"
                key += "_" + self.ask_kind + ("" if app.big else "_small")
            return app.t(key) % self.asked_total
        if game.phase == "farkle":
            seat = game.seat()
            penalty = game.rules.penalty
            if penalty and seat.score and seat.farkles == 2:  # the pass takes it
                # (no more than the seat has: the line says it stops at 0)
                key = "farkle_penalty_floor" if seat.score < penalty else "farkle_penalty"
                return app.t(key) % min(seat.score, penalty)
            said = app.t("bust" if game.lost_kind == "bust" else "farkle")
            if game.rules.penalty and seat.score and seat.farkles == 1:
                return app.t("farkle_warn")
            if not game.lost:  # nothing was at stake: no "0 lost"
                return said
            full = said + " " + app.t("lost") % game.lost
            return full if app.ui.width(full) <= app.ui.w else said + " -%d" % game.lost
        if game.phase in ("keep", "decide") and self.person_to_move():
            points = None
            if game.phase == "keep":
                chosen = self.selected()
                if chosen:
                    points = self._score(chosen)
            land = self._landing(app, points)
            if land:
                return land
            if game.phase == "decide":
                return ""
            if points is not None:
                return app.t("selection") % points
            return app.t("pick_hint" if app.big else "pick_hint_small")
        return ""

    def _landing(self, app, points):
        """On an exact target, with points on the table or picked (`points`,
        None for none): that banking them lands exactly, or how much is left
        to land; else None."""
        game = self.game
        rules = game.rules
        picked = points or 0
        if not rules.exact or not game.turn_total + picked:
            return None
        left = rules.target - game.seat().score - game.turn_total - picked
        small = "" if app.big else "_small"
        if points is not None:
            if left == 0:
                return app.t("land_sel_exact" + small) % points
            return app.t("land_sel" + small) % (points, left)
        if left == 0:
            return app.t("land_exact" + small)
        return app.t("land_left" + small) % left

    def _hint(self, app):
        game = self.game
        small = "" if app.big else "_small"
        if self.anim.armed and game.phase != "start":
            return ""  # the dice tumble: what they allow shows when they settle
        if not self.person_to_move():
            return app.t("hurry_hint" + small)
        if self.asking:
            return app.t(("ask_roll_hint" if self.asking == ROLL else "ask_bank_hint") + small)
        phase = game.phase
        if phase == "start":
            return app.t("offer_hint" + small) if game.offer else app.t("start_hint")
        if phase == "keep" and any(self.sel) and self._bad_dice()[1]:
            # picks that are no keep: UP and DOWN would be refused, so the
            # hint offers what helps (another pick)
            return app.t("pick_hint" + small)
        if phase in ("keep", "decide"):
            if not self._may_bank():  # the hint offers what the keys can do now
                return app.t(("roll_only_hint" if phase == "keep" else "decide_roll_hint") + small)
            return app.t("keep_hint" + small)
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
            "asking": self.asking[0] if self.asking else "",
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
    if kind == "penalty":  # the name whole, the points and why they are fewer
        from firmware.screens.turns import penalty_key

        key = penalty_key("penalty", event[2], game.rules.penalty)
        return app.ui.fit_name(app.t(key) % ("%s", event[2]), game.seats[event[1]].name,
                               app.ui.w)
    if kind in ("join", "leave"):
        return app.t("seat_joined" if kind == "join" else "seat_left") % event[2]
    if kind == "final":
        return app.t("final_round")
    return app.t("playoff")

