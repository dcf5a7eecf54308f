"""Turn planning for the most expected points: the Expert's knowledge.

For a rule set, `TurnPlan` knows, for n dice to roll and turn total t, the
expected final turn score when rolling (`roll_value`) and the bank
thresholds: with n dice left, bank at or above `threshold(n)`. It is the
exact dynamic programme over (dice left, turn total) with no end-game
effects: with the zehntausend rules a fresh six-dice turn is worth 582.3
points and the thresholds are 350/250/450/1050/3100/17750 for 1..6 dice.

Building blocks:
- *Roll tables* (engine.plan_solver.roll_tables): for n dice, the 6**n rolls grouped by the
  choices they offer. A choice is (dice left m, points p) of a valid keep;
  m = 0 means hot dice. Rolls with the same choices share one group and its
  summed weight, so the DP loops over tens of groups instead of 6**n rolls.
  Encoded as bytes: a 2-byte group count, then per group a 2-byte weight, a
  1-byte choice count and per choice m (1 byte) and p // 50 (2 bytes).
- Values are ints in 1/64 points (`UNIT`), so the device needs no floats.

engine.plan_solver computes a plan (`solve_plan(rules)`: about 1 s under
the MicroPython Unix port for the presets, so minutes on the device: the
presets ship precomputed, see tools/solve.py); `to_bytes`/`from_bytes`
store it. This module holds what playing from a plan needs, so a game
does not carry the solver's code.

The plan also holds the reach rows: `reach_chance(m, t, need)`, the chance
to score at least `need` this turn (the last turn of a final round), by
distance to the need, solved up to the target and stored with the plan
(2 bytes a value: 2.6 KB for a 10000 target), so no decision has to work
them out. `capped_values(cap)` serves an exact target (no keep may pass
`cap`): stored with the plan up to CAPPED_HORIZON where tools/solve ran
`solve_capped` (the presets), else worked out from the roll tables.

A plan depends on the dice, the scoring, the entry hurdle and hot dice
only (engine.rules.PLAN_FREE lists what it does not read): it is stored
under and checked against `rules.plan_rules()`, so one plan serves every
target, end of game and tie rule of its scoring (the reach rows grow past
the target it was solved with when a need asks for it).
"""

from engine.codec import CodecError, pack, unpack, unpack_file

UNIT = 64  # values are stored in 1/64 points
KIND_PLAN = 0x58  # "X": the codec kind of a stored plan
REACH_STEP = 20  # reach rows grow 1000 points at a time
# An exact target further away than this is played like an open one (the
# capped values change little there); stored capped values cover it.
CAPPED_HORIZON = 2000
CAPPED_UNIT = 16  # stored capped values are in 1/16 points (2 bytes)


