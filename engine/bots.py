"""Computer players: `decide(view) -> action`.

A bot sees only an `engine.view.View` (public information: the dice on the
table and set aside, the turn total, every seat's banked total and state,
seat order, whose turn it is, the rules and the end-game state) and answers
with one action of the engine's vocabulary (see engine.game):

    ("roll",) ("bank",) ("take",) ("pass",) ("keep", dice)

The answer must be in `view.legal` (for a keep: one of `view.keeps`). A
user's own bot is any class with this `decide` method; the tournament tool
loads one as `path/file.py:ClassName`.

Levels (keys used in commands and saves; names on the device; the list
and what each needs is engine/levels.py):

    vorsichtig  Cautious  banks early, keeps every scoring die
    mutig       Bold      rolls more, keeps few dice to roll many
    profi       Expert    the exact most-points play (engine.turnplan), with
                          the end game in mind
    meister     Master    plays for the win: exact two-seat tables per
                          preset, read from the table files (engine.master)

Cautious and Bold weigh the dice left, the chance to farkle with them, and
the distance to the target and to the leader; both roll hot dice again
unless banking wins by landing exactly on the target.
"""

from engine.game import BANK, PASS, ROLL, TAKE
from engine.levels import factory
from engine.turnplan import CAPPED_HORIZON, UNIT, expected

EXACT_HORIZON = CAPPED_HORIZON  # an exact target further away plays like an open one


class Bot:
    """Base class: subclasses implement `decide(view)`."""

    key = ""

    def decide(self, view):
        """The action to take in `view` (one of `view.legal`)."""
        raise NotImplementedError


def wins_now(view, total):
    """True when banking `total` more points ends the game in this seat's
    favour at once (exact landing, or the first to the target in
    'immediate' games)."""
    rules = view.rules
    after = view.score() + total
    if rules.exact:
        return after == rules.target
    return rules.finish == "immediate" and after >= rules.target


class Simple(Bot):
    """Cautious and Bold: a farkle-risk rule with a temperament.

    Bank when the points at stake outweigh what one more roll is expected
    to add: turn total * chance to farkle > expected gain * (1 - chance) /
    `caution`, so a higher caution banks earlier. Behind the leader the
    caution halves (take risks); ahead of everybody it grows by half. Keep
    choice: points plus `die_worth` per die left to roll."""

    def __init__(self, key, caution, die_worth):
        self.key = key
        self.caution = caution
        self.die_worth = die_worth
        self._rules = None
        self._odds = []  # (farkle chance, expected best) by dice: prepare() fills it

    def prepare(self, rules):
        """Work out the farkle chance and the expected gain of a roll of
        1..6 dice for `rules` once (make_bot does it, so that no decision
        has to)."""
        if self._rules is rules:
            return
        from engine import odds  # (only these levels need it: not carried by the Expert's games)

        table: list = [None]  # index 0: no dice
        for n in range(1, rules.dice + 1):
            table.append((odds.farkle_chance(n, rules), odds.expected_best(n, rules)))
        self._rules = rules
        self._odds = table

    def decide(self, view):
        """See the class docstring."""
        if view.phase == "farkle":
            return PASS
        if view.phase == "start":
            return self._start(view)
        if view.phase == "keep":
            return ("keep", self._keep(view))
        return BANK if self._bank(view) else ROLL

    def _start(self, view):
        if view.offer and TAKE in view.legal:
            points, aside = view.offer
            left = view.rules.dice - len(aside)
            if left * self.die_worth >= 150 and points >= 150 * self.caution:
                return TAKE
        return ROLL

    def _keep(self, view):
        rules = view.rules
        best = None
        best_value = 0
        for dice, points in view.keeps:
            if wins_now(view, view.turn_total + points):
                return dice
            left = view.dice_left - len(dice) or rules.dice
            value = points + self.die_worth * left
            if best is None or value > best_value:
                best = dice
                best_value = value
        return best

    def _bank(self, view):
        if BANK not in view.legal:
            return False
        t = view.turn_total
        if wins_now(view, t):
            return True
        if view.hot:
            return False
        mine = view.score() + t
        if view.last_chance():
            return mine > view.leader_score()
        if view.rules.finish == "immediate" and mine >= view.rules.target:
            return True
        n = view.dice_left
        caution = self.caution
        lead = view.score() - view.leader_score()
        if lead < -1500:
            caution = caution / 2
        elif lead > 1500:
            caution = caution * 3 / 2
        self.prepare(view.rules)
        risk, gain = self._odds[n]
        return t * risk * caution >= gain * (1 - risk)


