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
                found = scoring.keeps(roll, rules)
                if rules.auto_keep and found:
                    found = [scoring.scoring_keep(roll, rules)]
                for kept, points in found:
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
# The end rules of a rule set, as the two-seat value iteration sees them.


class Model:
    """How the two-seat DP treats the end of the game under `rules`.

    Post-keep states are (s, m): the would-be banked score s (steps) and m
    dice to roll next. Rows s < N are the race to the target. From `top` on
    the value is fixed:

    - immediate: banking s >= N wins (top = N), or with hot dice "must"
      (custom rules) play goes on to N + cap like last_turn;
    - exact: s == N wins, s > N busts (a farkle: the turn scores nothing;
      takeover offers are not modelled) (top = N);
    - last_turn / round: banking s >= N gives the opponent (at j) one last
      turn: the bank value is 1 - Q(s - j), Q(g) the opponent's best chance
      to score more than g steps in one turn (tie "trigger": strictly more;
      "playoff": a tie counts half, approximated as 1 - (Q'(g) + Q'(g+1))/2
      with Q'(x) the chance of at least x). Between N and top = N + cap the
      player may roll on to widen the margin; at top it banks. "round" is
      modelled like last_turn for both seats (the second seat, whose bank
      at the target wins at once, is under-valued; engine.master corrects
      that in play).

    Entry hurdle E (steps): own score 0 means not entered (exact for the
    presets: no penalty); then banking is allowed only from s >= E.
    hot_dice "must": a post-keep state with all dice to roll (hot dice)
    cannot bank. auto_keep: the only keep is all scoring dice (RollTable).
    """

    def __init__(self, rules, cap=60):
        self.rules = rules
        self.rt = roll_table(rules)
        rt = self.rt
        self.N = N = rules.target // STEP
        self.D = rules.dice
        self.entry = rules.entry // STEP
        self.must = rules.hot_dice == "must"
        self.exact = bool(rules.exact)
        self.finish = rules.finish
        if self.exact or (self.finish == "immediate" and not self.must):
            self.cap = 0
        else:
            self.cap = cap
        self.top = N + self.cap
        self.S = self.top + rt.maxp + 1
        self.last = None
        if self.finish in ("last_turn", "round"):
            R = reach_table(rules, self.S + 2)[:, rt.dice]
            if rules.tie == "trigger":
                self.last = 1.0 - R[1:]  # last[g] = 1 - Q'(g + 1)
            else:
                self.last = 1.0 - 0.5 * (R[:-1] + R[1:])

    def term(self, j_vec):
        """(S - N, V): the value of banking at s = N.. against opponent j."""
        s = np.arange(self.N, self.S)[:, None]
        if self.last is None:
            return np.ones((self.S - self.N, len(j_vec)))
        return self.last[s - j_vec[None, :]]

    def allowed(self, i_vec):
        """(top, 7, V) bank allowed (None: everywhere)."""
        if not self.entry and not self.must:
            return None
        A = np.ones((self.top, 7, len(i_vec)), dtype=bool)
        if self.entry:
            A[:self.entry, :, i_vec == 0] = False
        if self.must:
            A[:, self.D, :] = False
        return A


_MODELS = {}


def get_model(rules):
    """The Model of `rules` (a Model passes through)."""
    if isinstance(rules, Model):
        return rules
    key = rules.encode()
    if key not in _MODELS:
        _MODELS[key] = Model(rules)
    return _MODELS[key]


# ---------------------------------------------------------------------------
# The turn DP of one level, vectorised over the pairs of the level.


