"""Solving a turn plan (engine.turnplan.TurnPlan): the roll tables and the
dynamic programme over (dice left, turn total).

Only a host or a screen that solves loads this: a game plays from a stored
plan (the presets ship theirs, a device keeps the plan it solved), so the
solver's code stays off the heap while a game is played.

- `roll_tables(rules)`: for n dice, the 6**n rolls grouped by the choices
  they offer (the format is in engine.turnplan's docstring);
- `solve_plan(rules)`: the whole plan at once (about 1 s under the
  MicroPython Unix port for the presets, so minutes on the device);
- `PlanSolver`: the same a little at a time, for the device's progress bar.
"""

import gc

from engine import odds, scoring
from engine.rules import TOP_GUESS
from engine.turnplan import UNIT, TurnPlan, expected, reach_size, roll_sums

MAX_TOP = 2000  # turn totals considered: up to 100000 points (2000 * 50)
ROLLS_PER_STEP = 8  # a solver step groups this many rolls (under 70 ms on the emulated Pico)
# The block PlanSolver keeps for the largest roll table while its rolls are
# grouped (six dice: 2.4 to 2.6 KB for the presets). `table` asks for the
# table first once it is let go, so the table alone must fit: the sorted
# list of the groups comes after it, wherever it fits. See RollGrouping.
ROOM = 3072


def roll_table(n, rules):
    """The grouped choices of a roll of n dice under `rules` (a bytearray,
    read-only by convention)."""
    grouping = RollGrouping(n, rules)
    while not grouping.step(1000):
        pass
    return grouping.table()


