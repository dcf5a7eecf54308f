"""The analysis behind the tips: what the Expert would do, and why.

`Coach(plan, master=None)` answers for a `engine.view.View`:

- `advise(view)`: the best move (the Expert's: engine.bots.Expert, whose
  value functions it asks) with the numbers that explain it: for the stand
  after the best keep (phase "keep") or for the current stand (phase
  "decide"), the worth of banking and of rolling on, the dice left and the
  chance to farkle with them;
- `stand(view, keep)`: the same numbers for any keep, e.g. the person's
  selection;
- `cost(view, keep, then)`: how much a decision gives away against the
  best one (the tips' "that cost ..." line).

Worths are ints on the Expert's scale of the situation (`Advice.scale`):
"points" in 1/64 points (engine.turnplan.UNIT: the expected final points of
the turn), or "chance" in 1/65536 on a last turn of a final round, where
the only aim is to pass the leader. `WIN` marks a move that wins at once.

With a `master` (engine.master.Master, with a table: two seats under a
preset), `Advice.win_bank` / `win_roll` hold win chances (floats 0..1) of
banking and rolling on, and `cost` also says how much win chance a decision
gave away. Without one (no table, three or more seats, master not built)
these stay None.

Budget: one answer walks the keeps of a roll once (table look-ups) and at
most one roll table (tens of groups), so well under 5 ms on the MicroPython
Unix port; the farkle chances come from the plan's roll tables, not from
engine.odds (whose first call scores every multiset).
"""

from engine.bots import Expert, wins_now
from engine.game import BANK, PASS, ROLL, TAKE
from engine.turnplan import UNIT, roll_sums
from engine.view import View

WIN = 1 << 40  # the Expert's worth of a move that wins at once
POINTS = "points"
CHANCE = "chance"

# The View fields a stand copies (see _Stand).
_FIELDS = ("rules", "phase", "me", "roll", "aside", "turn_total", "dice_left", "hot",
           "open_singles", "offer", "scores", "entered", "farkles", "active", "final",
           "pending", "playoff", "legal", "keeps")


class Advice:
    """One answer of the coach (see the module docstring). Fields:

    phase     the view's phase
    scale     POINTS or CHANCE (the unit of `bank`, `roll`, `best_worth`)
    best      the best action: ROLL, BANK, TAKE, PASS or ("keep", dice)
    then      after the best keep (or in phase "decide"): ROLL or BANK
    keep      the dice the numbers are for (the best keep, or the asked one)
    points    their points
    total     the turn total after them
    left      dice to roll next from that stand
    bank      worth of banking there, None when banking is not allowed
    roll      worth of rolling on from there
    farkle    chance (float) that rolling `left` dice scores nothing
    best_worth the worth of the best decision (for costs)
    win_bank  the Master's win chance of banking (float) or None
    win_roll  the Master's win chance of rolling on (a lower bound) or None
    """

    # Filled in by Coach (None: not worked out); declared for the type check.
    best: "tuple | None"
    then: "tuple | None"
    keep: "tuple | None"
    bank: "int | float | None"
    roll: "int | float | None"
    best_worth: "int | float"
    win_bank: "float | None"
    win_roll: "float | None"

    def __init__(self, phase):
        self.phase = phase
        self.scale = POINTS
        self.best = None
        self.then = None
        self.keep = None
        self.points = 0
        self.total = 0
        self.left = 0
        self.bank = None
        self.roll = None
        self.farkle = 0.0
        self.best_worth = 0
        self.win_bank = None
        self.win_roll = None

    def best_then(self):
        """ROLL or BANK: the better of the two numbers (banking wins ties)."""
        if self.bank is not None and (self.roll is None or self.bank >= self.roll):
            return BANK
        return ROLL


class _Stand(View):
    """A view after a keep, before rolling on or banking (phase "decide");
    built from another view without a game."""

    def __init__(self, view, keep, points):
        for name in _FIELDS:
            setattr(self, name, getattr(view, name))
        rules = view.rules
        left = view.dice_left - len(keep)
        self.phase = "decide"
        self.hot = left == 0
        self.dice_left = left or rules.dice
        self.turn_total = view.turn_total + points
        self.aside = () if self.hot else tuple(view.aside) + tuple(keep)
        self.keeps = []
        self.legal = (ROLL, BANK) if may_bank(view, self.turn_total, self.hot) else (ROLL,)


def may_bank(view, total, hot):
    """True when the seat to move may bank `total` from a stand (hot: every
    die is set aside): not on hot dice that must be rolled (unless it lands
    exactly on the target), not below the entry hurdle."""
    rules = view.rules
    if hot and rules.hot_dice == "must":
        if not (rules.exact and view.score() + total == rules.target):
            return False
    if not view.entered[view.me] and total < rules.entry:
        return False
    return True


