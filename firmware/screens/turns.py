"""Between the turns: the hand-over and the lines it shows (the standings
menu and the winner are in firmware.screens.standings, loaded when opened:
a game that never opens them does not carry their code)."""

from firmware import buttons
from firmware.screen import Screen
from firmware.screens.lines import need_of, race, standing_lines


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


def penalty_key(key, taken, penalty):
    """The text key for a penalty of `taken` points where `penalty` was
    set: its "_floor" form when less was taken because the total stops at
    0 (docs/rules.md), so the line says why it is not the penalty chosen."""
    return key + "_floor" if taken < penalty else key


def warn_text(app, game, warn):
    """The warning before a third farkle in a row that costs `warn` points."""
    key = penalty_key("warn_next", warn, game.rules.penalty)
    return app.t(key if app.big else key + "_small") % warn


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
        if -points < game.rules.penalty:  # stopped at 0: the seat had less
            rest = app.t("turn_penalty_floor") % ""
        else:
            rest = app.t("turn_penalty") % ("", -points)
    else:
        rest = " +%d" % points
    return ui.fit(game.seats[seat].name, ui.w - ui.width(rest) - 1) + rest  # 1 px between


def final_lines(app, game, rows):
    """The final round on the hand-over in at most `rows` lines: what the
    seat to move needs to win, who reached the target with what, and each
    seat that still plays after it with what it needs ("Cleo braucht
    2550"); the line of who reached the target goes first when the others
    would not fit."""
    ui = app.ui
    out = []
    standing = race(game)
    if standing is not None and standing[0] == "need":
        out.append(app.t("final_need") % standing[1])
    reached = game.seats[game.final]
    by = ui.fit_name(app.t("final_by") % ("%s", reached.score), reached.name, ui.w)
    then = []
    for i in game.pending:
        if i != game.current:
            then.append(ui.fit_name(app.t("final_then") % ("%s", need_of(game, i)),
                                    game.seats[i].name, ui.w))
    if len(out) + 1 + len(then) <= rows or not then:
        out.append(by)
    return out + then


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
            from firmware.screens.standings import Standings

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
        # the final round is named on its hand-over ("Schlussrunde: Bea")
        title = "your_turn"
        if game.final >= 0 and game.playoff is None:
            title = "final_turn" if app.big else "final_turn_small"
        ui.title(canvas, ui.fit_name(app.t(title), game.seat().name, ui.w - 2))
        y = ui.line + 2
        lines = []
        if game.offer:
            lines.append(offer_text(app, game))
        elif game.turn_total:  # taken over before the hand-over showed again
            lines.append(app.t("inherited" if app.big else "inherited_small") % (
                game.turn_total, game.dice_left()))
        rows = max(1, (ui.h - y - ui.line) // ui.line)
        warn = penalty_ahead(game, game.current)
        if warn:
            lines.append(warn_text(app, game, warn))
        if game.playoff is None and game.final >= 0:
            lines += final_lines(app, game, rows - len(lines))
        elif game.playoff is not None:
            lines.append(app.t("playoff_note" if app.big else "playoff_note_small"))
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
