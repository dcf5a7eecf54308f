"""The Master (level "meister"): plays for the win.

Two seats under a preset: the exact optimum of tools/master_solve (value
iteration over own total, opponent total, turn total and dice left),
shipped per preset as a compact table file `master-FINGERPRINT.bin` that
is read with seek + small reads (never imported, never loaded whole).

What the table holds, per own score i, opponent score j (in 50-point
steps, both below the target N) and dice to roll next m:

- a bank window (lo, gap): below the target bank with turn total t (steps)
  iff lo <= t and i + t < N - gap (roll below lo; roll for the win when
  within gap of the target; lo = N - i: never bank before the target);
- past: at or past the target in last_turn / round games (the opponent
  still gets a turn) bank from i + t >= N + past on, roll below (at
  N + cap it banks);
- P0[i, j]: the chance of the player about to start a turn to win (1/255
  steps, stored as 4-bit changes along j: for the tips), the value of
  banking past the target (last_turn), and reach[need, m]: the best chance
  to add at least `need` steps this turn.

Keeps ("hybrid", measured in tools/master_solve): the Expert's
expected-score value (engine.turnplan), except where the table never banks
before the target with any number of dice: then the keep with the best
chance to reach the target this turn (past the target: any such keep,
then the Expert's value). A keep that wins at once is always taken. In
exact-target games the Expert chooses keeps (it knows the cap).

What the table does not cover, and what the Master does there (documented
approximations, measured against the Expert: docs/master.md):

- the final round and play-off rounds: on the seat's last turn the best
  chance to pass the leader (the Expert's rule, with the table's reach
  chances), otherwise the Expert;
- takeover offers: the Expert's rule on the plain plan (the model ignores
  takeovers; near an exact target the Expert would work out capped values,
  too slow for a decision's budget);
- "round" games: the model treats them as last_turn for both seats; in
  play the last seat of the round, whose bank at the target wins at once,
  banks there;
- three or more seats: the strongest other seat is taken as the single
  opponent (`multi = "table"`);
- rules without a table (custom rules): the Expert.

File format "ZMT2" (little endian):

    0   "ZMT2"
    4   N u16, D u8, flags u8 (FLAG_*), cap u16, entry u16 (steps)
    12  rules fingerprint, 8 ASCII hex digits
    20  offsets (from the file start) of index, rows, p0, last, reach (u32)
    40  index: N * D + 1 offsets (u24, from `rows`) of row (i, m), m = 1..D,
        the last one the end of the rows
        rows: per (i, m) a token stream of the cells (lo, gap, past) along
        j = 0..N-1, starting from (0, 0, 0):
          b < 0x60   one field (bits 6-5: lo, gap, past) changes by one
                     (bit 4: down, else up), then the cell repeats: bits
                     3-0 + 1 cells in all
          0x60..0x7F the previous cell again, (b & 31) + 1 times
          0x80..0xBF one cell: bits 5-4, 3-2, 1-0 change lo, gap, past:
                     0 same, 1 +1, 2 -1, 3 a byte with the value follows
          b >= 0xC0  b - 0xBF cells, each changed as the last cell was
        p0: N rows of 1 + N // 2 bytes: P0[r, 0] * 255, then per cell k =
            1..N-1 a 4-bit change (low nibble first) + 8 (the solver
            clamps changes to -8..7 and carries the error on); with
            FLAG_P0_BYTES (steep rows: exact targets) N rows of N bytes
        last: (flags & FLAG_LAST) u16 per margin g = s - j (steps) from 0:
              the chance to win when banking s >= N (the opponent's last
              turn) * 65535
        reach: (N + 1) * D u16, reach[need, m] * 65535
"""

from engine.bots import Bot, Expert, wins_now
from engine.game import BANK, PASS, ROLL, TAKE

MAGIC = b"ZMT2"
FLAG_P0 = 1
FLAG_LAST = 2
FLAG_EXACT = 4
FLAG_MUST = 8
FLAG_P0_BYTES = 16
STEP = 50


def table_name(rules):
    """The file name of the Master table for `rules` (under /tables)."""
    return "master-%s.bin" % rules.fingerprint()


