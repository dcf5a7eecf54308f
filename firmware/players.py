"""Computer players for the app: one bot per level and rule set, with the
Expert's plan read from the shipped tables or the flash cache, or solved
(a second on a PC, about half a minute on the device: the play screen
shows a progress bar for it, see `needs_solving`). The
Master also opens its table file (`master-FINGERPRINT.bin`) from the shipped
tables when the reader can open files for seek access (`open(name)`);
without it the Master plays its documented approximation.

The bots and the plan code are imported where they are used: the new-game
form imports this module for `computer_name` alone, and on the device
every imported module's code takes heap."""

from engine.levels import PLAN, TABLES, needs
from firmware.files import PLAN as PLAN_FILE

# The pace of the plan's solve (firmware.screens.solving) until this device
# has measured its own ("solve" setting): ms per 100 solver steps on the
# chip, a step of 60-70 ms and its pass of the main loop. The form's
# estimate and the bar's first one both use it.
SOLVE_PACE = 7500


def computer_name(app, kind, number):
    """The name a computer of level `kind` plays under: "Profi 3"; the
    level's word whole ("Vorsichtig 2", not "Vorsicht 2", which reads as
    another word) unless the name would pass the longest a name may be."""
    from engine.game import MAX_NAME

    word = app.t("level_" + kind)
    tail = " %d" % number
    return word[:MAX_NAME - len(tail)] + tail


def plan_file(rules):
    """The file name of a stored plan for `rules`: named by what the plan
    depends on (Rules.plan_rules), so a change of only the target, the end
    of game or the tie rule finds the same plan and solves nothing."""
    return PLAN_FILE % rules.plan_rules().fingerprint()


def plan_known(rules, sources):
    """True when the Expert's plan for `rules` is shipped or cached in one
    of `sources` (the tables, the store's files), found without reading
    it: the new-game form tells the wait, the game's start solves it
    (firmware.flow.start_game)."""
    name = plan_file(rules)
    for source in sources:
        exists = getattr(source, "exists", None)
        if exists is not None and exists(name):
            return True
    return False


class Computers:
    """The computer players of one rule set: a bot per level, made once,
    and the Expert's plan they share; `tables` and `store_fs` are readers
    (`read(name) -> bytes`, OSError when missing), `store_fs` also writes."""

    def __init__(self, rules, tables=None, store_fs=None):
        self.rules = rules
        self.tables = tables
        self.store_fs = store_fs
        self.bots = {}
        self.plan = None

    def bot(self, kind):
        """The bot of level `kind` (made once)."""
        found = self.bots.get(kind)
        if found is None:
            from engine.bots import make_bot

            plan = self._plan() if needs(kind, PLAN) else None
            found = make_bot(kind, self.rules, plan,
                             self._opener() if needs(kind, TABLES) else None)
            self.bots[kind] = found
        return found

    def _opener(self):
        """The table reader when it can open files for seek access, else
        None (the Master then plays without a table)."""
        if self.tables is not None and hasattr(self.tables, "open"):
            return self.tables
        return None

    def needs_solving(self, kind):
        """True when the bot of `kind` needs a plan that is neither loaded,
        shipped nor cached: the app then solves it in steps with a progress
        bar (firmware.screens.solving) before the bot's first move."""
        return needs(kind, PLAN) and kind not in self.bots and self.stored_plan() is None

    def adopt(self, plan):
        """Take a freshly solved plan and cache it on flash under `plan_file`
        (no room on flash, or no block for the blob on the heap:
        the game goes on with the plan, which is solved again next time)."""
        self.plan = plan
        if self.store_fs is not None:
            try:
                self.store_fs.write(plan_file(self.rules), plan.to_bytes())
            except (OSError, MemoryError):
                pass

    def stored_plan(self):
        """The Expert's plan when it needs no solving: loaded already, or
        shipped, or cached on flash; else None. A reader that can open
        files gives it piece by piece (no block of the file's size on a
        fragmented heap); a damaged or unreadable copy counts as none."""
        if self.plan is None:
            from engine.codec import CodecError
            from engine.turnplan import TurnPlan

            name = plan_file(self.rules)
            for source in (self.tables, self.store_fs):
                if source is None:
                    continue
                try:
                    if hasattr(source, "open"):
                        f = source.open(name)
                        try:
                            self.plan = TurnPlan.from_file(f, self.rules)
                        finally:
                            f.close()
                    else:
                        self.plan = TurnPlan.from_bytes(source.read(name), self.rules)
                    break
                except (OSError, CodecError, MemoryError):
                    pass
        return self.plan

    def _plan(self):
        if self.stored_plan() is None:
            from engine.plan_solver import solve_plan

            self.adopt(solve_plan(self.rules))  # hosts without a screen
        return self.plan
