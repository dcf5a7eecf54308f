"""Around the turns: the hand-over, the standings and the winner."""

from engine.levels import LEVELS
from firmware import buttons
from firmware.screen import Menu, Screen
from firmware.screens.lines import race, standing_lines


def offer_text(app, game):
    """The takeover offer of `game` in a line that fits the screen."""
    points, aside = game.offer
    return app.t("offer" if app.big else "offer_small") % (points, game.rules.dice - len(aside))


def penalty_ahead(game, seat):
    """The points the next farkle of `seat` costs when it is the third in a
    row (the penalty, no more than the seat has), else 0."""
    seat = game.seats[seat]
    if game.rules.penalty and seat.farkles == 2:
        return min(seat.score, game.rules.penalty)
    return 0


def turn_results(game):
    """(seat, points) for each turn played since the last person's turn
    began, most recent first; points None for a farkle or bust, a negative
    number for a farkle that cost the penalty (the hand-over says what the
    computers, and the person before, did)."""
    out = []
    events = game.events
    i = len(events) - 1
    if i >= 0 and events[i][0] == "turn":
        i -= 1  # the turn that begins now
    paid = 0  # a penalty seen (events run backwards: it follows its farkle)
    while i >= 0:
        ev = events[i]
        kind = ev[0]
        if kind == "bank":
            out.append((ev[1], ev[2]))
        elif kind == "penalty":
            paid = ev[2]
        elif kind in ("farkle", "bust"):
            out.append((ev[1], -paid if paid else None))
            paid = 0
        elif kind == "turn" and not game.seats[ev[1]].is_bot:
            break
        i -= 1
    return out


def result_line(app, game, result):
    """'Profi 2 +650', 'Profi 2: Nichts' or 'Profi 2: 3×Nichts -1000', the
    name shortened to fit."""
    ui = app.ui
    seat, points = result
    if points is None:
        rest = app.t("turn_nothing") % ""
    elif points < 0:
        rest = app.t("turn_penalty") % ("", -points)
    else:
        rest = " +%d" % points
    return ui.fit(game.seats[seat].name, ui.w - ui.width(rest) - 1) + rest  # 1 px between


def final_lines(app, game):
    """The final round on the hand-over: what the seat to move needs to
    win, who reached the target with what, and, when others still play
    after it, that the • marks them."""
    ui = app.ui
    out = []
    standing = race(game)
    if standing is not None and standing[0] == "need":
        out.append(app.t("final_need") % standing[1])
    reached = game.seats[game.final]
    out.append(ui.fit_name(app.t("final_by") % ("%s", reached.score), reached.name, ui.w))
    for i in game.pending:
        if i != game.current:  # a • in the standings below
            out.append(app.t("final_note" if app.big else "final_note_small"))
            break
    return out


