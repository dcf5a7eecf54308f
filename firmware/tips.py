"""Tips on the play screen ("Mit Tipps lernen"), per person: the play
screen's handle on them.

`Tips` knows who has tips on and what their decisions cost
(firmware/tips_store.py keeps that in a file). Only when a person with tips
on is to move does it load `firmware.coach_view` (the coach's answer in
plain words, the marks, the cost notes) and with it engine.coach: a game
without tips never has their code on the heap.

What a person with tips on sees is described in firmware/coach_view.py;
the words come from firmware/tip_words.py. The new-game form's list of
people with tips is firmware/screens/tips_pick.py.

The tips lesson ("Tipps-Lektion"): a new player starts it from Rules &
help on the title (a game of its own against a cautious computer,
firmware.flow.start_lesson) or during any game from the standings (the
person to move, tips off). A page says what the
arrows and the tip line mean; then the tips are on for that person until
LESSON_STEPS confirmed decisions (rolling on, banking, or passing the
dice on after a farkle), each with a "Schritt n von 3" note, and a page
says the lesson is done and the tips are off again. The lesson lives on
this object only and the tips file says "off" for it: after a power-off
or reload the lesson is over and the tips are off.
"""

from engine.game import BANK, PASS, ROLL
from firmware import tips_store

LESSON_STEPS = 3
LESSON_END_MS = 1500  # after a last step that rolled: the result in view this long, then the page