def _level_dp(model, i_vec, Bc, F, choose, record=False):
    """One turn DP for the pairs (i_vec[v], j_v) of a level.

    Bc: (S, V) bank values. F: (V,) current farkle value, used only by the
    optimum. `choose` is None for the optimum (argmax of the values at F,
    bank when banking is at least as good and allowed), else a pair
    (Q, bank) of a fixed policy: Q (S, 7, V) keep preference, bank
    (top, 7, V) flags (masked by what the rules allow).

    Returns (Sa, Sb): the start-of-turn value of each pair as Sa + Sb * F,
    and, with record=True, also (Wq, bank) of the optimum: its post-keep
    values at F and bank flags (top, 7, V).
    """
    rt = model.rt
    N, top, S, D = model.N, model.top, model.S, rt.dice
    V = len(i_vec)
    Wa = np.zeros((S, 7, V))
    Wb = np.zeros((S, 7, V))
    if choose is None:
        Wq = np.full((S, 7, V), -np.inf)
        bank_rec = np.zeros((top, 7, V), dtype=bool) if record else None
    else:
        Q, bankf = choose
        Wq = Q
        Wq[:, 0] = -np.inf
    if model.exact:
        Wa[N, 1:] = 1.0
        Wq[N, 1:] = 1.0 if choose is None else np.inf
        Wb[N + 1:, 1:] = 1.0  # a bust hands the opponent a turn, as a farkle
        Wq[N + 1:, 1:] = -1e9
    else:
        Wa[top:, 1:] = Bc[top:, None, :]
        if choose is None:
            Wq[top:, 1:] = Bc[top:, None, :]
        elif model.finish == "immediate":
            Wq[N:, 1:] = np.inf
    allowed = model.allowed(i_vec)
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
    for s in range(top - 1, lo - 1, -1):
        base = s * 7
        G = Wq2[base + flat]  # (groups, K, V)
        am = G.argmax(axis=1)
        ch = base + flat[gidx, am]
        Ra = np.add.reduceat(w * Wa2[ch, vidx], starts, axis=0)
        Rb = np.add.reduceat(w * Wb2[ch, vidx], starts, axis=0) + fk
        if s < N:
            here = i_vec == s
            if here.any():
                Sa[here] = Ra[D - 1, here]
                Sb[here] = Rb[D - 1, here]
        B = Bc[s]
        if choose is None:
            Rv = Ra + Rb * F
            bank = B >= Rv
            if allowed is not None:
                bank &= allowed[s, 1:D + 1]
            Wq[s, 1:D + 1] = np.where(bank, B, Rv)
            if record:
                bank_rec[s, 1:D + 1] = bank
        else:
            bank = bankf[s, 1:D + 1]
            if allowed is not None:
                bank = bank & allowed[s, 1:D + 1]
        Wa[s, 1:D + 1] = np.where(bank, B, Ra)
        Wb[s, 1:D + 1] = np.where(bank, 0.0, Rb)
    if record:
        return Sa, Sb, Wq, bank_rec
    return Sa, Sb


def bank_windows(bank, i_vec, N):
    """Bank flags (top, 7, V) of post-keep states s -> (lo, gap, irregular),
    each (V, 7): the optimum banks for lo <= s - i <= N - 1 - gap."""
    bank = bank[:N]
    s = np.arange(N)[:, None, None]
    bk = bank & (s > i_vec[None, None, :])
    some = bk.any(axis=0)  # (7, V)
    first = bk.argmax(axis=0)
    last = N - 1 - bk[::-1].argmax(axis=0)
    lo = np.where(some, first - i_vec[None, :], N - i_vec[None, :])
    gap = np.where(some, N - 1 - last, 0)
    irregular = np.where(some, last - first + 1 - bk.sum(axis=0), 0)
    return lo.T, gap.T, irregular.T


def past_rule(bank, N):
    """Bank flags (top, 7, V) -> (past, irregular), each (V, 7): at or past
    the target the optimum banks from s = N + past on (rolls below), and
    `irregular` counts its banks below that."""
    bk = bank[N:]
    X = bk.shape[0]
    if X == 0:
        z = np.zeros(bank.shape[1:][::-1], dtype=np.int64)
        return z, z
    rolls = ~bk
    anyroll = rolls.any(axis=0)
    lastroll = X - 1 - rolls[::-1].argmax(axis=0)
    past = np.where(anyroll, lastroll + 1, 0)
    below = np.arange(X)[:, None, None] < past[None]
    irregular = (bk & below).sum(axis=0)
    return past.T, irregular.T


def _levels(N):
    for c in range(2 * N - 2, -1, -1):
        lo = max(0, c - N + 1)
        hi = min(c, N - 1)
        i_vec = np.arange(lo, hi + 1)
        yield c, i_vec, c - i_vec


