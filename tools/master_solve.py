"""Exact win-probability solver for the two-seat game: the Master's knowledge.

Model (two seats, ``finish="immediate"``: the first to bank at least the
target wins at once). Scores move in steps of 50 and are held here as step
counts (``N = target // 50`` steps). ``P0[i, j]`` is the chance that the
player about to start a turn wins, with own banked score ``i`` and the
opponent's ``j``. Inside a turn the state is the would-be banked score
``s = i + t`` (``t`` the turn total) and the number of dice about to be
rolled. After a roll the player picks a keep, described by (dice left ``m``
with hot dice counted as a full set, points ``p``), and either banks
(``1 - P0[j, s + p]``, or 1 when ``s + p`` reaches the target) or rolls the
``m`` dice; a farkle hands the opponent a turn at ``(j, i)``.

Only ``P0`` couples turns. ``P0[i, j]`` depends on ``P0[j, k]`` with
``k > i`` (banks) and on ``P0[j, i]`` (farkles), so the pairs are solved by
levels of ``i + j`` from the top down; inside one level each pair
``(i, j), (j, i)`` is a two-variable fixed point, solved by Newton steps on
the affine value a fixed pair of policies gives (policy iteration: the turn
DP carries every value as ``a + b * F`` with ``F`` the farkle value). The
result is a fixed point of the plain value iteration to rounding error.

Policies for exact evaluation (`evaluate`) say, for each level, how they
choose among keeps (a preference per post-keep state (s, m), the highest
wins) and whether they bank there. Provided: the optimum (`OptimalPolicy`),
turn-local policies that look only at (turn total, dice left)
(`expected_score_policy`, `keep_all_policy`), and table policies with bank
thresholds per (own, opponent, dice left) (`ThresholdPolicy`).

Scoring comes only from ``engine.scoring.keeps`` and ``engine.odds.outcomes``.
numpy is needed (a desktop tool, never run on the device).

Run ``python -m tools.master_solve [--target 10000]`` for the published
figures; progress goes to stderr.
"""

import sys
import time

import numpy as np

from engine import odds, scoring
from engine.rules import preset

STEP = 50


def master_rules(target=10000):
    """The zehntausend preset with the immediate finish the model assumes."""
    return preset("zehntausend").replace(finish="immediate", target=target)


def _log(msg):
    print(msg, file=sys.stderr, flush=True)


