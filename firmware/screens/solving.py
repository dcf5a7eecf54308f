"""Working out the Expert's plan for custom rules, with a progress bar.

The plan is solved a row per step (engine.plan_solver.PlanSolver), so the
device keeps drawing and the buttons stay alive; when it is ready it is
cached on flash and the computer plays on. B leaves to the title (the game
stays saved; the work starts again next time).

The solve asks for the largest blocks of a session (a roll table of 2.4 KB,
rows of the plan). Late in a long session the chip's heap can be too
fragmented for them although enough is free: the screen lets go of the
screen modules nobody needs first, and after a MemoryError it collects and
goes on from the finished roll tables (a step that failed half-way may have
left its own work wrong, so only finished tables are kept). When that fails
RETRIES times, the game is put away (it is saved after every decision):
the screen goes on alone above the title, so the game, its computers and
tips, and their modules' code leave the heap, and when the plan is cached on flash the game is
loaded again and plays on.
"""

import gc

from engine.plan_solver import PlanSolver
from firmware import buttons
from firmware.clock import ticks_diff
from firmware.players import SOLVE_PACE
from firmware.screen import Screen

ROWS_PER_STEP = 1  # solver steps per loop pass: each is 60-70 ms on the chip (a few up to 0.5 s)
TRUST_AT = 4  # the pace seen alone tells the time left from 1/TRUST_AT of the steps on
RETRIES = 3  # MemoryErrors survived before the error goes to the recovery screen
# What the game held and the solve does not need: forgotten with the game
# put away, their code leaves large holes in the heap.
GAME_MODULES = ("engine.master", "engine.coach", "engine.bots", "engine.view", "engine.game",
                "firmware.tips", "firmware.tips_store", "firmware.coach_view",
                "firmware.tip_words")


class Solving(Screen):
    """Shows progress while `players` gets its plan solved."""

    name = "solving"

    def __init__(self, players):
        self.players = players
        self.solver = PlanSolver(players.rules)
        self.shown = -1
        self.retries = -1  # -1: the modules were not let go yet
        self.game_put_away = False  # the game put away to make room (see the module docstring)
        self.note = None  # the play screen's status line then ("Schlussrunde!"): not saved
        self.started = None  # app.now at the first step: the pace the new-game form tells
        self.pace = SOLVE_PACE  # the pace the form told (ms per 100 steps): the first estimate

    def _make_room(self, app):
        """Let go of the screen modules nobody needs now, then collect."""
        app.trim()
        gc.collect()

    def on_key(self, app, key, kind):
        """B: back to the title screen."""
        if key == buttons.B and kind == "press":
            app.home()

    def tick(self, app, now):
        """Some work, then a redraw when the bar moved."""
        if self.retries < 0:
            self.retries = 0
            self._make_room(app)
            self.started = now
            self.pace = app.session.settings["solve"] or SOLVE_PACE
        solver = self.solver
        try:
            for _ in range(ROWS_PER_STEP):
                if solver.step():
                    self.players.adopt(solver.plan)
                    self._measured(app, now, solver.total)
                    if self.game_put_away:
                        app.home()
                        app.flow.resume_game(app)
                        self._restore_note(app)
                    else:
                        app.pop()
                        # the game's own step now (a person's hand-over after
                        # a solve at the start): no frame of the bare table first
                        app.top().tick(app, now)
                    return True
        except MemoryError:
            if self.retries < RETRIES:
                self.retries += 1
            elif self._put_game_away(app):
                self.retries = 0
            else:
                raise
            # A new solver on the finished tables; the old one's rows are
            # garbage before the collection (a new solver allocates its rows
            # only in its steps).
            self.solver = PlanSolver(self.players.rules, solver.finished_tables())
            del solver
            self._make_room(app)
            return False
        percent = 100 * solver.done // max(1, solver.total)
        if percent != self.shown:
            self.shown = percent
            return True
        return False

    def _measured(self, app, now, steps):
        """Keep this device's pace (ms per 100 solver steps, the "solve"
        setting): the new-game form says how long the next solve takes."""
        if self.started is not None and steps > 0:
            app.session.settings["solve"] = max(1, ticks_diff(now, self.started) * 100 // steps)
            app.session.save_settings()

    def _put_game_away(self, app):
        """Leave only the title below this screen, so that the game and its
        players leave the heap; False when that was done already or there
        is no saved game to come back to."""
        if self.game_put_away or not app.session.has_game():
            return False
        from firmware.players import Computers

        old = self.players
        self.players = Computers(old.rules, None, old.store_fs)  # (only to cache the plan)
        play = app.find("play")
        self.note = play.msg if play is not None else None
        self.game_put_away = True
        app.home(self)
        app.forget(GAME_MODULES)
        return True

    def _restore_note(self, app):
        """Give the loaded play screen the status line it had."""
        play = app.find("play")
        if play is not None and self.note:
            play.msg = self.note

    def draw(self, app, canvas):
        """Title, bar and percentage."""
        ui = app.ui
        app.ui.clear(canvas)
        ui.title(canvas, app.t("solving"))
        y = ui.h // 2 - 3
        canvas.rect(4, y, ui.w - 8, 7, 1)
        canvas.fill_rect(5, y + 1, (ui.w - 10) * max(0, self.shown) // 100, 5, 1)
        left = self.seconds_left(app.now)
        line = app.t("solving_left") % (max(0, self.shown), left) if left is not None else (
            "%d%%" % max(0, self.shown))
        ui.center(canvas, line, y + 10)
        ui.hints(canvas, app.t("solving_hint"))

    def seconds_left(self, now):
        """About how many seconds the work still takes: one estimate from
        the form's to the end (issue 51: the form said ~62 s, the bar 12 s
        at 0%). It starts as the form's (the steps left at the pace it
        told) and moves to the pace seen here as the work gets done, wholly
        from a quarter of the steps on (TRUST_AT). None before the work
        starts."""
        solver = self.solver
        if self.started is None:
            return None
        total = max(1, solver.total)
        done = solver.done
        pace = self.pace
        spent = ticks_diff(now, self.started)
        if done > 0 and spent > 0:
            seen = spent * 100 // done
            part = min(total, done * TRUST_AT)  # the seen pace's weight, out of total
            pace = (seen * part + pace * (total - part)) // total
        return ((total - done) * pace // 100 + 999) // 1000

    def state(self):
        """How far the work is."""
        return {"percent": self.shown, "total": self.solver.total, "done": self.solver.done}