def _bank_values(model, opp0, j_vec):
    """(S, V): the value of banking at s for the player whose opponent has j."""
    N = model.N
    Bc = np.empty((model.S, len(j_vec)))
    Bc[:N] = 1.0 - opp0[j_vec[None, :], np.arange(N)[:, None]]
    Bc[N:] = model.term(j_vec)
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
    """P0 of the optimum plus its bank rules.

    With own i, opponent j and m dice to roll next, the optimum banks with
    turn total t (steps) below the target when thresholds[i, j, m] <= t and
    i + t < N - gap[i, j, m]: it rolls below the threshold and, when the
    target is near, rolls for the win (thresholds = N - i: it never banks).
    At or past the target (last_turn, round) it banks from s = N +
    past[i, j, m] on (the farkle value still depends on i). `irregular`
    counts post-keep states where the optimum deviates from these rules.
    """

    def __init__(self, rules, P0, thresholds, gap, past, irregular, seconds, passes):
        self.rules = rules
        self.P0 = P0
        self.thresholds = thresholds
        self.gap = gap
        self.past = past
        self.irregular = irregular
        self.seconds = seconds
        self.passes = passes


def solve_optimal(rules, tol=1e-13, progress=True):
    """Solve the two-seat game exactly (under `Model(rules)`); returns a
    `Solution`."""
    start = time.time()
    model = get_model(rules)
    rules = model.rules
    N = model.N
    P0 = np.zeros((N, N))
    thr = np.zeros((N, N, 7), dtype=np.int16)
    gap = np.zeros((N, N, 7), dtype=np.int16)
    past = np.zeros((N, N, 7), dtype=np.int16)
    irregular = 0
    passes = 0
    for c, i_vec, j_vec in _levels(N):
        Bc = _bank_values(model, P0, j_vec)
        # a guess from the level above: the same i with one more opponent step
        x = np.where(j_vec + 1 < N, P0[i_vec, np.minimum(j_vec + 1, N - 1)], 0.5)
        for _ in range(60):
            F = 1.0 - x[::-1]
            Sa, Sb, Wq, bank = _level_dp(model, i_vec, Bc, F, None, record=True)
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
        pt, irr2 = past_rule(bank, N)
        past[i_vec, j_vec] = pt
        irregular += int(irr2.sum())
        if progress and c % 20 == 0:
            _log("  level %d/%d  %.1fs  passes %d" % (c, 2 * N - 2, time.time() - start, passes))
    return Solution(rules, P0, thr, gap, past, irregular, time.time() - start, passes)


class OptimalPolicy:
    """The optimum as a fixed policy: its keep preferences are its values and
    it banks where banking is worth at least as much as rolling."""

    name = "optimal"

    def __init__(self, solution, cache=False):
        self.sol = solution
        self.cache = {} if cache else None

    def level(self, model, i_vec, j_vec):
        key = (int(i_vec[0]), int(j_vec[0]))
        if self.cache is not None and key in self.cache:
            Wq, bank = self.cache[key]
            return Wq.copy(), bank
        P0 = self.sol.P0
        Bc = _bank_values(model, P0, j_vec)
        F = 1.0 - P0[j_vec, i_vec]
        _, _, Wq, bank = _level_dp(model, i_vec, Bc, F, None, record=True)
        if self.cache is not None:
            self.cache[key] = (Wq.copy(), bank)
        return Wq, bank


# ---------------------------------------------------------------------------
# Turn-local policies: decisions from (turn total, dice left) only.


class TurnPolicy:
    """Q[t, m] keep preference and bank[t, m] flags by turn total t (steps).
    In immediate games it banks as soon as banking reaches the target,
    preferring any keep that does; past the target in last_turn games it
    plays on by the same tables (as the Expert does)."""

    def __init__(self, name, Q, bank):
        self.name = name
        self.Q = Q
        self.bank = bank

    def level(self, model, i_vec, j_vec):
        S, top = model.S, model.top
        s = np.arange(S)[:, None]
        t = np.clip(s - i_vec[None, :], 0, None)  # (S, V)
        Q = np.transpose(self.Q[t], (0, 2, 1)).copy()  # (S, 7, V)
        bank = np.transpose(self.bank[t[:top]], (0, 2, 1))
        return Q, bank


def expected_score_dp(rules, tmax=40000):
    """The turn DP for the most expected points (no end-game effects).

    Returns (E, roll, thresholds): E[t, m] the expected final turn score of
    post-keep state (turn total t steps, m dice to roll next; choosing the
    better of bank and roll, rolling hot dice under "must"), roll[t, m] the
    expected final score of rolling, thresholds[m] the smallest turn total
    (points) at which it banks."""
    rt = roll_table(rules)
    D = rt.dice
    must = rules.hot_dice == "must"
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
        if must and t:
            E[t, D] = r[D - 1]
    bank = E[:, :] <= tt[:, None] + 1e-9
    bank[:, 0] = True
    thresholds = {}
    for m in range(1, D + 1):
        rolls = np.nonzero(~bank[1:T, m])[0]
        thresholds[m] = (rolls[-1] + 2) * STEP if len(rolls) else STEP
    return E, roll, thresholds