class RollGrouping:
    """Builds `roll_table(n, rules)` a few rolls at a time (`step(count)`
    until it returns True, then `table()`), so solving on the device keeps
    its progress bar moving and its buttons answered: six dice are 462
    rolls, about 2.5 s on the device in one piece."""

    def __init__(self, n, rules, room=0):
        self.n = n
        self.rules = rules
        # `room` bytes taken now and let go just before `table()` asks for
        # its block: grouping the rolls makes many small objects and grows
        # a dict, and on the chip late in a session that cut the heap up so
        # far that the six dice's 2.5 KB could not be had at the end (a
        # MemoryError even after the solving screen's fallbacks).
        # It is a wish, not a must (issue 30): as a must it was the first
        # request of every new solver, so on a heap with no run that long
        # the solving screen's retries and the game put away all failed on
        # it within 0.7 s. Without it the grouping collects before each
        # step (`tidy`): its keys then take the lowest gaps, and its
        # garbage never fills the heap up to the long runs, so a run as
        # long as the table itself stays whole for it.
        self.room = None
        if room:
            try:
                self.room = bytearray(room)
            except MemoryError:
                pass
        self.tidy = bool(room) and self.room is None
        self.rolls = odds.multisets(n)
        # A group's key is its choices already encoded (3 bytes each,
        # sorted): one small bytes object per group, not a tuple of tuples
        # (a quarter of the heap for six dice), and bytes sort like tuples.
        self.groups = {}

    def step(self, count):
        """Group up to `count` more rolls; True when every roll is in."""
        n = self.n
        groups = self.groups
        if self.tidy:
            gc.collect()
        for dice, weight in self.rolls:
            key = []
            for kept, points in scoring.choices(dice, self.rules):
                key.append((n - kept, points // 50))
            key.sort()
            raw = bytearray(3 * len(key))
            for i in range(len(key)):
                m, q = key[i]
                raw[3 * i] = m
                raw[3 * i + 1] = q >> 8
                raw[3 * i + 2] = q & 0xFF
            raw = bytes(raw)
            groups[raw] = groups.get(raw, 0) + weight
            count -= 1
            if count <= 0:
                return False
        return True

    def table(self):
        """The encoded roll table (see the module docstring)."""
        groups = self.groups
        size = 2
        for raw in groups:
            size += 3 + len(raw)
        if self.room is not None:  # its run is free again for `out`
            self.room = None
            gc.collect()
        # `out` is the first block asked for after the room is let go: the
        # lowest free run long enough for it, the room's if none comes
        # before. Whatever is made before it may take the start of that run
        # and leave `out` too little (issue 30: the sorted list of the
        # groups, a pointer each, 1 KB on a 64-bit port). Nor can the list
        # be made while the room is held: on a heap cut into pieces as long
        # as the list itself it found no run, and `out` was never asked for.
        out = bytearray(size)  # sized once: no regrowth on a fragmented heap
        # The keys in a list of exactly their count, sorted in place (a
        # pointer per group: 119 for six dice, 476 bytes on the chip, 952 on
        # a 64-bit port): sorted() grows its list by doubling, to 128
        # pointers here (1 KB on a 64-bit port, more than a run the Unix
        # port's test holes leave) and a garbage block at every size.
        order: list = [None] * len(groups)
        i = 0
        for raw in groups:
            order[i] = raw
            i += 1
        order.sort()
        out[0] = len(groups) >> 8
        out[1] = len(groups) & 0xFF
        pos = 2
        for raw in order:
            weight = groups[raw]
            out[pos] = weight >> 8
            out[pos + 1] = weight & 0xFF
            out[pos + 2] = len(raw) // 3
            out[pos + 3:pos + 3 + len(raw)] = raw
            pos += 3 + len(raw)
        return out


def roll_tables(rules, progress=None):
    """Roll tables for 1..rules.dice dice (index 0 is None)."""
    tables: list = [None]
    for n in range(1, rules.dice + 1):
        tables.append(roll_table(n, rules))
        if progress:
            progress(n, rules.dice + 1)
    return tables


def solve_plan(rules, tables=None, progress=None):
    """Compute the TurnPlan for `rules` at once (`progress(done, total)` is
    called now and then). The device uses `PlanSolver` in steps."""
    solver = PlanSolver(rules, tables)
    while not solver.step():
        if progress and solver.done % 50 == 0:
            progress(solver.done, solver.total)
    return solver.plan


class PlanSolver:
    """Solves a TurnPlan a little at a time, so a device can show progress:
    call `step()` until it returns True, then take `plan`. `done` and
    `total` tell how far it is (roll tables first, a few rolls a step,
    the largest first and the rows made right after it; then the turn
    totals from the top down, then the reach distances up to the target).
    No step takes more than a few ms on the Unix port. The big blocks come
    in that order so that they are asked for while the solve itself has
    cut the heap up least."""

    def __init__(self, rules, tables=None):
        self.rules = rules
        # Index n holds the roll table of n dice (0: None); None where it is
        # still to be built.
        self.tables: list = tables if tables is not None else [None] * (rules.dice + 1)
        self.plan = None
        self.unreached = None  # the plan made, before its reach rows
        self.top = 0
        self.roll_rows: "list | None" = None  # the values of a roll, per dice and turn total
        self.next_row = -1  # the turn total index (50s) of the next row to work out
        self.grouping = None  # the roll table being built, a few rolls a step
        self.done = 0
        # Steps of the roll tables (ROLLS_PER_STEP rolls each), then the rows
        # (counted once the table height is known).
        # Nothing is allocated here: after a MemoryError the Solving screen
        # makes a new solver, and its blocks are asked for in `step`.
        # The rows are guessed until the tables tell their count (`_start`):
        # a total of the tables alone made the bar run back (issue 34: 46%
        # to 9% once the rows were counted in).
        self.total = (1 + self._table_steps() + TOP_GUESS.get(rules.dice, TOP_GUESS[6]) + 1
                      + reach_size(rules))

    def _table_steps(self):
        """The steps of the roll tables still to be built."""
        steps = 0
        for n in range(1, self.rules.dice + 1):
            if self.tables[n] is None:
                steps += (_roll_count(n) + ROLLS_PER_STEP - 1) // ROLLS_PER_STEP
        return steps

    def _missing(self):
        """The most dice whose roll table is still to be built, else 0. The
        largest table comes first: its one block (2.4 KB for six dice) is
        asked for while the heap is least cut up by the solve's own work."""
        tables = self.tables
        for n in range(self.rules.dice, 0, -1):
            if tables[n] is None:
                return n
        return 0

    def step(self):
        """Do one piece of work; True when the plan is ready."""
        if self.plan is not None:
            return True
        rules = self.rules
        if (self.roll_rows is None and self.unreached is None
                and self.tables[rules.dice] is not None):
            # The rows (1.4 KB a dice count with six dice) right after the
            # largest roll table, before the smaller tables cut the heap up.
            self._start(_top(rules, self.tables))
            return False
        n = self._missing()
        if n:  # a few rolls of a roll table per step
            if self.grouping is None:  # the largest table's block kept from the start
                self.grouping = RollGrouping(n, rules, ROOM if n == rules.dice else 0)
            if self.grouping.step(ROLLS_PER_STEP):
                self.tables[n] = self.grouping.table()
                self.grouping = None
            self.done += 1
            return False
        if self.next_row >= 0:  # one turn total (all dice counts) per step
            _roll_row(rules, self.tables, self.top, self.roll_rows, self.next_row)
            self.next_row -= 1
            self.done += 1
            return False
        if self.unreached is None:
            self._finish()
            return False
        self.done += 1  # one reach distance per step
        if self.unreached.reach_step():
            self.plan = self.unreached
            self.done = self.total
            return True
        return False

    def finished_tables(self):
        """The roll tables built so far (None where one is still to be
        built, and at index 0): what a new solver
        can go on from, e.g. after a MemoryError left this one's rows
        unfinished."""
        return self.tables

    def _start(self, top):
        self.top = top
        self.roll_rows = [None] + [[0] * (top + 1) for _ in range(self.rules.dice)]
        self.next_row = top
        # the rows counted now: the total from here on is exact, never below what is done
        self.total = self.done + self._table_steps() + top + 1 + reach_size(self.rules)

    def _finish(self):
        rules = self.rules
        top = self.top
        r = self.roll_rows
        assert r is not None  # the rows are made before they are finished
        limits = [0]
        for n in range(1, rules.dice + 1):
            limit = top + 1
            for ti in range(top, -1, -1):
                if r[n][ti] > ti * 50 * UNIT:
                    break
                limit = ti
            limits.append(limit)
        # Banking must be best over a stretch below `top`, or the table was
        # cut too low: start again with twice the room.
        if max(limits) >= top - 20 and top < MAX_TOP:
            self.roll_rows = None
            self._start(min(MAX_TOP, top * 2))
            return
        for n in range(1, rules.dice + 1):
            del r[n][limits[n]:]  # in place: a copy would double the heap
        self.roll_rows = None
        plan = TurnPlan(rules, self.tables, limits, r, [])  # entry values: worked out below
        plan.entry_values = plan._solve_entry()
        plan.reach_room(reach_size(rules))
        self.unreached = plan


def _roll_row(rules, tables, top, r, ti):
    """r[n][ti] for every n: the value of rolling n dice at turn total
    ti * 50 (rows above ti are done; past `top` everybody banks)."""
    dice = rules.dice
    must = rules.hot_dice == "must"

    def worth(m, tj):
        bank = tj * 50 * UNIT
        if tj > top:
            return bank
        roll = r[m][tj]
        if must and m == dice:  # hot dice must be rolled again
            return roll
        return roll if roll > bank else bank

    for n in range(1, dice + 1):
        r[n][ti] = expected(tables[n], n, dice, ti, worth)


def _roll_count(n):
    """How many different rolls (multisets) n dice show: C(n + 5, 5)."""
    out = 1
    for k in range(1, 6):
        out = out * (n + k) // k
    return out


def _top(rules, tables):
    """Highest turn total index worth rolling from: the farkle risk of six
    dice against what a roll can add, with margin, at most MAX_TOP."""
    farkle, gain = roll_sums(tables[rules.dice])
    if farkle == 0:
        return MAX_TOP
    # One roll pays while its expected gain beats the farkle risk, up to
    # gain / f; hot dice chains push the real threshold a little higher.
    return min(MAX_TOP, gain * 5 // (farkle * 4) + 40)
