"""The standings menu (tips, joining, leaving, help, to the title) and the
winner screen. Loaded when a player opens the standings or a game ends:
the hand-over between turns (firmware.screens.turns) does not need them."""

from engine.levels import LEVELS
from firmware import buttons
from firmware.screen import Menu, Screen
from firmware.screens.lines import standing_lines


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
                if play is not None and not play.tips.on() and play.tips.offers_lesson:
                    out.append("lesson")  # the tips lesson (firmware/tips.py; not in a room)
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
    if not play.table_action(app, ("join", name, kind)):
        return
    if not kind:
        app.session.remember_name(name)
    table = app.find("standings")
    if table is not None:  # one row more above the entries: rest on "back to the game"
        table.index = len(standing_lines(app, table.game))


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