class Expert(Bot):
    """The most expected points (engine.turnplan), aware of the end game:
    the entry hurdle, an exact target (no keep may pass it; landing exactly
    wins), the last turn of a final round (play for the chance to pass the
    leader), takeover offers and hot dice that must be rolled."""

    key = "profi"

    def __init__(self, plan):
        self.plan = plan
        self._capped = (None, [])  # (room, capped values): none yet

    def decide(self, view):
        """See the class docstring."""
        if view.phase == "farkle":
            return PASS
        if view.phase == "start":
            if view.offer and TAKE in view.legal:
                points, aside = view.offer
                left = view.rules.dice - len(aside)
                if self._roll_worth(view, left, points) > self._roll_worth(view, view.rules.dice,
                                                                             0):
                    return TAKE
            return ROLL
        if view.phase == "keep":
            best = None
            best_value = 0
            for dice, points in view.keeps:
                left = view.dice_left - len(dice) or view.rules.dice
                value = self._stand_worth(view, left, view.turn_total + points)
                if best is None or value > best_value:
                    best = dice
                    best_value = value
            return ("keep", best)
        if BANK not in view.legal:
            return ROLL
        t = view.turn_total
        return BANK if self._bank_worth(view, t) >= self._roll_worth(view, view.dice_left,
                                                                        t) else ROLL

    # Every worth is on one scale per situation: 1/64 points, or chances
    # in 1/65536 when the last turn plays for passing the leader.

    def _need(self, view):
        """Points this turn must reach to pass the leader on a last turn,
        or 0 when playing for points."""
        if not view.last_chance():
            return 0
        need = view.leader_score() - view.score() + 50
        return need if need > 0 else 0

    def _bank_worth(self, view, t):
        if wins_now(view, t):
            return 1 << 40
        need = self._need(view)
        if need:
            return 65536 if t >= need else 0
        return t * UNIT

    def _roll_worth(self, view, n, t):
        """Worth of rolling n dice at turn total t."""
        plan = self.plan
        need = self._need(view)
        if need:
            if t >= need:
                return 65536
            return plan.reach_chance(n, t, need)
        room = self._room(view)
        if room:
            w = self._capped_table(room)
            return expected(plan.tables[n], n, view.rules.dice, t // 50,
                            lambda m, ti: w[m][ti], room // 50)
        return plan.roll_value(n, t, view.entered[view.me])

    def _stand_worth(self, view, m, t):
        """Worth of standing at turn total t with m dice to roll, free to
        bank (where allowed) or roll on."""
        if wins_now(view, t):
            return 1 << 40
        need = self._need(view)
        if need:
            return self.plan.reach_chance(m, t, need)
        room = self._room(view)
        if room:
            return self._capped_table(room)[m][t // 50]
        return self.plan.worth(m, t // 50, view.entered[view.me])

    @staticmethod
    def _room(view):
        """With an exact target close enough to matter: the room left for
        the turn total; else 0 (the plain plan serves, and the engine
        refuses keeps that would pass the target anyway)."""
        if not view.rules.exact:
            return 0
        room = view.rules.target - view.score()
        return room if room <= EXACT_HORIZON else 0

    def _capped_table(self, room):
        if self._capped[0] != room:
            self._capped = (room, self.plan.capped_values(room))
        return self._capped[1]


def cautious():
    """Vorsichtig: banks early and keeps every scoring die."""
    return Simple("vorsichtig", 2, 10)


def bold():
    """Mutig: rolls on longer and keeps few dice to roll many."""
    return Simple("mutig", 0.6, 70)


def make_cautious(rules, plan=None, tables=None):
    """The Cautious level's factory (engine.levels)."""
    bot = cautious()
    bot.prepare(rules)
    return bot


def make_bold(rules, plan=None, tables=None):
    """The Bold level's factory (engine.levels)."""
    bot = bold()
    bot.prepare(rules)
    return bot


def make_expert(rules, plan=None, tables=None):
    """The Expert level's factory (engine.levels): solves the plan when
    none is given."""
    if plan is None:
        from engine.plan_solver import solve_plan

        plan = solve_plan(rules)
    return Expert(plan)


def make_bot(key, rules, plan=None, tables: object = "tables"):
    """The bot of level `key` (engine.levels.LEVELS) for `rules`; `plan` (a
    TurnPlan) saves a level that needs one from solving it (about 0.3 s on
    a PC, half a minute on the device for six dice). `tables` (levels that
    read tables): the folder of the table files, or a reader with
    `open(name)`; without a table for the rules the Master plays its
    approximation (engine.master). ValueError for an unknown key."""
    return factory(key)(rules, plan, tables)
