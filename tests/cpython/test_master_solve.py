"""tools.master_solve on small targets: the optimum is a fixed point, it
agrees with a plain value iteration written independently, it beats
max-expected-score play, and policy evaluation is consistent (CPython only)."""

import pytest

np = pytest.importorskip("numpy")

from engine import odds, scoring  # noqa: E402
from tools import master_solve as ms  # noqa: E402

TARGET = 1000


@pytest.fixture(scope="module")
def setup():
    rules = ms.master_rules(TARGET)
    sol = ms.solve_optimal(rules, progress=False)
    ev = ms.expected_score_policy(rules)
    return rules, sol, ev


def test_expected_score_dp_matches_published():
    rules = ms.master_rules()
    E, roll, thresholds = ms.expected_score_dp(rules)
    assert round(roll[0, 6], 1) == 582.3
    assert [thresholds[m] for m in range(1, 7)] == [350, 250, 450, 1050, 3100, 17750]


def test_optimum_is_fixed_point(setup):
    rules, sol, _ = setup
    N = TARGET // 50
    assert sol.P0.shape == (N, N)
    assert np.all((sol.P0 > 0) & (sol.P0 < 1))
    assert ms.fixed_point_residual(sol) < 1e-12
    # the first player has the edge; more own points never hurt
    assert sol.P0[0, 0] > 0.5
    assert np.all(np.diff(sol.P0, axis=0) >= -1e-12)
    assert np.all(np.diff(sol.P0, axis=1) <= 1e-12)