class HandOver(Screen):
    """Names who is next and what the turns before scored, and waits for A,
    so nobody moves by accident; with a takeover offer UP takes it and A
    rolls fresh; B opens the standings."""

    name = "handover"

    def __init__(self, play):
        self.play = play

    def on_key(self, app, key, kind):
        """A starts the turn (declining an offer), UP takes the offer, B
        shows the standings."""
        if kind != "press":
            return
        if key == buttons.A:
            app.pop()
            self.play.start_turn(app)
        elif key == buttons.UP and self.play.game.offer:
            app.pop()
            self.play.take_over(app)
        elif key == buttons.B:
            app.push(Standings(self.play.game))

    def tick(self, app, now):
        """The tips' coach answers here too: the choice of an offer is made
        on this screen, so its tip belongs here."""
        play = self.play  # (draw made the coach view, when tips are on)
        return play.tips.tick(app, play, now)

    def draw(self, app, canvas):
        """The name, the offer, what the last turns scored, the standings,
        a tip (tips on), the hint."""
        ui = app.ui
        game = self.play.game
        app.ui.clear(canvas)
        ui.title(canvas, ui.fit_name(app.t("your_turn"), game.seat().name, ui.w - 2))
        y = ui.line + 2
        lines = []
        if game.offer:
            lines.append(offer_text(app, game))
        elif game.turn_total:  # taken over before the hand-over showed again
            lines.append(app.t("inherited" if app.big else "inherited_small") % (
                game.turn_total, game.dice_left()))
        warn = penalty_ahead(game, game.current)
        if warn:
            lines.append(app.t("warn_next" if app.big else "warn_next_small") % warn)
        if game.playoff is None and game.final >= 0:
            lines += final_lines(app, game)
        elif game.playoff is not None:
            lines.append(app.t("playoff_note" if app.big else "playoff_note_small"))
        rows = max(1, (ui.h - y - ui.line) // ui.line)
        # the results, and a standings row (the final round's lines come first)
        done = turn_results(game)[:max(0 if lines else 1, rows - len(lines) - 1)]
        lines += [result_line(app, game, r) for r in done]
        ui.lines(canvas, lines[:rows], y)
        y += ui.line * min(rows, len(lines))
        rows = (ui.h - y - ui.line) // ui.line
        tip = self.play.tips.start_line(app, self.play)
        if tip and rows > 0:  # the tip on the last line above the hint
            rows -= 1
            ui.text(canvas, ui.fit(tip, ui.w), 0, y + rows * ui.line)
        if rows > 0:
            standings = standing_lines(app, game)
            own = game.standings().index(game.current)
            if own >= rows:  # the row of the seat to move stays in view
                standings = standings[:rows - 1] + [standings[own]]
            ui.lines(canvas, standings[:rows], y)
        if game.offer:
            ui.hints(canvas, app.t("offer_hint" if app.big else "offer_hint_small"))
        else:
            ui.hints(canvas, app.t("press_a_roll"))

    def state(self):
        """Whose turn it is, the offer, what the last turns scored."""
        game = self.play.game
        offer = game.offer
        return {"next": game.seat().name, "offer": [offer[0], list(offer[1])] if offer else [],
                "results": [[game.seats[i].name, p] for i, p in turn_results(game)]}


class Standings(Menu):
    """Every seat's banked total; A or B returns to the game, the last row
    leaves to the title screen (the game stays saved). Between turns a
    person or a computer may join (at 0, as the engine allows) and anybody
    may leave."""

    name = "standings"

    def __init__(self, game):
        Menu.__init__(self)
        self.game = game

    def title(self, app):
        """The screen title."""
        return app.t("table")

    def _entries(self, app):
        """The rows below the standings: back, tips on/off for the person to
        move (firmware/tips.py) and, while they are off, the tips lesson,
        join and leave, rules & help, to the title."""
        out = ["back_to_game"]
        play = app.find("play")
        game = self.game
        if play is not None and game.phase != "over":
            if not game.seat().is_bot:
                out.append("tips")
                if play is not None and not play.tips.on():
                    out.append("lesson")  # the tips lesson (firmware/tips.py)
            if game.why_not(("join", "X", "")) is None:  # the engine decides
                out.append("menu_join")
            if len(game.active_seats()) > 1:
                out.append("menu_leave")
        return out + ["help", "to_title"]

    def labels(self, app):
        """The standings, then 'back', tips, help and 'to the main menu'."""
        out = standing_lines(app, self.game)
        for key in self._entries(app):
            if key == "tips":  # offered only under a play screen
                play = app.find("play")
                state = "tips_off"
                if play is not None and play.tips.on():
                    state = "tips_lesson" if play.tips.in_lesson() else "tips_on"
                out.append(app.t("tips") + ": " + app.t(state))
            else:
                out.append(app.t(key))
        return out

    def choose(self, app, index):
        """The last entry goes to the title, tips switch, help opens, the
        rest goes back."""
        entries = self._entries(app)
        k = index - (len(self.labels(app)) - len(entries))
        key = entries[k] if k >= 0 else "back_to_game"
        if key == "to_title":
            app.home()
        elif key == "tips":
            screen = app.find("play")
            if screen is not None:
                screen.tips.toggle(app)
        elif key == "lesson":
            screen = app.find("play")
            app.pop()  # back to the game, the lesson's first page above it
            if screen is not None:
                screen.tips.start_lesson(app)
        elif key == "help":
            from firmware.screens.help import HelpMenu

            app.push(HelpMenu(self.game.rules))
        elif key == "menu_join":
            app.push(JoinMenu(app.find("play")))
        elif key == "menu_leave":
            from firmware.screens.seat_pick import SeatPick

            play = app.find("play")
            if play is not None:
                app.push(SeatPick(self.game, "menu_leave",
                                  lambda app, i: self._ask_leave(app, play, i)))
        else:
            app.pop()


    def _ask_leave(self, app, play, seat):
        """Ask before seat `seat` leaves; after it left, the cursor rests on
        "back to the game" (the rows below the standings moved up)."""
        from firmware.screens.message import Confirm

        def leave(app):
            if play.table_action(app, ("leave", seat)):
                self.index = len(standing_lines(app, self.game))  # "back_to_game"

        name = self.game.seats[seat].name
        app.push(Confirm(app.ui.fit_name(app.t("leave_ask"), name, app.ui.w - 2),
                         [app.t("leave_note")], leave))


class JoinMenu(Menu):
    """Who joins: a person (a saved or a new name) or a computer of a level,
    named like the computers of a new game."""

    name = "join"

    def __init__(self, play):
        Menu.__init__(self)
        self.play = play

    def title(self, app):
        """The screen title."""
        return app.t("menu_join")

    def labels(self, app):
        """A person, then the computer levels."""
        return [app.t("person")] + [app.t("level_" + k) for k in LEVELS]

    def choose(self, app, index):
        """A person picks a name first; a computer joins at once."""
        play = self.play
        taken = [s.name for s in play.game.seats]
        if index == 0:
            from firmware.screens.names import NamePicker, default_name

            app.replace(NamePicker(taken, lambda app, name: _join(app, play, name, ""),
                                   default_name(app, len(taken) + 1, taken)))
            return
        from firmware.players import computer_name

        kind = LEVELS[index - 1]
        n = len(taken) + 1
        while computer_name(app, kind, n) in taken:
            n += 1
        app.pop()
        _join(app, play, computer_name(app, kind, n), kind)


def _join(app, play, name, kind):
    if play.table_action(app, ("join", name, kind)) and not kind:
        app.session.remember_name(name)



def win_reason(app, game, best=0):
    """The lines under the winner's name: why a tie went this way (by the
    rule `tie`, docs/rules.md), that a play-off decided, or, alone, the
    turns to the target and the record (`best`: the fewest turns before,
    0 for none)."""
    small = "" if app.big else "_small"
    seat = game.seats[game.winner]
    if len(game.seats) == 1:
        turns = seat.turns
        record = app.t("solo_record") if not best or turns < best else app.t("solo_best") % best
        return [app.t("solo_turns") % turns, record]
    if game.playoff is not None:
        return [app.t("won_playoff")]
    tied = [i for i in game.active_seats() if game.seats[i].score == seat.score]
    if len(tied) > 1:
        return [app.t("tie_final" + small) if game.winner == game.final else app.t("tie_seat")]
    return []


class Winner(Screen):
    """The end: who won, why when it was close (or a solo game's turns and
    record), and the final standings; A starts a rematch (the same table
    and rules, firmware.flow.rematch), B returns to the title."""

    name = "winner"

    def __init__(self, game, best=0):
        self.game = game
        self.best = best  # a solo game: the record before this game (0: none)

    def on_key(self, app, key, kind):
        """A: a rematch; B: to the title screen."""
        if kind != "press":
            return
        if key == buttons.A:
            app.flow.rematch(app, self.game)
        elif key == buttons.B:
            app.home()

    def draw(self, app, canvas):
        """The winner, the reason, and the standings."""
        ui = app.ui
        game = self.game
        app.ui.clear(canvas)
        ui.title(canvas, app.t("winner") % game.seats[game.winner].name)
        rows = max(1, (ui.h - 2 * ui.line) // ui.line)
        ui.lines(canvas, (win_reason(app, game, self.best) + standing_lines(app, game))[:rows])
        ui.hints(canvas, app.t("winner_hint"))

    def state(self):
        """The winner and the totals."""
        return {"winner": self.game.winner, "scores": [s.score for s in self.game.seats]}