def table_names(rules):
    """(file name, shift) of the tables that serve `rules`, best first
    (Rules.master_sources: a lower target without an entry hurdle reads
    the table at 10000, `shift` steps up)."""
    return [(table_name(r), shift) for r, shift in rules.master_sources()]


def _u16(b, k):
    return b[k] | b[k + 1] << 8


def _u32(b, k):
    return b[k] | b[k + 1] << 8 | b[k + 2] << 16 | b[k + 3] << 24


class MasterTable:
    """Reads a Master table from an open binary file (seek + read).

    `cells(i, j)` decodes the D rows of own i at opponent j (cached for the
    last (i, j): a turn asks for the same pair again and again).

    `shift` > 0 reads a table solved for a target `shift` steps higher as
    the table of the lower target (Rules.master_sources): own i and
    opponent j are i + shift and j + shift in the file, N is `shift` less;
    the bank windows, the past rule, the last-turn margins and the reach
    rows are relative to the target and read as they are."""

    def __init__(self, f, shift=0):
        self.f = f
        f.seek(0)
        head = f.read(40)
        if len(head) < 40 or head[:4] != MAGIC:
            raise ValueError("not a Master table")
        self.shift = shift
        self.N = _u16(head, 4) - shift
        self.D = head[6]
        self.flags = head[7]
        self.cap = _u16(head, 8)
        self.entry = _u16(head, 10)
        self.fingerprint = bytes(head[12:20]).decode()
        self.at_index = _u32(head, 20)
        self.at_rows = _u32(head, 24)
        self.at_p0 = _u32(head, 28)
        self.at_last = _u32(head, 32)
        self.at_reach = _u32(head, 36)
        self._key = None
        self._cells = ((), (), (), False)  # cells() at self._key (none yet)
        self._prow = [-1, None, -1, None]

    def cells(self, i, j):
        """(lo, gap, past, allin) at own i, opponent j: lists indexed by m
        (1..D; index 0 unused); allin: no m that may bank banks before the
        target."""
        key = i * 65536 + j
        if key == self._key:
            return self._cells
        i += self.shift
        j += self.shift
        D = self.D
        f = self.f
        f.seek(self.at_index + 3 * i * D)
        idx = f.read(3 * D + 3)
        start = idx[0] | idx[1] << 8 | idx[2] << 16
        end = idx[3 * D] | idx[3 * D + 1] << 8 | idx[3 * D + 2] << 16
        f.seek(self.at_rows + start)
        data = f.read(end - start)
        lo = [0] * (D + 1)
        gap = [0] * (D + 1)
        past = [0] * (D + 1)
        for m in range(1, D + 1):
            k = 3 * (m - 1)
            pos = (idx[k] | idx[k + 1] << 8 | idx[k + 2] << 16) - start
            a = b = c = 0  # the cell
            da = db = dc = 0  # its last change
            n = 0
            while n <= j:
                t = data[pos]
                pos += 1
                if t < 0x80:
                    x = t >> 5
                    if x == 3:
                        n += (t & 31) + 1
                        continue
                    da = db = dc = 0
                    if x == 0:
                        da = -1 if t & 16 else 1
                        a += da
                    elif x == 1:
                        db = -1 if t & 16 else 1
                        b += db
                    else:
                        dc = -1 if t & 16 else 1
                        c += dc
                    n += (t & 15) + 1
                    continue
                if t >= 0xC0:
                    r = t - 0xBF
                    if n + r > j:
                        r = j + 1 - n
                    a += r * da
                    b += r * db
                    c += r * dc
                    n += r
                    continue
                x = (t >> 4) & 3
                if x == 3:
                    da = data[pos] - a
                    pos += 1
                else:
                    da = (0, 1, -1)[x]
                x = (t >> 2) & 3
                if x == 3:
                    db = data[pos] - b
                    pos += 1
                else:
                    db = (0, 1, -1)[x]
                x = t & 3
                if x == 3:
                    dc = data[pos] - c
                    pos += 1
                else:
                    dc = (0, 1, -1)[x]
                a += da
                b += db
                c += dc
                n += 1
            lo[m] = a
            gap[m] = b
            past[m] = c
        top = D - 1 if self.flags & FLAG_MUST else D
        allin = True
        for m in range(1, top + 1):
            if lo[m] < self.N + self.shift - i:
                allin = False
                break
        self._cells = (lo, gap, past, allin)
        self._key = key
        return self._cells

    def reach(self, need, m):
        """Chance (in 1/65535) to add at least `need` steps this turn from a
        post-keep state with m dice to roll (need 0..N)."""
        f = self.f
        f.seek(self.at_reach + 2 * (need * self.D + m - 1))
        b = f.read(2)
        return b[0] | b[1] << 8

    def p0_row(self, r):
        """P0[r, 0..N-1] as a list of ints (x 255), decoded from its 4-bit
        steps (the last two rows read are kept)."""
        rows = self._prow
        for k in (0, 2):
            if rows[k] == r:
                return rows[k + 1]
        shift = self.shift
        N = self.N + shift  # the file's
        at = r + shift
        if self.flags & FLAG_P0_BYTES:
            self.f.seek(self.at_p0 + at * N + shift)
            row = self.f.read(N - shift)
            self._prow = [r, row, rows[0], rows[1]]
            return row
        size = 1 + N // 2
        self.f.seek(self.at_p0 + at * size)
        data = self.f.read(size)
        v = data[0]
        row = [v] * N
        for k in range(1, N):
            b = data[1 + (k - 1) // 2]
            v += ((b >> 4) if k % 2 == 0 else (b & 15)) - 8
            row[k] = v
        if shift:
            row = row[shift:]
        self._prow = [r, row, rows[0], rows[1]]  # this row and the one before
        return row

    def p0(self, i, j):
        """P0[i, j], the chance to win when starting a turn (0..1)."""
        return self.p0_row(i)[j] / 255

    def bank_value(self, s, j):
        """The chance to win when banking at s (steps) against opponent j."""
        N = self.N
        if s < N:
            return 1 - self.p0_row(j)[s] / 255
        if self.flags & FLAG_EXACT:
            return 1.0 if s == N else 0.0
        if not self.flags & FLAG_LAST:
            return 1.0
        g = s - j
        last_n = (self.at_reach - self.at_last) // 2
        if g >= last_n:
            g = last_n - 1
        self.f.seek(self.at_last + 2 * g)
        b = self.f.read(2)
        return (b[0] | b[1] << 8) / 65535


class Master(Bot):
    """Plays for the win: the table where it applies, else the Expert (see
    the module docstring). `plan` is the Expert's TurnPlan for the rules,
    `table_file` an open binary file of the rules' Master table, or None."""

    key = "meister"
    multi = "table"  # 3+ seats: "table" (strongest opponent) or "expert"

    def __init__(self, plan, table_file=None, shift=0):
        self.plan = plan
        self.rules = plan.rules
        self.expert = Expert(plan)
        self.table = None
        if table_file is not None:
            table = MasterTable(table_file, shift)
            source = self.rules
            if shift:
                source = self.rules.replace(target=self.rules.target + shift * STEP)
            if table.fingerprint != source.fingerprint():
                raise ValueError("the Master table is for other rules")
            self.table = table

    # ------------------------------------------------------------ decisions

    def decide(self, view):
        """See the module docstring."""
        if view.phase == "farkle":
            return PASS
        if view.phase != "start" and self.table is not None and view.last_chance():
            found = self._last_chance(view)
            if found is not None:
                return found
        if view.phase == "start":
            return self._start(view)
        pair = self._pair(view)
        if pair is None:
            return self.expert.decide(view)
        i, j = pair
        if view.phase == "keep":
            if view.rules.exact:
                return self.expert.decide(view)
            return ("keep", self._keep(view, i, j))
        if BANK not in view.legal:
            return ROLL
        return BANK if self._bank(view, i, j) else ROLL

    def _start(self, view):
        """Roll, or take over an offer when the Expert's plan values the
        inherited points and dice above a fresh turn. Unlike the Expert it
        never works out capped values near an exact target (tens of ms on
        the device's budget): the plain plan compares the two starts."""
        if view.offer and TAKE in view.legal:
            points, aside = view.offer
            rules = view.rules
            entered = view.entered[view.me]
            left = rules.dice - len(aside)
            if self.plan.roll_value(left, points, entered) > self.plan.roll_value(
                    rules.dice, 0, entered):
                return TAKE
        return ROLL

    def _last_chance(self, view):
        """The last turn to pass the leader: the best chance to score the
        points needed (the table's reach chances; the Expert's rule, without
        working out its reach table on the spot). None: let the Expert."""
        need = (view.leader_score() - view.score()) // STEP + 1
        table = self.table
        assert table is not None  # called only with a table
        if need <= 0 or need > table.N or view.rules.exact:
            return None
        t = view.turn_total // STEP
        if view.phase == "decide":
            if BANK in view.legal and t >= need:
                return BANK
            return ROLL
        D = view.rules.dice
        best = None
        choice = None
        for dice, points in view.keeps:
            m = view.dice_left - len(dice) or D
            ti = t + points // STEP
            if ti >= need:
                value = (1 << 40) + self.plan.worth(m, ti)
            else:
                value = table.reach(need - ti, m)
            if best is None or value > best:
                best = value
                choice = dice
        return ("keep", choice)

    def _pair(self, view):
        """(own, opponent) steps when the table decides, else None."""
        table = self.table
        if table is None or view.final >= 0 or view.playoff is not None:
            return None
        opp = -1
        count = 0
        for k in range(len(view.scores)):
            if view.active[k] and k != view.me:
                count += 1
                if opp < 0 or view.scores[k] > view.scores[opp]:
                    opp = k
        if opp < 0 or (count > 1 and self.multi != "table"):
            return None
        i = view.scores[view.me] // STEP
        j = view.scores[opp] // STEP
        if i >= table.N or j >= table.N:
            return None
        return i, j

    def _wins(self, view, total):
        """True when banking `total` now wins at once: wins_now, or the last
        seat of a 'round' game reaching the target (nobody opened the final
        round, so it ends with this seat alone at the target)."""
        if wins_now(view, total):
            return True
        rules = view.rules
        if rules.finish != "round" or view.final >= 0:
            return False
        if view.score() + total < rules.target:
            return False
        for k in range(view.me + 1, len(view.active)):
            if view.active[k]:
                return False
        return True

    def _keep(self, view, i, j):
        table = self.table
        assert table is not None  # called only with a table
        N = table.N
        D = view.rules.dice
        allin = table.cells(i, j)[3]
        t = view.turn_total // STEP
        entered = view.entered[view.me]
        best = None
        choice = None
        for dice, points in view.keeps:
            if self._wins(view, view.turn_total + points):
                return dice
            m = view.dice_left - len(dice) or D
            ti = t + points // STEP
            s = i + ti
            if allin:
                if s >= N:
                    value = (1 << 40) + self.plan.worth(m, ti, entered)
                else:
                    value = table.reach(N - s, m)
            else:
                value = self.plan.worth(m, ti, entered)
            if best is None or value > best:
                best = value
                choice = dice
        return choice

    def _bank(self, view, i, j):
        if self._wins(view, view.turn_total):
            return True
        table = self.table
        assert table is not None  # called only with a table
        N = table.N
        lo, gap, past, _ = table.cells(i, j)
        t = view.turn_total // STEP
        s = i + t
        m = view.dice_left
        if s < N:
            return lo[m] <= t and s < N - gap[m]
        return s - N >= past[m] or s >= N + table.cap

    # ------------------------------------------------------------ the tips

    def win_chances(self, view):
        """The win chance of each choice, from the table, or None where the
        Master has no table for the situation (three or more seats, final
        round, custom rules). A dict:

            "now"    the chance before this decision (start of turn: P0)
            "bank"   banking now (phase "decide", when legal)
            "roll"   rolling on: a lower bound (one roll, then each stand
                     valued at banking there; where the table rolls on, at
                     least the bank chance, as the optimum rolls only when
                     that is worth at least as much)
            "keeps"  phase "keep": (dice, chance) per keep, each keep's stand
                     valued as the better of banking and "roll" above

        Chances are floats in [0, 1] (P0 is stored in 1/255 steps)."""
        table = self.table
        if table is None or view.phase not in ("start", "keep", "decide"):
            return None
        if len([k for k in range(len(view.active)) if view.active[k]]) != 2:
            return None
        pair = self._pair(view)
        if pair is None:
            return None
        i, j = pair
        out = {}
        t = view.turn_total // STEP
        if view.phase == "start":
            out["now"] = table.p0(i, j)
            return out
        farkle = 1 - table.p0_row(j)[i] / 255  # a farkle hands j the turn at (j, i)
        if view.phase == "decide":
            if BANK in view.legal:
                out["bank"] = 1.0 if self._wins(view, view.turn_total) else table.bank_value(
                    i + t, j)
            roll = self._roll_lb(view, i, j, i + t, view.dice_left, farkle)
            bank = out.get("bank")
            if bank is not None and bank > roll and not self._bank(view, i, j):
                roll = bank  # the optimum rolls here: rolling is worth at least banking
            out["roll"] = roll
            return out
        keeps = []
        D = view.rules.dice
        for dice, points in view.keeps:
            ti = t + points // STEP
            m = view.dice_left - len(dice) or D
            if self._wins(view, ti * STEP):
                keeps.append((dice, 1.0))
                continue
            v = self._roll_lb(view, i, j, i + ti, m, farkle)
            if self._may_bank(view, i, ti, m):
                v = max(v, table.bank_value(i + ti, j))
            keeps.append((dice, v))
        out["keeps"] = keeps
        return out

    def _may_bank(self, view, i, ti, m):
        rules = view.rules
        if rules.hot_dice == "must" and m == rules.dice:
            return False
        if not view.entered[view.me] and ti * STEP < rules.entry:
            return False
        return True

    def _roll_lb(self, view, i, j, s, n, farkle):
        """A lower bound of the chance to win when rolling n dice at s
        (steps): after one roll each stand is worth at least banking there
        (where allowed) and at least a farkle (more points never hurt)."""
        table = self.table
        assert table is not None  # called only with a table
        plan = self.plan
        rules = view.rules
        D = rules.dice
        N = table.N
        exact = rules.exact
        rt = plan.tables[n]
        count = rt[0] << 8 | rt[1]
        pos = 2
        total = 0.0
        for _ in range(count):
            weight = rt[pos] << 8 | rt[pos + 1]
            k = rt[pos + 2]
            pos += 3
            best = farkle if k == 0 else -1.0
            for _ in range(k):
                m = rt[pos] or D
                s2 = s + (rt[pos + 1] << 8 | rt[pos + 2])
                pos += 3
                if exact and s2 > N:
                    v = farkle
                elif self._wins(view, (s2 - i) * STEP):
                    v = 1.0
                elif self._may_bank(view, i, s2 - i, m):
                    v = table.bank_value(s2, j)  # banking there, or better
                    if v < farkle:
                        v = farkle
                else:
                    v = farkle
                if v > best:
                    best = v
            if best < 0:
                best = farkle
            total += weight * best
        return total / 6 ** n


def make_master(rules, plan=None, tables: object = "tables"):
    """The Master level's factory (engine.levels): the Expert's `plan`
    (solved when None) and the table for `rules` from `tables` (a folder
    or a reader with `open(name)`; None or no table: the approximation)."""
    if plan is None:
        from engine.plan_solver import solve_plan

        plan = solve_plan(rules)
    if tables is None:
        return Master(plan)
    f, shift = find_table(rules, tables)
    return Master(plan, f, shift)


def open_table(rules, tables: object = "tables"):
    """An open binary file of the Master table of `rules` itself, or None.
    `tables`: a folder path, or a reader with `open(name)` (firmware DirFS)."""
    return _open(table_name(rules), tables)


def find_table(rules, tables: object = "tables"):
    """(open file, shift) of the first table that serves `rules`
    (`table_names`), or (None, 0)."""
    for name, shift in table_names(rules):
        f = _open(name, tables)
        if f is not None:
            return f, shift
    return None, 0


def _open(name, tables):
    try:
        if isinstance(tables, str):
            return open(tables + "/" + name, "rb")
        opener = getattr(tables, "open", None)
        if opener is None:
            return None
        return opener(name)
    except OSError:
        return None