def expected(table, n, dice, start, worth, cap=-1):
    """Sum over the groups of a roll table of weight * the best choice's
    worth, divided by 6**n, for a roll at turn total index `start`.
    `worth(m, ti)` values reaching dice left m (all `dice` after hot dice)
    at turn total index ti; choices with ti > cap are skipped when cap >= 0
    (they would pass an exact target). A farkle is worth 0."""
    total = 0
    count = table[0] << 8 | table[1]
    pos = 2
    for _ in range(count):
        weight = table[pos] << 8 | table[pos + 1]
        k = table[pos + 2]
        pos += 3
        best = 0
        for _ in range(k):
            m = table[pos] or dice
            ti = start + (table[pos + 1] << 8 | table[pos + 2])
            pos += 3
            if cap < 0 or ti <= cap:
                v = worth(m, ti)
                if v > best:
                    best = v
        total += weight * best
    den = 6 ** n
    return (total + den // 2) // den


class TurnPlan:
    """Bank thresholds and roll values that maximise the expected turn score.

    `values[n][ti]` is the roll value (1/64 points) of n dice at turn total
    ti * 50 for ti below the threshold index `limits[n]`; at and above it
    banking is best. `entry_values[n][ti]` are roll values for a player not
    yet in the game, below the entry hurdle (where banking is refused).
    """

    def __init__(self, rules, tables, limits, values, entry_values):
        self.rules = rules
        self.tables = tables
        self.limits = limits
        self.values = values
        self.entry_values: list = entry_values
        self._reach = []  # reach rows (Chances) by distance to the need, once made
        self._reach_done = 1  # distances below this are worked out
        self._hot = None  # chance to survive a compulsory hot-dice roll
        self._capped = []  # stored capped values per cap (solve_capped), or none

    # ---------------------------------------------------------- building

    def _solve_entry(self):
        """Roll values below the entry hurdle, where banking is refused."""
        rules = self.rules
        hurdle = rules.entry // 50
        dice = rules.dice
        ev: list = [None] + [[0] * hurdle for _ in range(dice)]

        def worth(m, ti):
            if ti < hurdle:
                return ev[m][ti]
            return self.worth(m, ti)

        for ti in range(hurdle - 1, -1, -1):
            for n in range(1, dice + 1):
                ev[n][ti] = expected(self.tables[n], n, dice, ti, worth)
        return ev

    # ---------------------------------------------------------- questions

    def threshold(self, n):
        """Bank with n dice left at or above this turn total."""
        return self.limits[n] * 50

    def roll_value(self, n, t, entered=True):
        """Expected final turn score (1/64 points) when rolling n dice at turn
        total t (computed on the spot where the table has no entry)."""
        ti = t // 50
        if not entered and ti < len(self.entry_values[n]):
            return self.entry_values[n][ti]
        if ti < self.limits[n]:
            return self.values[n][ti]
        return expected(self.tables[n], n, self.rules.dice, ti, self.worth)

    def worth(self, m, ti, entered=True):
        """Value (1/64 points) of standing at turn total ti * 50 with m dice
        to roll, free to bank or roll (m = all dice after hot dice)."""
        if not entered and ti < len(self.entry_values[m]):
            return self.entry_values[m][ti]
        if self.rules.hot_dice == "must" and m == self.rules.dice and ti:
            if ti < self.limits[m]:
                return self.values[m][ti]
            # Past the stored rows the roll is still forced. Its own hot
            # dice count as banked, as past the solver's top: asking this
            # method again would recurse without end.
            return expected(self.tables[m], m, m, ti, self._hot_banked)
        if ti < self.limits[m]:
            return self.values[m][ti]
        return ti * 50 * UNIT

    def _hot_banked(self, m, ti):
        """`worth`, but hot dice (m = all dice) banked."""
        if m == self.rules.dice:
            return ti * 50 * UNIT
        return self.worth(m, ti)

    def fresh_turn(self, entered=True):
        """Expected score of a whole fresh turn (1/64 points)."""
        return self.roll_value(self.rules.dice, 0, entered)

    def capped_values(self, cap):
        """Roll and stand values when no keep may take the turn total past
        `cap` (exact target): returns worth(m, ti) for ti <= cap // 50.
        Read from the stored capped values where the plan has them (see
        `solve_capped`), else worked out on the spot."""
        capi = cap // 50
        dice = self.rules.dice
        w: list = [None] + [[0] * (capi + 1) for _ in range(dice)]
        if self._capped and 1 <= capi <= CAPPED_HORIZON // 50:
            stored = self._capped[capi - 1]
            pos = 0
            scale = UNIT // CAPPED_UNIT
            for ti in range(capi + 1):
                for n in range(1, dice + 1):
                    w[n][ti] = (stored[pos] << 8 | stored[pos + 1]) * scale
                    pos += 2
            return w

        def worth(m, ti):
            return w[m][ti]

        for ti in range(capi, -1, -1):
            for n in range(1, dice + 1):
                roll = expected(self.tables[n], n, dice, ti, worth, capi)
                bank = ti * 50 * UNIT
                w[n][ti] = roll if roll > bank else bank
        return w

    def solve_capped(self):
        """Work out the capped values of every cap up to CAPPED_HORIZON and
        keep them with the plan (2 bytes a value in 1/16 points: 8.6 KB for
        five dice), so an Expert near an exact target reads them instead
        of working them out once a turn. tools/solve does this for the
        presets with an exact target; a plan solved on the device for
        custom rules goes without (it would take a minute there)."""
        dice = self.rules.dice
        self._capped = []  # work every cap out afresh
        stored = []
        half = UNIT // CAPPED_UNIT // 2
        for capi in range(1, CAPPED_HORIZON // 50 + 1):
            w = self.capped_values(capi * 50)
            out = bytearray(2 * (capi + 1) * dice)  # one piece per cap: small reads
            pos = 0
            for ti in range(capi + 1):
                for n in range(1, dice + 1):
                    v = (w[n][ti] + half) // (UNIT // CAPPED_UNIT)
                    out[pos] = v >> 8
                    out[pos + 1] = v & 0xFF
                    pos += 2
            stored.append(bytes(out))
        self._capped = stored

    def reach_chance(self, m, t, need):
        """Chance (in 1/65536) to bank at least `need` this turn when
        standing at turn total t with m dice to roll and playing for it
        (the last turn of a final round). It depends only on the distance
        (need - t) // 50, so one set of rows per plan serves every need:
        they are solved with the plan up to the target (`reach_size`) and
        grown on demand past it. Under hot dice "must" a hot-dice state
        past the need still has to survive its roll."""
        d = (need + 49) // 50 - t // 50
        if d <= 0:
            if m == self.rules.dice and self.rules.hot_dice == "must":
                return self._hot_reach()
            return 65536
        if d >= self._reach_done:
            self.reach_room(d + 1)
            while self._reach_done <= d:
                self.reach_step()
        return self._reach[m][d]

    def reach_room(self, size):
        """Make room for reach rows of distances below `size` (a multiple of
        REACH_STEP is taken); the known distances are kept."""
        size = (size + REACH_STEP - 1) // REACH_STEP * REACH_STEP
        old = self._reach
        if old and len(old[1]) >= size:
            return
        rows: list = [None] + [Chances(size) for _ in range(self.rules.dice)]
        for n in range(1, self.rules.dice + 1):
            if old:
                rows[n].data[:len(old[n].data)] = old[n].data
            rows[n][0] = 65535  # distance 0: already there
        self._reach = rows

    def reach_step(self):
        """Work out the next reach distance (room must be made first);
        True when the room is full."""
        rows = self._reach
        dice = self.rules.dice
        hot = self._hot_reach() if self.rules.hot_dice == "must" else 65536

        def worth(k, x):  # x: steps past the need (x >= 0: reached)
            if x >= 0:
                return hot if k == dice else 65536
            return rows[k][-x]

        d = self._reach_done
        for n in range(1, dice + 1):
            rows[n][d] = expected(self.tables[n], n, dice, -d, worth)
        self._reach_done = d + 1
        return self._reach_done >= len(rows[1])

    def _hot_reach(self):
        """Under hot dice "must": the chance to come through the compulsory
        roll of all dice once the need is reached. A keep that leaves dice
        is safe; hot dice again mean the same roll again, so the chance is
        the fixed point of one roll's value (each round shrinks the error
        by the small chance of hot dice: a few rounds settle it)."""
        if self._hot is None:
            dice = self.rules.dice
            table = self.tables[dice]
            r = [0]  # the chance so far, read by `worth`

            def worth(m, ti):
                return 65536 if m < dice else r[0]

            for _ in range(20):
                before = r[0]
                r[0] = expected(table, dice, dice, 0, worth)
                if r[0] == before:
                    break
            self._hot = min(65535, r[0])
        return self._hot

    # ---------------------------------------------------------- storage

    def to_bytes(self):
        """The plan as a checked blob (codec kind 'X')."""
        values = [_ints_to_bytes(v) for v in self.values[1:]]
        reach = [bytes(c.data[:2 * self._reach_done]) for c in self._reach[1:]] \
            if self._reach else []
        return pack([self.rules.plan_rules().encode(), self.limits[1:], values,
                     [t for t in self.tables[1:]], reach, self._capped], KIND_PLAN)

    @classmethod
    def from_bytes(cls, blob, rules):
        """Load a stored plan; CodecError when damaged or for other rules."""
        return cls._from_data(unpack(blob, KIND_PLAN), rules)

    @classmethod
    def from_file(cls, f, rules):
        """Load a stored plan from an open binary file, piece by piece (no
        block of the file's size on the heap: engine.codec.unpack_file)."""
        return cls._from_data(unpack_file(f, KIND_PLAN), rules)

    @classmethod
    def _from_data(cls, data, rules):
        if not isinstance(data, list) or len(data) not in (4, 5, 6) or (
                data[0] != rules.plan_rules().encode()):
            raise CodecError("the stored plan is for other rules")
        if len(data) < 6:
            raise CodecError("the stored plan is from an older version")
        try:
            dice = rules.dice
            limits = [0] + list(data[1])
            values: list = [None] + [Ints(b) for b in data[2]]
            tables = [None] + data[3]
            for t in data[3]:
                if not isinstance(t, bytes):
                    raise ValueError("plan roll tables are not bytes")
            if len(limits) != dice + 1 or len(values) != dice + 1 or len(tables) != dice + 1:
                raise ValueError("plan has the wrong number of dice")
            for n in range(1, dice + 1):
                if len(values[n]) != limits[n]:
                    raise ValueError("plan values do not match their limits")
            reach = data[4]
            if len(reach) not in (0, dice):
                raise ValueError("plan reach rows have the wrong number of dice")
            for row in reach:
                if not isinstance(row, bytes) or len(row) != len(reach[0]) or len(row) % 2:
                    raise ValueError("plan reach rows are not whole")
            capped = data[5]
            if len(capped) not in (0, CAPPED_HORIZON // 50):
                raise ValueError("plan capped values have the wrong number of caps")
            for k in range(len(capped)):
                if not isinstance(capped[k], bytes) or len(capped[k]) != 2 * (k + 2) * dice:
                    raise ValueError("plan capped values are not whole")
        except (TypeError, ValueError, IndexError) as e:
            raise CodecError("the stored plan is damaged: %s" % e)
        plan = cls(rules, tables, limits, values, [])  # entry values: worked out below
        plan.entry_values = plan._solve_entry()
        plan._capped = capped
        if reach and len(reach[0]) > 2:
            # The stored rows are used as they are (read-only bytes, no
            # copy); a need past them makes new rows with room to grow.
            plan._reach = [None] + [Chances(0, row) for row in reach]
            plan._reach_done = len(reach[0]) // 2
        return plan


class Chances:
    """A row of chances in 1/65536, two bytes each (certainty is stored as
    65535), indexable like a list; `data` may be given (read-only bytes
    serve for reading)."""

    def __init__(self, size, data=None):
        self.data = bytearray(2 * size) if data is None else data

    def __len__(self):
        return len(self.data) // 2

    def __getitem__(self, i):
        d = self.data
        return d[2 * i] << 8 | d[2 * i + 1]

    def __setitem__(self, i, value):
        if value > 0xFFFF:
            value = 0xFFFF
        self.data[2 * i] = value >> 8
        self.data[2 * i + 1] = value & 0xFF


class Ints:
    """A row of stored values, four bytes each (big-endian), indexable like
    a list: a loaded plan reads its values where they came, with no list
    of ints (4 KB more on the heap for zehntausend, in one piece)."""

    def __init__(self, data):
        if not isinstance(data, bytes) or len(data) % 4:
            raise ValueError("plan values are not whole")
        self.data = data

    def __len__(self):
        return len(self.data) // 4

    def __getitem__(self, i):
        d = self.data
        i *= 4
        return d[i] << 24 | d[i + 1] << 16 | d[i + 2] << 8 | d[i + 3]


def reach_size(rules):
    """Reach distances a plan is solved with: up to its target (at most
    20000 points) and a step more; a rarer, larger need grows them."""
    return min(rules.target, 20000) // 50 + REACH_STEP


def roll_sums(table):
    """(farkle weight, gain) of a roll table: the summed weight of the
    groups with no choice (of 6**n rolls) and the sum of each group's
    weight times its best choice's added turn total index."""
    farkle = 0
    count = table[0] << 8 | table[1]
    pos = 2
    gain = 0
    for _ in range(count):
        weight = table[pos] << 8 | table[pos + 1]
        k = table[pos + 2]
        pos += 3
        if k == 0:
            farkle += weight
        best = 0
        for _ in range(k):
            best = max(best, table[pos + 1] << 8 | table[pos + 2])
            pos += 3
        gain += weight * best
    return farkle, gain


def _ints_to_bytes(values):
    if isinstance(values, Ints):
        return values.data
    out = bytearray(4 * len(values))
    for i, v in enumerate(values):
        out[4 * i] = v >> 24
        out[4 * i + 1] = (v >> 16) & 0xFF
        out[4 * i + 2] = (v >> 8) & 0xFF
        out[4 * i + 3] = v & 0xFF
    return bytes(out)
