"""Around the turns: the hand-over, the standings and the winner."""

from firmware import buttons
from firmware.app import Screen
from firmware.screens.menu import Menu


def standing_lines(app, game):
    """'1. Name 1234' lines, best first: » marks the seat to play, • a seat
    that still has a turn in the final round or play-off round."""
    lines = []
    ending = game.final >= 0 or game.playoff is not None
    for rank, i in enumerate(game.standings()):
        seat = game.seats[i]
        mark = "»" if i == game.current and game.phase != "over" else " "
        last = " •" if ending and i in game.pending and i != game.current else ""
        lines.append("%d.%s%s %d%s" % (rank + 1, mark, seat.name, seat.score, last))
    return lines


def offer_text(app, game):
    """The takeover offer of `game` in a line that fits the screen."""
    points, aside = game.offer
    return app.t("offer" if app.big else "offer_small") % (points, game.rules.dice - len(aside))


class HandOver(Screen):
    """Names who is next and waits for A, so nobody moves by accident; B
    opens the standings."""

    name = "handover"

    def __init__(self, play):
        self.play = play

    def on_key(self, app, key, kind):
        """A starts the turn, B shows the standings."""
        if kind != "press":
            return
        if key == buttons.A:
            app.pop()
            self.play.start_turn(app)
        elif key == buttons.B:
            app.push(Standings(self.play.game))

    def draw(self, app, canvas):
        """The name, the standings, the hint."""
        ui = app.ui
        game = self.play.game
        canvas.fill(0)
        ui.title(canvas, app.t("your_turn") % game.seat().name)
        y = ui.line + 2
        if game.offer:
            ui.text(canvas, ui.fit(offer_text(app, game), ui.w), 0, y)
            y += ui.line
        if game.playoff is not None or game.final >= 0:
            key = "playoff_note" if game.playoff is not None else "final_note"
            ui.text(canvas, ui.fit(app.t(key if app.big else key + "_small"), ui.w), 0, y)
            y += ui.line
        rows = max(1, (ui.h - y - ui.line) // ui.line)
        ui.lines(canvas, standing_lines(app, game)[:rows], y)
        ui.hints(canvas, app.t("handover_offer_hint" if game.offer else "press_a_roll"))

    def state(self):
        """Whose turn it is."""
        return {"next": self.play.game.seat().name}


class Standings(Menu):
    """Every seat's banked total; A or B returns to the game, the last row
    leaves to the title screen (the game stays saved)."""

    name = "standings"

    def __init__(self, game):
        Menu.__init__(self)
        self.game = game

    def title(self, app):
        """The screen title."""
        return app.t("table")

    def labels(self, app):
        """The standings, then 'back' and 'to the main menu'."""
        return standing_lines(app, self.game) + [app.t("back_to_game"), app.t("to_title")]

    def choose(self, app, index):
        """The last entry goes to the title, everything else back."""
        if index == len(self.game.active_seats()) + 1:
            app.home()
        else:
            app.pop()


class Winner(Screen):
    """The end: who won and the final standings; A returns to the title."""

    name = "winner"

    def __init__(self, game):
        self.game = game

    def on_key(self, app, key, kind):
        """A (or B) to the title screen."""
        if kind == "press" and key in (buttons.A, buttons.B):
            app.home()

    def draw(self, app, canvas):
        """The winner and the standings."""
        ui = app.ui
        game = self.game
        canvas.fill(0)
        ui.title(canvas, app.t("winner") % game.seats[game.winner].name)
        rows = max(1, (ui.h - 2 * ui.line) // ui.line)
        ui.lines(canvas, standing_lines(app, game)[:rows])
        ui.hints(canvas, app.t("winner_hint"))

    def state(self):
        """The winner and the totals."""
        return {"winner": self.game.winner, "scores": [s.score for s in self.game.seats]}