def expected_score_policy(rules):
    """Max-expected-score play (the Expert away from the end game): keeps
    maximise the expected turn score, bank at the DP thresholds."""
    rt = roll_table(rules)
    E, roll, thresholds = expected_score_dp(rules)
    bank = E <= np.arange(E.shape[0])[:, None] * STEP + 1e-9
    pol = TurnPolicy("expected-score", E, bank)
    pol.thresholds = thresholds
    pol.start_value = roll[0, rt.dice]
    return pol


def keep_all_policy(rules, bank_at=300):
    """Keep every scoring die (the keep with the most dice), bank at
    `bank_at` points or more."""
    rt = roll_table(rules)
    T = max(800, 3 * rules.target // STEP)
    rows = T + rt.maxp + 1
    Q = np.zeros((rows, 7))
    for m in range(1, rt.dice + 1):
        Q[:, m] = -(m % rt.dice)  # hot dice (m = D) kept all: best
    bank = np.repeat((np.arange(rows) * STEP >= bank_at)[:, None], 7, axis=1)
    return TurnPolicy("keep-all, bank >= %d" % bank_at, Q, bank)


# ---------------------------------------------------------------------------
# Table policies: bank windows per (own, opponent, dice left).


class ThresholdPolicy:
    """Bank below the target iff lo[i, j, m] <= t and i + t < N - gap[i, j,
    m] (t in steps; gap None: no roll zone); at or past it (last_turn) iff
    s - N >= past[i, j, m] (None: always); always when banking wins.

    keep: how keeps are chosen:
      "ev"      the expected-score DP's post-keep value E[t, m];
      "hybrid"  as "ev", but where the table never banks before the
                target with any number of dice that may bank (lo >= N - i)
                and the target is not exact: the chance to reach the target
                this turn (`reach_table`), and past the target E again.
    This is the rule engine.master plays (with the Expert plan's values
    for E).
    """

    def __init__(self, name, lo, gap, rules, keep="hybrid", past=None):
        self.name = name
        self.lo = lo
        self.gap = gap
        self.past = past
        self.keep = keep
        E, roll, _ = expected_score_dp(rules)
        self.E = E
        if keep == "hybrid":
            self.reach = reach_table(rules)

    def level(self, model, i_vec, j_vec):
        S, N, top, D = model.S, model.N, model.top, model.D
        s = np.arange(S)[:, None]
        t = np.clip(s - i_vec[None, :], 0, None)  # (S, V)
        lo = self.lo[i_vec, j_vec].T[None, :, :]  # (1, 7, V)
        bank = t[:top, None, :] >= lo
        if self.gap is not None:
            gap = self.gap[i_vec, j_vec].T[None, :, :]
            bank &= s[:top, :, None] < N - gap
        if top > N:
            if self.past is None:
                bank[N:] = True
            else:
                past = self.past[i_vec, j_vec].T[None, :, :]
                bank[N:] = np.arange(top - N)[:, None, None] >= past
        Q = np.transpose(self.E[t], (0, 2, 1)).copy()
        if self.keep == "hybrid" and not model.exact:
            need = np.clip(N - s, 0, None)  # (S, 1)
            reach = self.reach[need[:, 0]][:, :, None]  # (S, 7, 1)
            ms = np.arange(1, D + 1) if not model.must else np.arange(1, D)
            allin = np.all(lo[:, ms] >= (N - i_vec)[None, None, :], axis=1)  # (1, V)
            # past the target: any state there beats any below, then by E
            R = np.where(s[:, :, None] >= N, 2.0 + Q / 1e7, reach)
            Q = np.where(allin[:, None, :], R, Q)
        return Q, bank


def reach_table(rules, need_max=None):
    """reach[need, m]: the best chance to add at least `need` steps this turn
    from a post-keep state with m dice to roll next, never banking before
    (reach[0] = 1; under hot dice "must" a hot-dice state past the need
    still has to roll once more)."""
    rt = roll_table(rules)
    D = rt.dice
    if need_max is None:
        need_max = rules.target // STEP
    # index by need with an offset so need - p < 0 reads 1
    off = rt.maxp
    R = np.ones((need_max + 1 + off, 7))
    if rules.hot_dice == "must":
        R[:off + 1, D] = 1.0 - rt.farkle[D - 1]
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

    def level(self, model, i_vec, j_vec):
        Q = self.keep_from.level(model, i_vec, j_vec)[0]
        _, bank = self.bank_from.level(model, i_vec, j_vec)
        return Q.copy(), bank


# ---------------------------------------------------------------------------
# The shipped table ("ZMT2"): format in engine.master, written here.


def encode_row(cells):
    """Token stream of one row: cells (lo, gap, past) along j (engine.master
    documents the tokens)."""
    out = bytearray()
    n = len(cells)
    prev = (0, 0, 0)
    k = 0

    def same_after(e, cell):
        while e < n and cells[e] == cell:
            e += 1
        return e

    while k < n:
        cell = cells[k]
        if cell == prev:
            e = same_after(k, prev)
            run = e - k
            while run:
                r = min(run, 32)
                out.append(0x60 + r - 1)
                run -= r
            k = e
            continue
        d = tuple(cell[x] - prev[x] for x in range(3))
        moved = [x for x in range(3) if d[x]]
        if len(moved) == 1 and abs(d[moved[0]]) == 1:
            # one field changes by one, then up to 15 cells stay the same
            x = moved[0]
            e = min(same_after(k + 1, cell), k + 16)
            out.append(x << 5 | (16 if d[x] < 0 else 0) | (e - k - 1))
            prev = cell
            k = e
            continue
        code = 0x80
        extra = bytearray()
        for x, shift in ((0, 4), (1, 2), (2, 0)):
            if d[x] == 0:
                c = 0
            elif d[x] == 1:
                c = 1
            elif d[x] == -1:
                c = 2
            else:
                c = 3
                extra.append(cell[x])
            code |= c << shift
        out.append(code)
        out += extra
        prev = cell
        k += 1
        if extra:
            continue
        e = k  # the same small change again: one token for up to 64 cells
        while e < n and tuple(cells[e][x] - cells[e - 1][x] for x in range(3)) == d:
            e += 1
        run = e - k
        if run:
            prev = cells[e - 1]
            k = e
            while run:
                r = min(run, 64)
                out.append(0xC0 + r - 1)
                run -= r
    return bytes(out)


def decode_row(data, upto):
    """(lo, gap, past) of cell `upto` of a token stream (reference decoder)."""
    cells = []
    vals = [0, 0, 0]
    last = (0, 0, 0)
    pos = 0
    while len(cells) <= upto:
        b = data[pos]
        pos += 1
        if b < 0x80:
            field = b >> 5
            if field == 3:
                cells += [tuple(vals)] * ((b & 31) + 1)
                continue
            d = [0, 0, 0]
            d[field] = -1 if b & 16 else 1
            vals = [vals[x] + d[x] for x in range(3)]
            last = tuple(d)
            cells += [tuple(vals)] * ((b & 15) + 1)
        elif b >= 0xC0:
            for _ in range(b - 0xC0 + 1):
                vals = [vals[x] + last[x] for x in range(3)]
                cells.append(tuple(vals))
        else:
            d = [0, 0, 0]
            for x, shift in ((0, 4), (1, 2), (2, 0)):
                c = (b >> shift) & 3
                if c == 3:
                    d[x] = data[pos] - vals[x]
                    pos += 1
                else:
                    d[x] = (0, 1, -1)[c]
            vals = [vals[x] + d[x] for x in range(3)]
            last = tuple(d)
            cells.append(tuple(vals))
    return cells[upto]


def pack_p0(P0):
    """P0 rows as 4-bit steps (format: engine.master): each row's first
    value in 1/255, then per cell the change clamped to -8..7, the error
    carried on (the decoder reproduces exactly these values)."""
    N = P0.shape[0]
    q = np.rint(P0 * 255).astype(int)
    out = bytearray()
    for r in range(N):
        row = bytearray(1 + N // 2)
        v = int(q[r, 0])
        row[0] = v
        for k in range(1, N):
            d = max(-8, min(7, int(q[r, k]) - v))
            v += d
            b = 1 + (k - 1) // 2
            row[b] |= (d + 8) << (4 * ((k - 1) % 2))
        out += row
    return bytes(out)


def unpack_p0(data, N):
    """The values pack_p0 stores, as an (N, N) int array (x 255)."""
    R = 1 + N // 2
    out = np.zeros((N, N), dtype=int)
    for r in range(N):
        row = data[r * R:(r + 1) * R]
        v = row[0]
        out[r, 0] = v
        for k in range(1, N):
            v += ((row[1 + (k - 1) // 2] >> (4 * ((k - 1) % 2))) & 15) - 8
            out[r, k] = v
    return out


def pack_master(solution):
    """The Master table file of a solution as bytes (format: engine.master)."""
    import struct

    from engine.master import FLAG_EXACT, FLAG_LAST, FLAG_MUST, FLAG_P0, FLAG_P0_BYTES, MAGIC

    model = get_model(solution.rules)
    rules = model.rules
    N, D = model.N, model.D
    assert N <= 255 and model.S - N <= 255
    lo, gap, past = solution.thresholds, solution.gap, solution.past
    rows = bytearray()
    index = bytearray()
    for i in range(N):
        for m in range(1, D + 1):
            index += struct.pack("<I", len(rows))[:3]
            cells = [(int(lo[i, j, m]), int(gap[i, j, m]), int(past[i, j, m]))
                     for j in range(N)]
            rows += encode_row(cells)
    index += struct.pack("<I", len(rows))[:3]
    flags = FLAG_P0
    if model.last is not None:
        flags |= FLAG_LAST
    if model.exact:
        flags |= FLAG_EXACT
    if model.must:
        flags |= FLAG_MUST
    p0 = pack_p0(solution.P0)
    exact_p0 = np.rint(solution.P0 * 255)
    if np.max(np.abs(unpack_p0(p0, N) - exact_p0)) > 2:
        # steep steps (exact targets: P0 jumps near the target): bytes
        p0 = exact_p0.astype(np.uint8).tobytes()
        flags |= FLAG_P0_BYTES
    if model.last is not None:
        last = np.rint(np.clip(model.last[:model.S + 1], 0, 1) * 65535).astype("<u2").tobytes()
    else:
        last = b""
    reach = np.rint(reach_table(rules)[:N + 1, 1:D + 1] * 65535).astype("<u2").tobytes()
    head = 4 + 2 + 1 + 1 + 2 + 2 + 8 + 4 * 5
    at_index = head
    at_rows = at_index + len(index)
    at_p0 = at_rows + len(rows)
    at_last = at_p0 + len(p0)
    at_reach = at_last + len(last)
    out = bytearray(MAGIC)
    out += struct.pack("<HBBHH", N, D, flags, model.cap, model.entry)
    out += rules.fingerprint().encode()
    out += struct.pack("<IIIII", at_index, at_rows, at_p0, at_last, at_reach)
    assert len(out) == head
    out += index + rows + p0 + last + reach
    return bytes(out)


# ---------------------------------------------------------------------------
# Exact evaluation of a pair of fixed policies.


def evaluate(policy_a, policy_b, rules, full=False, progress=False):
    """Chance that `policy_a`, moving first, beats `policy_b` (exact within
    `Model(rules)`; `rules` may be a Model).

    With full=True returns (A0, B0): A0[i, j] the chance that a wins when a
    starts a turn with own i and b's j; B0[j, i] likewise for b. B0[0, 0] is
    b's chance as the first player, so one call answers both seat orders.
    """
    start = time.time()
    model = get_model(rules)
    N = model.N
    A0 = np.zeros((N, N))
    B0 = np.zeros((N, N))
    F0 = np.zeros(1)
    for c, i_vec, j_vec in _levels(N):
        # a to move at (i, j); b to move at (j, i): element v of b's vector is
        # the partner of a's element v, so b's own score vector is j_vec.
        Sa, Sb = _level_dp(model, i_vec, _bank_values(model, B0, j_vec), F0,
                           policy_a.level(model, i_vec, j_vec))
        Ta, Tb = _level_dp(model, j_vec, _bank_values(model, A0, i_vec), F0,
                           policy_b.level(model, j_vec, i_vec))
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
    model = get_model(solution.rules)
    N = model.N
    P0 = solution.P0
    worst = 0.0
    for _, i_vec, j_vec in _levels(N):
        F = 1.0 - P0[j_vec, i_vec]
        Sa, Sb = _level_dp(model, i_vec, _bank_values(model, P0, j_vec), F, None)
        worst = max(worst, float(np.max(np.abs(Sa + Sb * F - P0[i_vec, j_vec]))))
    return worst


def save_solution(sol, path):
    """Store a Solution's arrays (npz) for packing and measuring later."""
    np.savez_compressed(path, rules=np.array(sol.rules.encode()), P0=sol.P0,
                        thresholds=sol.thresholds, gap=sol.gap, past=sol.past,
                        meta=np.array([sol.irregular, sol.seconds, sol.passes]))


def load_solution(path):
    """A Solution stored by `save_solution`."""
    from engine.rules import Rules

    z = np.load(path)
    irregular, seconds, passes = z["meta"]
    return Solution(Rules.decode(str(z["rules"])), z["P0"], z["thresholds"], z["gap"],
                    z["past"], int(irregular), float(seconds), int(passes))


def table_policy(sol):
    """The policy the shipped table plays (engine.master): bank windows,
    past-target rule, hybrid keeps."""
    return ThresholdPolicy("master table", sol.thresholds, sol.gap, sol.rules, "hybrid",
                           past=sol.past)


def main(argv=None):
    import argparse
    import resource

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", type=int, default=10000)
    ap.add_argument("--preset", help="solve this preset's rules (default: zehntausend "
                    "with finish=immediate)")
    ap.add_argument("--npz", metavar="PATH", help="store the solution's arrays here")
    ap.add_argument("--load", metavar="PATH", help="load a stored solution, do not solve")
    ap.add_argument("--tables", action="store_true",
                    help="also measure the table candidates (several more minutes)")
    ap.add_argument("--master", action="store_true",
                    help="measure the shipped table policy against the optimum and "
                    "expected-score play")
    ap.add_argument("--opt", action="store_true",
                    help="with --master: also the optimum against both")
    args = ap.parse_args(argv)
    if args.preset:
        rules = preset(args.preset)
        if args.target != 10000:
            rules = rules.replace(target=args.target, entry=min(rules.entry, args.target))
    else:
        rules = master_rules(args.target)
    print("rules %s (%s)" % (rules.encode(), args.preset or "immediate"))
    t0 = time.time()
    ev = expected_score_policy(rules)
    _log("expected-score DP: fresh turn %.1f points, thresholds %s (%.1fs)" % (
        ev.start_value, [ev.thresholds[m] for m in range(1, rules.dice + 1)],
        time.time() - t0))
    if args.load:
        sol = load_solution(args.load)
    else:
        _log("solving the optimum, target %d ..." % rules.target)
        sol = solve_optimal(rules)
        if args.npz:
            save_solution(sol, args.npz)
    print("optimal solve: %.1fs, %d level passes, %d irregular bank decisions"
          % (sol.seconds, sol.passes, sol.irregular))
    print("1. both optimal, first player wins        %.4f%%" % (100 * sol.P0[0, 0]))
    opt = OptimalPolicy(sol, cache=args.tables or args.opt)
    if args.opt or not args.master:
        t1 = time.time()
        first, second, avg = both_seats(opt, ev, rules)
        print("2. optimal vs expected-score: first %.4f%%, second %.4f%%, average %.4f%% "
              "(%.1fs)" % (100 * first, 100 * second, 100 * avg, time.time() - t1))
    if args.master:
        pol = table_policy(sol)
        others = [("expected-score", ev)] + ([("optimal", opt)] if args.opt else [])
        for name, other in others:
            t1 = time.time()
            a = both_seats(pol, other, rules)
            print("master table vs %s: first %.4f%%, second %.4f%%, average %.4f%% (%.1fs)"
                  % ((name,) + tuple(100 * x for x in a) + (time.time() - t1,)))
    if args.tables:
        for keep in ("hybrid", "ev"):
            t1 = time.time()
            pol = ThresholdPolicy("thresholds+gap, keep=" + keep, sol.thresholds, sol.gap,
                                  rules, keep, past=sol.past)
            a = both_seats(pol, opt, rules)
            b = both_seats(pol, ev, rules)
            print("%s: vs optimal %.4f%%/%.4f%% avg %.4f%%; vs expected-score %.4f%%/%.4f%% "
                  "avg %.4f%% (%.1fs)" % ((pol.name,) + tuple(100 * x for x in a + b)
                                          + (time.time() - t1,)))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("total %.1fs, peak RSS %.0f MB" % (time.time() - t0, rss))


if __name__ == "__main__":
    main()