class Tips:
    """The tips of one play screen (see the module docstring)."""

    offers_lesson = True  # the standings offer the tips lesson (a local game's)
    end_due = None  # a last lesson step that rolled: its end page, a Due once the dice settle
    end_pending = False  # that page is still to come

    def __init__(self, app, game, players):
        self.game = game
        self.players = players
        self.flags, self.cost = tips_store.load(app.session.store, game)
        self.view = None  # the CoachView, made when first needed
        self.lesson = -1  # the seat in the tips lesson (never saved), or -1
        self.steps = 0  # its confirmed decisions so far
        self._step = False  # the decision being applied is a lesson step

    def save(self, app):
        """Rewrite the tips file."""
        self._fit()
        tips_store.save(app.session.store, self.game, self.flags, self.cost)

    def _fit(self):
        n = len(self.game.seats)  # seats may join during a game
        for values in (self.flags, self.cost):
            while len(values) < n:
                values.append(0)

    def add_cost(self, app, seat, points):
        """Add `points` given away to the total of `seat`, saved."""
        self._fit()
        self.cost[seat] += points
        self.save(app)

    def on(self, i=None):
        """True when seat i (default: the seat to move) has tips on."""
        i = self.game.current if i is None else i
        if i == self.lesson:
            return True
        return i < len(self.flags) and bool(self.flags[i]) and not self.game.seats[i].is_bot

    def toggle(self, app, i=None):
        """Switch tips of seat i (default: the seat to move); a person only."""
        i = self.game.current if i is None else i
        if self.game.seats[i].is_bot:
            return
        self._fit()
        if i == self.lesson:  # switching off ends the lesson, no end page
            self.lesson = -1
        else:
            self.flags[i] = 0 if self.flags[i] else 1
        self._forget()
        self.save(app)

    def _forget(self):
        if self.view is not None:
            self.view.forget()  # worked out anew

    # ------------------------------------------------------------ the lesson

    def start_lesson(self, app, i=None):
        """Start the tips lesson for seat i (default: the seat to move; a
        person whose tips are off) and show its first page."""
        i = self.game.current if i is None else i
        if self.game.seats[i].is_bot or self.on(i):
            return
        self.lesson = i
        self.steps = 0
        self._forget()
        _page(app, "lesson_title", ("lesson_1", "lesson_2", "lesson_3"), "lesson")

    def in_lesson(self, i=None):
        """True when seat i (default: the seat to move) is in the lesson."""
        return self.lesson >= 0 and self.lesson == (self.game.current if i is None else i)

    def _lesson_step(self, app, play):
        """Count a confirmed decision of the lesson; the last one ends it."""
        self.steps += 1
        if self.steps < LESSON_STEPS:
            # (72x40 has one status line: the tip words keep it, issue 34)
            if self.view is not None and not self.view.note and app.big:
                self.view.set_note(app, app.t("lesson_step") % (self.steps, LESSON_STEPS))
            return
        self.lesson = -1
        self._forget()
        if play.anim.armed:  # a roll: its result first (issue 51), the page when it has shown
            self.end_pending = True
            return
        self._end_page(app)

    def _end_page(self, app):
        self.end_pending = False
        self.end_due = None
        _page(app, "lesson_done", ("lesson_end_1", "lesson_end_2"), "lesson_done")

    def settled(self, app, now):
        """The play screen's dice settled: a pending end page comes
        LESSON_END_MS later (or at the next decision, whichever is first)."""
        if self.end_pending and self.end_due is None:
            from firmware.clock import Due

            self.end_due = Due()
            self.end_due.set(now, LESSON_END_MS)

    def active(self, play):
        """True when the screen should show tips now."""
        return self.game.phase != "over" and self.on() and play.person_to_move()

    def _coach_view(self, play):
        """The CoachView when tips show now (made on first use), else None."""
        if self.view is None:
            if not self.active(play):
                return None
            from firmware.coach_view import CoachView

            self.view = CoachView(self)
        return self.view

    # ------------------------------------------------------------ decisions

    def judge(self, app, play, actions):
        """Before a person's decision is applied: what it gives away, and
        whether it is a step of the lesson (rolling on, banking, passing
        after a farkle)."""
        if self.end_pending:  # the lesson's end page before anything else happens
            self._end_page(app)
        phase = self.game.phase
        last = actions[-1] if actions else None
        self._step = self.in_lesson() and play.person_to_move() and (
            phase in ("keep", "decide") and last in (ROLL, BANK)
            or phase == "farkle" and last == PASS)
        view = self._coach_view(play)
        if view is not None:
            view.judge(app, play, actions)

    def confirmed(self, app, play):
        """After the judged decision was applied: its cost note, saved; a
        lesson step counted."""
        if self.view is not None:
            self.view.confirmed(app, play)
        if self._step:
            self._step = False
            self._lesson_step(app, play)

    def game_over(self, app):
        """At the end: each tips user's total cost, as a message above the
        winner; the file is forgotten."""
        game = self.game
        self.view = None  # the plan stays with the players; the heap needs room
        lines = []
        for i, seat in enumerate(game.seats):
            if not seat.is_bot and i < len(self.flags) and (self.flags[i] or self.cost[i]):
                lines.append(app.t("tip_total") % (seat.name, self.cost[i]))
        tips_store.clear(app.session.store)
        if lines:
            from firmware.screens.message import Message

            app.push(Message(app.t("tip_total_title"), lines))

    # ------------------------------------------------------------ screen

    def tick(self, app, play, now):
        """True when the shown tip changes (the coach answered), or the
        lesson's end page came."""
        due = self.end_due
        if due is not None and due.reached(now):
            self._end_page(app)
            return True
        view = self.view
        return view is not None and view.tick(app, play)

    def status(self, app, play, status):
        """The status line: the play screen's `status`, or a tip or note."""
        view = self._coach_view(play)
        return status if view is None else view.status(app, play, status)

    def draw(self, app, canvas, play, dice_x, dice_y, gap, below):
        """The marks and (128x64) the tip line below the dice; True when
        tips took that line."""
        view = self._coach_view(play)
        return view is not None and view.draw(app, canvas, play, dice_x, dice_y, gap, below)

    def start_line(self, app, play):
        """The line on a turn's first screen: a note or a tip, or ''."""
        view = self._coach_view(play)
        return "" if view is None else view.start_line(app, play)


def _page(app, title, paragraphs, name):
    """Show a page of the lesson. Its texts are in the texts' help book
    (tools/texts/gen.py): the page holds them, and the book is let go at
    once, so that the game goes on without it on the heap."""
    from firmware import strings
    from firmware.screens.pager import TextPage

    page = TextPage(app.t(title), [app.t(k) for k in paragraphs], name=name)
    if name == "lesson":  # the intro: say that A starts, and move a page a press
        page.hint_key = "lesson_hint" if app.big else "lesson_hint_small"
        page.by_page = True
    strings.release()
    app.push(page)