class Coach:
    """See the module docstring. `plan` is the rules' engine.turnplan.TurnPlan."""

    def __init__(self, plan, master=None):
        self.plan = plan
        self.expert = Expert(plan)
        self.master = master if master is not None and getattr(master, "table", None) else None
        self._farkle = [None] * (plan.rules.dice + 1)

    # ------------------------------------------------------------ numbers

    def farkle_chance(self, n):
        """Chance (float) that a roll of n dice scores nothing (from the
        plan's roll table: the groups without a choice)."""
        found = self._farkle[n]
        if found is None:
            found = roll_sums(self.plan.tables[n])[0] / 6 ** n
            self._farkle[n] = found
        return found

    def scale(self, view):
        """POINTS, or CHANCE on a last turn that must pass the leader."""
        return CHANCE if self.expert._need(view) else POINTS

    def _fill(self, advice, view, total, left, bankable):
        """The bank and roll worths of standing at `total` with `left` dice;
        returns the roll worth."""
        expert = self.expert
        advice.total = total
        advice.left = left
        advice.bank = expert._bank_worth(view, total) if bankable else None
        roll = advice.roll = expert._roll_worth(view, left, total)
        advice.farkle = self.farkle_chance(left)
        return roll

    def _win(self, advice, view):
        """The Master's win chances of banking and rolling from `view`
        (a decide view), where it has a table."""
        master = self.master
        if master is None:
            return
        try:
            found = master.win_chances(view)
        except (AttributeError, ValueError, OSError, IndexError):
            found = None
        if found:
            advice.win_bank = found.get("bank")
            advice.win_roll = found.get("roll")

    # ------------------------------------------------------------ answers

    def advise(self, view):
        """The best move in `view` and its numbers (an Advice)."""
        phase = view.phase
        advice = Advice(phase)
        advice.scale = self.scale(view)
        expert = self.expert
        rules = view.rules
        if phase == "keep":
            best = None
            worth = points = 0
            for keep, keep_points in view.keeps:
                left = view.dice_left - len(keep) or rules.dice
                keep_worth = expert._stand_worth(view, left, view.turn_total + keep_points)
                if best is None or keep_worth > worth:
                    best = keep
                    worth = keep_worth
                    points = keep_points
            dice = best
            advice.best = ("keep", dice)
            roll = self._keep(advice, view, dice, points)
            advice.then = advice.best_then()
            advice.best_worth = max(worth, roll,
                                    advice.bank if advice.bank is not None else 0)
            return advice
        if phase == "decide":
            bankable = BANK in view.legal
            roll = self._fill(advice, view, view.turn_total, view.dice_left, bankable)
            advice.then = advice.best_then()
            advice.best = advice.then
            bank = advice.bank
            advice.best_worth = max(roll, bank if bank is not None else 0)
            self._win(advice, view)
            return advice
        if phase == "start":
            dice = rules.dice
            advice.left = view.dice_left
            advice.total = view.turn_total
            advice.roll = expert._roll_worth(view, view.dice_left, view.turn_total)
            advice.farkle = self.farkle_chance(view.dice_left)
            advice.best = ROLL
            advice.best_worth = advice.roll
            if view.offer and TAKE in view.legal:
                points, aside = view.offer
                take = expert._roll_worth(view, dice - len(aside), points)
                if take > advice.roll:
                    advice.best = TAKE
                    advice.best_worth = take
            return advice
        advice.best = PASS  # farkle (or over: nothing to decide)
        advice.left = len(view.roll)
        if view.roll:
            advice.farkle = self.farkle_chance(len(view.roll))
        return advice

    def _keep(self, advice, view, dice, points):
        stand = _Stand(view, dice, points)
        advice.keep = dice
        advice.points = points
        roll = self._fill(advice, stand, stand.turn_total, stand.dice_left, BANK in stand.legal)
        self._win(advice, stand)
        return roll

    def stand(self, view, keep):
        """The numbers of standing after keeping `keep` (a sorted tuple from
        the roll on the table, phase "keep"); None when it is no valid keep."""
        for dice, points in view.keeps:
            if dice == keep:
                advice = Advice(view.phase)
                advice.scale = self.scale(view)
                self._keep(advice, view, dice, points)
                advice.then = advice.best_then()
                return advice
        return None

    def cost(self, view, action, keep=None):
        """What a decision gives away: (lost, lost_win, scale). `action` is
        ROLL, BANK, TAKE or PASS; in phase "keep" with `keep` the dice kept
        first. `lost` is on `scale` (WIN when it misses a win at once),
        `lost_win` the win chance lost (float) where the Master has a
        table, else None. (0, None, scale) when the decision was the best."""
        best = self.advise(view)
        scale = best.scale
        if view.phase == "keep" and keep is not None:
            mine = self.stand(view, keep)
            if mine is None:
                return 0, None, scale
        elif view.phase in ("decide", "start"):
            mine = best
        else:
            return 0, None, scale
        if action == BANK:
            worth, win = mine.bank, mine.win_bank
        elif action == TAKE and view.offer:
            points, aside = view.offer
            worth = self.expert._roll_worth(view, view.rules.dice - len(aside), points)
            win = None
        else:
            worth, win = mine.roll, mine.win_roll
        if worth is None:
            return 0, None, scale
        if best.best_worth >= WIN:
            lost = WIN if worth < WIN else 0
        else:
            lost = best.best_worth - worth
            if lost < 0:
                lost = 0
        lost_win = None
        if win is not None:
            top = self._best_win(view, best)
            if top is not None:
                lost_win = top - win if top > win else 0.0
        return lost, lost_win, scale

    def _best_win(self, view, best):
        """The best win chance among the choices of `view` (Master), or None."""
        master = self.master
        if master is None:
            return None
        if view.phase == "keep":
            try:
                found = master.win_chances(view)
            except (AttributeError, ValueError, OSError, IndexError):
                return None
            if not found or not found.get("keeps"):
                return None
            return max(v for _, v in found["keeps"])
        values = [v for v in (best.win_bank, best.win_roll) if v is not None]
        return max(values) if values else None


def points(worth):
    """A worth on the POINTS scale as whole points (rounded)."""
    return (worth + UNIT // 2) // UNIT


def percent(worth, scale):
    """A worth on the CHANCE scale as a whole percentage."""
    if scale != CHANCE:
        return 0
    return (worth * 100 + 32768) // 65536


def takes_win(view, total):
    """True when banking `total` more wins at once (engine.bots.wins_now)."""
    return wins_now(view, total)