def _brute_optimum(rules):
    """Plain value iteration over lists, straight from keeps(): levels of
    i + j from the top, each iterated until it stops changing."""
    N = rules.target // 50
    choices = {}
    for n in range(1, 7):
        rows = []
        for roll, weight in odds.outcomes(n):
            opts = set()
            for kept, points in scoring.keeps(roll, rules):
                opts.add((n - len(kept) or 6, points // 50))
            rows.append((weight / 6**n, sorted(opts)))
        choices[n] = rows
    P0 = [[0.5] * N for _ in range(N)]

    def turn(i, j):
        R = {}
        for t in range(N - 1 - i, -1, -1):
            for n in range(1, 7):
                total = 0.0
                for w, opts in choices[n]:
                    if not opts:
                        total += w * (1 - P0[j][i])
                        continue
                    best = 0.0
                    for m, p in opts:
                        s = i + t + p
                        if s >= N:
                            v = 1.0
                        else:
                            v = max(1 - P0[j][s], R[(t + p, m)])
                        best = max(best, v)
                    total += w * best
                R[(t, n)] = total
        return R[(0, 6)]

    for level in range(2 * N - 2, -1, -1):
        pairs = [(i, level - i) for i in range(N) if 0 <= level - i < N]
        for _ in range(10000):
            change = 0.0
            for i, j in pairs:
                new = turn(i, j)
                change = max(change, abs(new - P0[i][j]))
                P0[i][j] = new
            if change < 1e-15:
                break
    return np.array(P0)


def test_agrees_with_plain_value_iteration():
    rules = ms.master_rules(400)
    sol = ms.solve_optimal(rules, progress=False)
    assert np.max(np.abs(sol.P0 - _brute_optimum(rules))) < 1e-10


def test_optimum_beats_expected_score(setup):
    rules, sol, ev = setup
    opt = ms.OptimalPolicy(sol)
    first, second, avg = ms.both_seats(opt, ev, rules)
    # the optimum guarantees at least the game's value against anyone
    assert first >= sol.P0[0, 0] - 1e-12
    assert second >= 1 - sol.P0[0, 0] - 1e-12
    assert avg > 0.5


def test_evaluate_reproduces_optimum(setup):
    rules, sol, _ = setup
    opt = ms.OptimalPolicy(sol)
    A0, B0 = ms.evaluate(opt, opt, rules, full=True)
    assert np.max(np.abs(A0 - sol.P0)) < 1e-12
    assert np.max(np.abs(B0 - sol.P0)) < 1e-12


def _brute_keep_all(rules, bank_a, bank_b, sweeps=400):
    """Plain value iteration of keep-all (bank at bank_a) against keep-all
    (bank at bank_b), straight from keeps(): (A0, B0) as in evaluate()."""
    N = rules.target // 50
    choice = {}
    for n in range(1, 7):
        rows = []
        for roll, weight in odds.outcomes(n):
            best = scoring.scoring_keep(roll, rules)
            if best is None:
                rows.append((weight / 6**n, None))
            else:
                rows.append((weight / 6**n, (n - len(best[0]) or 6, best[1] // 50)))
        choice[n] = rows
    tables = {"a": [[0.5] * N for _ in range(N)], "b": [[0.5] * N for _ in range(N)]}
    bank_at = {"a": bank_a // 50, "b": bank_b // 50}
    for _ in range(sweeps):
        change = 0.0
        for me, other in (("a", "b"), ("b", "a")):
            own, opp = tables[me], tables[other]
            for i, j in [(i, j) for i in range(N - 1, -1, -1) for j in range(N - 1, -1, -1)]:
                R = {}
                for t in range(N - 1 - i, -1, -1):
                    for n in range(1, 7):
                        total = 0.0
                        for w, c in choice[n]:
                            if c is None:
                                total += w * (1 - opp[j][i])
                                continue
                            m, p = c
                            s = i + t + p
                            if s >= N:
                                v = 1.0
                            elif t + p >= bank_at[me]:
                                v = 1 - opp[j][s]
                            else:
                                v = R[(t + p, m)]
                            total += w * v
                        R[(t, n)] = total
                change = max(change, abs(R[(0, 6)] - own[i][j]))
                own[i][j] = R[(0, 6)]
        if change < 1e-14:
            break
    return np.array(tables["a"]), np.array(tables["b"])


def test_evaluate_agrees_with_plain_value_iteration():
    rules = ms.master_rules(500)
    A0, B0 = ms.evaluate(ms.keep_all_policy(rules, 300), ms.keep_all_policy(rules, 200),
                         rules, full=True)
    A1, B1 = _brute_keep_all(rules, 300, 200)
    assert np.max(np.abs(A0 - A1)) < 1e-10
    assert np.max(np.abs(B0 - B1)) < 1e-10


def test_evaluate_consistent(setup):
    rules, _, ev = setup
    simple = ms.keep_all_policy(rules)
    A0, B0 = ms.evaluate(ev, simple, rules, full=True)
    A1, B1 = ms.evaluate(simple, ev, rules, full=True)
    # swapping the seats swaps the tables, so P(first wins) + P(second wins)
    # = 1 whichever seat is asked about
    assert np.max(np.abs(A0 - B1)) < 1e-12
    assert np.max(np.abs(B0 - A1)) < 1e-12
    first, second, _ = ms.both_seats(ev, simple, rules)
    assert abs(first - A0[0, 0]) < 1e-15
    assert abs(second + A1[0, 0] - 1) < 1e-12
    assert 0.5 < first < 1 and 0 < second < 1
    # a policy against itself: both tables equal, the first player has the edge
    A2, B2 = ms.evaluate(ev, ev, rules, full=True)
    assert np.max(np.abs(A2 - B2)) < 1e-12
    assert A2[0, 0] > 0.5


def test_table_file_round_trip(setup):
    import io

    from engine.master import MasterTable

    rules, sol, _ = setup
    N = TARGET // 50
    data = ms.pack_master(sol)
    table = MasterTable(io.BytesIO(data))
    assert (table.N, table.D) == (N, 6)
    for i in range(N):
        for j in range(N):
            assert abs(table.p0(i, j) - sol.P0[i, j]) <= 2.5 / 255
            lo, gap, past, _ = table.cells(i, j)
            for m in range(1, 7):
                assert (lo[m], gap[m]) == (sol.thresholds[i, j, m], sol.gap[i, j, m])
                assert past[m] == 0  # immediate: banking at the target wins
