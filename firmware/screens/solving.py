"""Working out the Expert's plan for custom rules, with a progress bar.

The plan is solved a row per step (engine.turnplan.PlanSolver), so the
device keeps drawing and the buttons stay alive; when it is ready it is
cached on flash and the computer plays on. B leaves to the title (the game
stays saved; the work starts again next time).
"""

from engine.turnplan import PlanSolver
from firmware import buttons
from firmware.app import Screen

ROWS_PER_STEP = 1  # solver steps per loop pass: each is 60-70 ms on the chip (a few up to 0.5 s)


class Solving(Screen):
    """Shows progress while `players` gets its plan solved."""

    name = "solving"

    def __init__(self, players):
        self.players = players
        self.solver = PlanSolver(players.rules)
        self.shown = -1

    def on_key(self, app, key, kind):
        """B: back to the title screen."""
        if key == buttons.B and kind == "press":
            app.home()

    def tick(self, app, now):
        """Some work, then a redraw when the bar moved."""
        solver = self.solver
        for _ in range(ROWS_PER_STEP):
            if solver.step():
                self.players.adopt(solver.plan)
                app.pop()
                return True
        percent = 100 * solver.done // max(1, solver.total)
        if percent != self.shown:
            self.shown = percent
            return True
        return False

    def draw(self, app, canvas):
        """Title, bar and percentage."""
        ui = app.ui
        canvas.fill(0)
        ui.title(canvas, app.t("solving"))
        y = ui.h // 2 - 3
        canvas.rect(4, y, ui.w - 8, 7, 1)
        canvas.fill_rect(5, y + 1, (ui.w - 10) * max(0, self.shown) // 100, 5, 1)
        ui.center(canvas, "%d%%" % max(0, self.shown), y + 10)
        ui.hints(canvas, app.t("solving_hint"))

    def state(self):
        """How far the work is."""
        return {"percent": self.shown}