class RollTable:
    """Roll outcomes of 1..D dice grouped by the choices they offer.

    A choice is (m, p): dice to roll next (hot dice -> D) and points in steps,
    keeping for each number of kept dice only the best points. Groups are
    ordered by n; ``m[g, k]`` and ``p[g, k]`` are padded with (0, 0), the
    dummy slot ``m = 0`` that every DP array holds at minus infinity.
    """

    def __init__(self, rules):
        D = rules.dice
        self.dice = D
        rows = []  # (n, weight / 6**n, choices)
        self.farkle = np.zeros(D)
        self.starts = []
        for n in range(1, D + 1):
            groups = {}
            for roll, weight in odds.outcomes(n):
                best = {}
                for kept, points in scoring.keeps(roll, rules):
                    left = n - len(kept)
                    m = left if left else D
                    if points > best.get(m, -1):
                        best[m] = points
                key = tuple(sorted((m, p // STEP) for m, p in best.items()))
                groups[key] = groups.get(key, 0) + weight
            self.starts.append(len(rows))
            for key in sorted(groups):
                if not key:
                    self.farkle[n - 1] = groups[key] / 6**n
                else:
                    rows.append((n, groups[key] / 6**n, key))
        K = max(len(r[2]) for r in rows)
        G = len(rows)
        self.m = np.zeros((G, K), dtype=np.int64)
        self.p = np.zeros((G, K), dtype=np.int64)
        self.w = np.array([r[1] for r in rows])
        self.n = np.array([r[0] for r in rows])
        for g, (_, _, key) in enumerate(rows):
            for k, (m, p) in enumerate(key):
                self.m[g, k] = m
                self.p[g, k] = p
        self.maxp = int(self.p.max())
        self.flat = self.p * 7 + self.m  # offset into a (s, m) flattened array
        self.starts = np.array(self.starts)
        self.groups = G

    def ext(self, N):
        """Rows of the (s, m, ...) DP arrays: every s + p stays inside."""
        return N + self.maxp + 1


_TABLES = {}


def roll_table(rules):
    key = rules.encode()
    if key not in _TABLES:
        _TABLES[key] = RollTable(rules)
    return _TABLES[key]


# ---------------------------------------------------------------------------
# The turn DP of one level, vectorised over the pairs of the level.


def _level_dp(rt, N, i_vec, Bc, F, choose, record=False):
    """One turn DP for the pairs (i_vec[v], j_v) of a level.

    Bc: (S, V) bank values (1 from s = N on). F: (V,) current farkle value,
    used only by the optimum. `choose` is None for the optimum (argmax of the
    values at F, bank when banking is at least as good), else a tuple
    (Q, bank, after_a, after_b) of a fixed policy: Q (S, 7, V) keep
    preference, bank (N, 7, V) flags, after_a/after_b (S - N, 7, V) affine
    value of post-keep states past the target.

    Returns (Sa, Sb): the start-of-turn value of each pair as Sa + Sb * F,
    and, with record=True, also (Wq, bank) of the optimum: its post-keep
    values at F and bank flags (for use as a fixed policy).
    """
    S = rt.ext(N)
    V = len(i_vec)
    D = rt.dice
    Wa = np.zeros((S, 7, V))
    Wb = np.zeros((S, 7, V))
    if choose is None:
        Wq = np.full((S, 7, V), -np.inf)
        Wa[N:, 1:] = 1.0
        Wq[N:, 1:] = 1.0
        bank_rec = np.zeros((N, 7, V), dtype=bool) if record else None
    else:
        Q, bankf, after_a, after_b = choose
        Wq = Q
        Wq[:, 0] = -np.inf
        Wa[N:] = after_a
        Wb[N:] = after_b
    Wa2 = Wa.reshape(S * 7, V)
    Wb2 = Wb.reshape(S * 7, V)
    Wq2 = Wq.reshape(S * 7, V)
    flat = rt.flat
    gidx = np.arange(rt.groups)[:, None]
    vidx = np.arange(V)[None, :]
    w = rt.w[:, None]
    fk = rt.farkle[:, None]
    starts = rt.starts
    Sa = np.zeros(V)
    Sb = np.zeros(V)
    lo = int(i_vec.min())
    for s in range(N - 1, lo - 1, -1):
        base = s * 7
        G = Wq2[base + flat]  # (groups, K, V)
        am = G.argmax(axis=1)
        ch = base + flat[gidx, am]
        Ra = np.add.reduceat(w * Wa2[ch, vidx], starts, axis=0)
        Rb = np.add.reduceat(w * Wb2[ch, vidx], starts, axis=0) + fk
        here = i_vec == s
        if here.any():
            Sa[here] = Ra[D - 1, here]
            Sb[here] = Rb[D - 1, here]
        B = Bc[s]
        if choose is None:
            Rv = Ra + Rb * F
            bank = B >= Rv
            Wq[s, 1:D + 1] = np.maximum(B, Rv)
            if record:
                bank_rec[s, 1:D + 1] = bank
        else:
            bank = bankf[s, 1:D + 1]
        Wa[s, 1:D + 1] = np.where(bank, B, Ra)
        Wb[s, 1:D + 1] = np.where(bank, 0.0, Rb)
    if record:
        return Sa, Sb, Wq, bank_rec
    return Sa, Sb


def bank_windows(bank, i_vec, N):
    """Bank flags (N, 7, V) of post-keep states s -> (lo, gap, irregular),
    each (V, 7): the optimum banks for lo <= s - i <= N - 1 - gap."""
    s = np.arange(N)[:, None, None]
    bk = bank & (s > i_vec[None, None, :])
    some = bk.any(axis=0)  # (7, V)
    first = bk.argmax(axis=0)
    last = N - 1 - bk[::-1].argmax(axis=0)
    lo = np.where(some, first - i_vec[None, :], N - i_vec[None, :])
    gap = np.where(some, N - 1 - last, 0)
    irregular = np.where(some, last - first + 1 - bk.sum(axis=0), 0)
    return lo.T, gap.T, irregular.T


def _levels(N):
    for c in range(2 * N - 2, -1, -1):
        lo = max(0, c - N + 1)
        hi = min(c, N - 1)
        i_vec = np.arange(lo, hi + 1)
        yield c, i_vec, c - i_vec


def _bank_values(opp0, j_vec, N, S):
    """(S, V): the value of banking at s for the player whose opponent has j."""
    Bc = np.ones((S, len(j_vec)))
    Bc[:N] = 1.0 - opp0[j_vec[None, :], np.arange(N)[:, None]]
    return Bc


def _solve_pair(Sa, Sb, Ta, Tb):
    """x = Sa + Sb (1 - y), y = Ta + Tb (1 - x), elementwise; y reversed."""
    # y_v is the partner's value: Ta, Tb are already aligned to v.
    det = 1.0 - Sb * Tb
    x = (Sa + Sb - Sb * (Ta + Tb)) / det
    y = Ta + Tb * (1.0 - x)
    return x, y


# ---------------------------------------------------------------------------
# The optimum.


class Solution:
    """P0 of the optimum plus its bank thresholds.

    With own i, opponent j and m dice to roll next, the optimum banks with
    turn total t (steps) when thresholds[i, j, m] <= t and
    i + t < N - gap[i, j, m]: it rolls below the threshold and, when the
    target is near, rolls for the win (thresholds = N - i: it never banks).
    `irregular` counts post-keep states inside such a window where it rolls.
    """

    def __init__(self, rules, P0, thresholds, gap, irregular, seconds, passes):
        self.rules = rules
        self.P0 = P0
        self.thresholds = thresholds
        self.gap = gap
        self.irregular = irregular
        self.seconds = seconds
        self.passes = passes


def solve_optimal(rules, tol=1e-13, progress=True):
    """Solve the two-seat game exactly; returns a `Solution`."""
    start = time.time()
    rt = roll_table(rules)
    N = rules.target // STEP
    S = rt.ext(N)
    D = rt.dice
    P0 = np.zeros((N, N))
    thr = np.zeros((N, N, D + 1), dtype=np.int16)
    gap = np.zeros((N, N, D + 1), dtype=np.int16)
    irregular = 0
    passes = 0
    for c, i_vec, j_vec in _levels(N):
        Bc = _bank_values(P0, j_vec, N, S)
        # a guess from the level above: the same i with one more opponent step
        x = np.where(j_vec + 1 < N, P0[i_vec, np.minimum(j_vec + 1, N - 1)], 0.5)
        for _ in range(60):
            F = 1.0 - x[::-1]
            Sa, Sb, Wq, bank = _level_dp(rt, N, i_vec, Bc, F, None, record=True)
            passes += 1
            new, _ = _solve_pair(Sa, Sb, Sa[::-1], Sb[::-1])
            if not np.all(np.isfinite(new)):
                new = Sa + Sb * F  # degenerate pair: plain value iteration
            diff = np.max(np.abs(new - x))
            x = new
            if diff < tol:
                break
        else:
            _log("level %d: no convergence (%.3g)" % (c, diff))
        P0[i_vec, j_vec] = x
        lo_, gap_, irr_ = bank_windows(bank, i_vec, N)
        thr[i_vec, j_vec] = lo_
        gap[i_vec, j_vec] = gap_
        irregular += int(irr_.sum())
        if progress and c % 20 == 0:
            _log("  level %d/%d  %.1fs  passes %d" % (c, 2 * N - 2, time.time() - start, passes))
    return Solution(rules, P0, thr, gap, irregular, time.time() - start, passes)


class OptimalPolicy:
    """The optimum as a fixed policy: its keep preferences are its values and
    it banks where banking is worth at least as much as rolling."""

    name = "optimal"

    def __init__(self, solution, cache=False):
        self.sol = solution
        self.cache = {} if cache else None

    def level(self, rt, N, i_vec, j_vec):
        key = (int(i_vec[0]), int(j_vec[0]))
        if self.cache is not None and key in self.cache:
            Wq, bank = self.cache[key]
            V = len(i_vec)
            S = rt.ext(N)
            return (Wq.copy(), bank, np.ones((S - N, 7, V)), np.zeros((S - N, 7, V)))
        out = self._level(rt, N, i_vec, j_vec)
        if self.cache is not None:
            self.cache[key] = (out[0].copy(), out[1])
        return out

    def _level(self, rt, N, i_vec, j_vec):
        P0 = self.sol.P0
        S = rt.ext(N)
        Bc = _bank_values(P0, j_vec, N, S)
        F = 1.0 - P0[j_vec, i_vec]
        _, _, Wq, bank = _level_dp(rt, N, i_vec, Bc, F, None, record=True)
        V = len(i_vec)
        after_a = np.ones((S - N, 7, V))
        after_b = np.zeros((S - N, 7, V))
        return Wq, bank, after_a, after_b


# ---------------------------------------------------------------------------
# Turn-local policies: decisions from (turn total, dice left) only.


class TurnPolicy:
    """Q[t, m] keep preference, bank[t, m] flags and qbank[t, m], the chance
    of banking eventually from post-keep state (t, m) (for play past the
    target when the policy ignores it). target_aware: banks as soon as
    banking reaches the target, preferring any keep that does."""

    def __init__(self, name, Q, bank, qbank, target_aware=True):
        self.name = name
        self.Q = Q
        self.bank = bank
        self.qbank = qbank
        self.target_aware = target_aware

    def level(self, rt, N, i_vec, j_vec):
        S = rt.ext(N)
        s = np.arange(S)[:, None]
        t = np.clip(s - i_vec[None, :], 0, None)  # (S, V)
        Q = np.transpose(self.Q[t], (0, 2, 1)).copy()  # (S, 7, V)
        bank = np.transpose(self.bank[t[:N]], (0, 2, 1))
        V = len(i_vec)
        if self.target_aware:
            Q[N:] = np.inf
            after_a = np.ones((S - N, 7, V))
            after_b = np.zeros((S - N, 7, V))
        else:
            bk = np.transpose(self.bank[t[N:]], (0, 2, 1))
            q = np.transpose(self.qbank[t[N:]], (0, 2, 1))
            after_a = np.where(bk, 1.0, q)
            after_b = np.where(bk, 0.0, 1.0 - q)
        return Q, bank, after_a, after_b


def _bank_prob(rt, Q, bank, T):
    """Chance of banking eventually from each post-keep (t, m), t < T, for a
    turn-local policy; past T the policy is assumed to bank."""
    D = rt.dice
    q = np.ones((T + rt.maxp + 1, 7))
    flat = rt.flat
    Qf = Q.copy()
    Qf[:, 0] = -np.inf
    Q2 = Qf.reshape(-1)
    q2 = q.reshape(-1)
    g = np.arange(rt.groups)
    for t in range(T - 1, -1, -1):
        base = t * 7
        am = Q2[base + flat].argmax(axis=1)
        r = np.add.reduceat(rt.w * q2[base + flat[g, am]], rt.starts)
        q[t, 1:D + 1] = np.where(bank[t, 1:D + 1], 1.0, r)
    return q


def expected_score_dp(rules, tmax=40000):
    """The turn DP for the most expected points (no end-game effects).

    Returns (E, roll, thresholds): E[t, m] the expected final turn score of
    post-keep state (turn total t steps, m dice to roll next; choosing the
    better of bank and roll), roll[t, m] the expected final score of rolling,
    thresholds[m] the smallest turn total (points) at which it banks."""
    rt = roll_table(rules)
    D = rt.dice
    T = tmax // STEP
    rows = T + rt.maxp + 1
    tt = np.arange(rows, dtype=float) * STEP
    E = np.repeat(tt[:, None], 7, axis=1)  # past T: bank
    E[:, 0] = -np.inf
    roll = np.zeros((rows, 7))
    E2 = E.reshape(-1)
    flat = rt.flat
    for t in range(T - 1, -1, -1):
        vals = E2[t * 7 + flat].max(axis=1)
        r = np.add.reduceat(rt.w * vals, rt.starts)
        roll[t, 1:D + 1] = r
        E[t, 1:D + 1] = np.maximum(t * STEP, r)
    bank = E[:, :] <= tt[:, None] + 1e-9
    bank[:, 0] = True
    thresholds = {}
    for m in range(1, D + 1):
        rolls = np.nonzero(~bank[1:T, m])[0]
        thresholds[m] = (rolls[-1] + 2) * STEP if len(rolls) else STEP
    return E, roll, thresholds


def expected_score_policy(rules, target_aware=True):
    """Max-expected-score play: keeps maximise the expected turn score, bank
    at the DP thresholds."""
    rt = roll_table(rules)
    E, roll, thresholds = expected_score_dp(rules)
    T = E.shape[0] - rt.maxp - 1
    bank = E <= np.arange(E.shape[0])[:, None] * STEP + 1e-9
    q = _bank_prob(rt, E, bank, T)
    name = "expected-score" + ("" if target_aware else " (target-blind)")
    pol = TurnPolicy(name, E, bank, q, target_aware)
    pol.thresholds = thresholds
    pol.start_value = roll[0, rt.dice]
    return pol


def keep_all_policy(rules, bank_at=300, target_aware=True):
    """Keep every scoring die (the keep with the most dice), bank at
    `bank_at` points or more."""
    rt = roll_table(rules)
    T = max(800, 2 * rules.target // STEP)
    rows = T + rt.maxp + 1
    Q = np.zeros((rows, 7))
    for m in range(1, rt.dice + 1):
        Q[:, m] = -(m % rt.dice)  # hot dice (m = D) kept all: best
    bank = np.repeat((np.arange(rows) * STEP >= bank_at)[:, None], 7, axis=1)
    q = _bank_prob(rt, Q, bank, T)
    return TurnPolicy("keep-all, bank >= %d" % bank_at, Q, bank, q, target_aware)


# ---------------------------------------------------------------------------
# Table policies: bank thresholds per (own, opponent, dice left).


class ThresholdPolicy:
    """Bank iff lo[i, j, m] <= t and i + t < N - gap[i, j, m] (t in steps),
    and always when banking reaches the target. gap None: no roll zone.

    keep: how keeps are chosen (each a small table indexed by (t, m) or by
    (points still needed, m)):
      "ev"      the expected-score DP's post-keep value E[t, m];
      "ev_thr"  t when these thresholds bank there, else the expected-score
                value of rolling;
      "hybrid"  as "ev", but where the table never banks before the
                target with any number of dice (lo >= N - i) the chance to
                reach the target this turn (`reach_table`).
    """

    def __init__(self, name, lo, gap, rules, keep="ev_thr"):
        self.name = name
        self.lo = lo
        self.gap = gap
        self.keep = keep
        E, roll, _ = expected_score_dp(rules)
        self.E = E
        self.roll = roll
        if keep == "hybrid":
            self.reach = reach_table(rules)

    def level(self, rt, N, i_vec, j_vec):
        S = rt.ext(N)
        V = len(i_vec)
        s = np.arange(S)[:, None]
        t = np.clip(s - i_vec[None, :], 0, None)  # (S, V)
        lo = self.lo[i_vec, j_vec].T[None, :, :]  # (1, 7, V)
        bank = t[:, None, :] >= lo
        if self.gap is not None:
            gap = self.gap[i_vec, j_vec].T[None, :, :]
            bank &= s[:, :, None] < N - gap
        if self.keep in ("ev", "hybrid"):
            Q = np.transpose(self.E[t], (0, 2, 1)).copy()
            if self.keep == "hybrid":
                need = np.clip(N - s, 0, None)  # (S, 1)
                reach = self.reach[need[:, 0]][:, :, None]  # (S, 7, 1)
                allin = np.all(lo[:, 1:] >= (N - i_vec)[None, None, :], axis=1)  # (1, V)
                Q = np.where(allin[:, None, :], reach, Q)
        else:
            R = np.transpose(self.roll[t], (0, 2, 1))
            Q = np.where(bank, (t * STEP)[:, None, :], R)
        Q[N:] = np.inf
        after_a = np.ones((S - N, 7, V))
        after_b = np.zeros((S - N, 7, V))
        return Q, bank[:N], after_a, after_b


def reach_table(rules, need_max=None):
    """reach[need, m]: the best chance to add at least `need` steps this turn
    from a post-keep state with m dice to roll next, never banking before
    (reach[0] = 1)."""
    rt = roll_table(rules)
    D = rt.dice
    if need_max is None:
        need_max = rules.target // STEP
    # index by need with an offset so need - p < 0 reads 1
    off = rt.maxp
    R = np.ones((need_max + 1 + off, 7))
    R[:, 0] = -np.inf
    R2 = R.reshape(-1)
    # flat offsets for need - p: row (off + need - p)
    flat = -rt.p * 7 + rt.m
    for need in range(1, need_max + 1):
        base = (off + need) * 7
        vals = R2[base + flat].max(axis=1)
        R[off + need, 1:D + 1] = np.add.reduceat(rt.w * vals, rt.starts)
    out = R[off:].copy()
    out[:, 0] = 0.0
    return out


class MixPolicy:
    """Keeps of one policy, bank decisions of another (diagnostics)."""

    def __init__(self, name, keep_from, bank_from):
        self.name = name
        self.keep_from = keep_from
        self.bank_from = bank_from

    def level(self, rt, N, i_vec, j_vec):
        Q = self.keep_from.level(rt, N, i_vec, j_vec)[0]
        _, bank, after_a, after_b = self.bank_from.level(rt, N, i_vec, j_vec)
        return Q.copy(), bank, after_a, after_b


# ---------------------------------------------------------------------------
# The shipped table: format, size and a reader that decides like the device.
#
#   "ZMT1", N (u16), D (u8), flags (u8), then sections:
#   P0      N * N u16, P0[i, j] * 65535 rounded (display only; omitted
#           when flags & 1 is clear)
#   index   N * D u32: offset of the run list of row (i, m), from `runs`
#   runs    per row (i, m), along j: (count u8, lo u8, gap u8) runs
#   E       N * D u16: expected-score post-keep value E[t, m], points
#   reach   (N + 1) * D u16: reach[need, m] * 65535
# A decision reads one run row per option with a distinct m (cached per
# turn) and one or two table cells per option.


def pack_tables(solution, with_p0=True, lo=None, gap=None):
    """The table file of a solution as bytes (see the format above)."""
    import struct

    rules = solution.rules
    N = rules.target // STEP
    D = rules.dice
    lo = solution.thresholds if lo is None else lo
    gap = solution.gap if gap is None else gap
    runs = bytearray()
    index = []
    for i in range(N):
        for m in range(1, D + 1):
            index.append(len(runs))
            j = 0
            while j < N:
                k = j
                while k + 1 < N and k + 1 - j < 255 and lo[i, k + 1, m] == lo[i, j, m] \
                        and gap[i, k + 1, m] == gap[i, j, m]:
                    k += 1
                runs += bytes((k + 1 - j, int(lo[i, j, m]), int(gap[i, j, m])))
                j = k + 1
    E, _, _ = expected_score_dp(rules)
    reach = reach_table(rules)
    out = bytearray(b"ZMT1")
    out += struct.pack("<HBB", N, D, 1 if with_p0 else 0)
    if with_p0:
        q = np.rint(solution.P0 * 65535).astype("<u2")
        out += q.tobytes()
    out += np.array(index, dtype="<u4").tobytes()
    out += runs
    out += np.rint(E[:N, 1:D + 1]).astype("<u2").tobytes()
    out += np.rint(reach[:N + 1, 1:D + 1] * 65535).astype("<u2").tobytes()
    return bytes(out)


class TableReader:
    """Decisions from a table file opened for reading (seek + small reads),
    as the device would make them: keep/bank from the thresholds, keeps by
    the expected-score value, or by the reach chance when no bank is left
    before the target."""

    def __init__(self, f):
        import struct

        self.f = f
        self.struct = struct
        f.seek(0)
        head = f.read(8)
        if head[:4] != b"ZMT1":
            raise ValueError("not a master table")
        self.N, self.D, flags = struct.unpack("<HBB", head[4:])
        N, D = self.N, self.D
        pos = 8
        self.p0_at = pos if flags & 1 else None
        if flags & 1:
            pos += 2 * N * N
        self.index_at = pos
        pos += 4 * N * D
        self.runs_at = pos
        f.seek(self.index_at + 4 * N * D - 4)
        # the runs section ends where E starts: find it from the last row
        last = struct.unpack("<I", f.read(4))[0]
        f.seek(self.runs_at + last)
        j = 0
        while j < N:
            j += f.read(3)[0]
        self.E_at = f.tell()
        self.reach_at = self.E_at + 2 * N * D
        self._row = {}

    def _u16(self, at):
        self.f.seek(at)
        b = self.f.read(2)
        return b[0] | b[1] << 8

    def win_chance(self, i, j):
        """P0[i, j] (steps) as a float, or None without the P0 section."""
        if self.p0_at is None:
            return None
        return self._u16(self.p0_at + 2 * (i * self.N + j)) / 65535

    def bank_rule(self, i, j, m):
        """(lo, gap) for own i, opponent j, m dice (steps)."""
        key = (i, j, m)
        found = self._row.get(key)
        if found is None:
            self.f.seek(self.index_at + 4 * (i * self.D + m - 1))
            off = self.struct.unpack("<I", self.f.read(4))[0]
            self.f.seek(self.runs_at + off)
            k = 0
            while True:
                n, lo, gap = self.f.read(3)
                k += n
                if k > j:
                    break
            found = (lo, gap)
            if len(self._row) > 64:
                self._row.clear()
            self._row[key] = found
        return found

    def decide(self, i, j, t, options):
        """options: (m, p) pairs in steps (m = D for hot dice) of the roll just
        made, turn total t before it. Returns (index of the chosen option,
        bank?)."""
        N = self.N
        allin = True
        for m in range(1, self.D + 1):
            if self.bank_rule(i, j, m)[0] < N - i:
                allin = False
                break
        best = -1.0
        choice = 0
        bank_choice = False
        for k, (m, p) in enumerate(options):
            s = i + t + p
            if s >= N:
                return k, True
            lo, gap = self.bank_rule(i, j, m)
            bank = lo <= t + p and s < N - gap
            if allin:
                q = self._u16(self.reach_at + 2 * ((N - s) * self.D + m - 1))
            else:
                q = self._u16(self.E_at + 2 * ((t + p) * self.D + m - 1))
            if q > best:
                best, choice, bank_choice = q, k, bank
        return choice, bank_choice


# ---------------------------------------------------------------------------
# Exact evaluation of a pair of fixed policies.


def evaluate(policy_a, policy_b, rules, full=False, progress=False):
    """Chance that `policy_a`, moving first, beats `policy_b` (exact).

    With full=True returns (A0, B0): A0[i, j] the chance that a wins when a
    starts a turn with own i and b's j; B0[j, i] likewise for b. B0[0, 0] is
    b's chance as the first player, so one call answers both seat orders.
    """
    start = time.time()
    rt = roll_table(rules)
    N = rules.target // STEP
    S = rt.ext(N)
    A0 = np.zeros((N, N))
    B0 = np.zeros((N, N))
    F0 = np.zeros(1)
    for c, i_vec, j_vec in _levels(N):
        # a to move at (i, j); b to move at (j, i): element v of b's vector is
        # the partner of a's element v, so b's own score vector is j_vec.
        Sa, Sb = _level_dp(rt, N, i_vec, _bank_values(B0, j_vec, N, S), F0,
                           policy_a.level(rt, N, i_vec, j_vec))
        Ta, Tb = _level_dp(rt, N, j_vec, _bank_values(A0, i_vec, N, S), F0,
                           policy_b.level(rt, N, j_vec, i_vec))
        x, y = _solve_pair(Sa, Sb, Ta, Tb)
        A0[i_vec, j_vec] = x
        B0[j_vec, i_vec] = y
        if progress and c % 40 == 0:
            _log("  eval level %d  %.1fs" % (c, time.time() - start))
    if full:
        return A0, B0
    return A0[0, 0]


def both_seats(policy_a, policy_b, rules):
    """(a first, a second, average) win chances of a against b."""
    A0, B0 = evaluate(policy_a, policy_b, rules, full=True)
    first = A0[0, 0]
    second = 1.0 - B0[0, 0]
    return first, second, (first + second) / 2


def fixed_point_residual(solution):
    """Max |P0 - one value-iteration sweep of P0| (should be ~1e-15)."""
    rules = solution.rules
    rt = roll_table(rules)
    N = rules.target // STEP
    S = rt.ext(N)
    P0 = solution.P0
    worst = 0.0
    for _, i_vec, j_vec in _levels(N):
        F = 1.0 - P0[j_vec, i_vec]
        Sa, Sb = _level_dp(rt, N, i_vec, _bank_values(P0, j_vec, N, S), F, None)
        worst = max(worst, float(np.max(np.abs(Sa + Sb * F - P0[i_vec, j_vec]))))
    return worst


def main(argv=None):
    import argparse
    import resource

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", type=int, default=10000)
    ap.add_argument("--tables", action="store_true",
                    help="also measure the table candidates (several more minutes)")
    ap.add_argument("--save", metavar="PATH", help="write the table file here")
    args = ap.parse_args(argv)
    rules = master_rules(args.target)
    t0 = time.time()
    ev = expected_score_policy(rules)
    _log("expected-score DP: fresh turn %.1f points, thresholds %s (%.1fs)" % (
        ev.start_value, [ev.thresholds[m] for m in range(1, 7)], time.time() - t0))
    _log("solving the optimum, target %d ..." % rules.target)
    sol = solve_optimal(rules)
    print("optimal solve: %.1fs, %d level passes, %d irregular bank decisions"
          % (sol.seconds, sol.passes, sol.irregular))
    print("1. both optimal, first player wins        %.4f%%" % (100 * sol.P0[0, 0]))
    opt = OptimalPolicy(sol, cache=args.tables)
    t1 = time.time()
    first, second, avg = both_seats(opt, ev, rules)
    print("2. optimal vs expected-score: first %.4f%%, second %.4f%%, average %.4f%% (%.1fs)"
          % (100 * first, 100 * second, 100 * avg, time.time() - t1))
    t1 = time.time()
    simple = keep_all_policy(rules)
    first, second, avg = both_seats(ev, simple, rules)
    print("3. expected-score vs keep-all/bank>=300: first %.4f%%, second %.4f%%, "
          "average %.4f%% (%.1fs)" % (100 * first, 100 * second, 100 * avg, time.time() - t1))
    if args.save:
        with open(args.save, "wb") as f:
            f.write(pack_tables(sol))
    if args.tables:
        print("table sizes: with P0 %d bytes, without %d bytes"
              % (len(pack_tables(sol)), len(pack_tables(sol, with_p0=False))))
        for keep in ("hybrid", "ev"):
            t1 = time.time()
            pol = ThresholdPolicy("thresholds+gap, keep=" + keep, sol.thresholds, sol.gap,
                                  rules, keep)
            a = both_seats(pol, opt, rules)
            b = both_seats(pol, ev, rules)
            print("%s: vs optimal %.4f%%/%.4f%% avg %.4f%%; vs expected-score %.4f%%/%.4f%% "
                  "avg %.4f%% (%.1fs)" % ((pol.name,) + tuple(100 * x for x in a + b)
                                          + (time.time() - t1,)))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("total %.1fs, peak RSS %.0f MB" % (time.time() - t0, rss))


if __name__ == "__main__":
    main()
