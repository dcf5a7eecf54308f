"""The shipped Master tables: recorded, intact, for their rules, within the
flash budget; and the solve -> pack -> read path on a small case (CPython,
numpy)."""

import hashlib
import io
import json
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from engine.master import FLAG_P0_BYTES, MasterTable, table_name  # noqa: E402
from engine.rules import PRESETS, Rules, preset  # noqa: E402
from tools import master_solve as ms  # noqa: E402
from tools.solve import master_name, master_rule_sets  # noqa: E402

TABLES = Path(__file__).resolve().parent.parent.parent / "tables"


def _index():
    return json.loads((TABLES / "tables.json").read_text())


def test_every_preset_has_its_master_table_recorded():
    index = _index()
    sets = master_rule_sets()
    assert [key for key, _ in sets][:len(PRESETS)] == list(PRESETS)
    extra = []  # the presets' tables at other targets
    for key in PRESETS:
        base = preset(key)
        if base.entry:
            extra += ["%s@4000" % key, "%s@5000" % key]
        elif base.target < 10000:  # its 10000 table, read shifted, serves the targets below
            extra.append("%s@10000" % key)
    assert [key for key, _ in sets][len(PRESETS):-1] == extra
    for key, rules in sets:
        name = master_name(rules)
        assert name == table_name(rules)
        entry = index[name]
        assert entry["kind"] == "master-table"
        assert entry["preset"] == key and entry["rules"] == rules.encode()
        blob = (TABLES / name).read_bytes()
        assert len(blob) == entry["size"]
        assert hashlib.sha256(blob).hexdigest() == entry["sha256"]
        table = MasterTable(io.BytesIO(blob))
        assert table.fingerprint == Rules.decode(entry["rules"]).fingerprint()
        assert table.N == rules.target // 50 and table.D == rules.dice


def test_all_shipped_tables_fit_the_flash_budget():
    index = _index()
    total = sum(entry["size"] for entry in index.values())
    on_disk = sum((TABLES / name).stat().st_size for name in index)
    assert total == on_disk
    assert total <= 832 * 1024  # the flash beside the game: test_deploy.py (128 KB left)
    # nothing else is shipped from tables/ besides the index
    assert sorted(p.name for p in TABLES.iterdir()) == sorted(list(index) + ["tables.json"])


@pytest.fixture(scope="module", params=["zehntausend", "kneipe", "punktlandung", "fuenf"])
def small(request):
    base = preset(request.param)
    rules = base.replace(target=1000, entry=min(base.entry, 1000))
    sol = ms.solve_optimal(rules, progress=False)
    return rules, sol


def test_small_case_solves_packs_and_reads_back(small):
    rules, sol = small
    assert ms.fixed_point_residual(sol) < 1e-12
    blob = ms.pack_master(sol)
    assert blob == ms.pack_master(ms.solve_optimal(rules, progress=False))  # deterministic
    table = MasterTable(io.BytesIO(blob))
    N = rules.target // 50
    assert (table.N, table.D, table.fingerprint) == (N, rules.dice, rules.fingerprint())
    if table.flags & FLAG_P0_BYTES:
        stored = np.frombuffer(blob[table.at_p0:table.at_p0 + N * N], np.uint8).reshape(N, N)
    else:
        stored = ms.unpack_p0(blob[table.at_p0:table.at_p0 + N * (1 + N // 2)], N)
    # 1/255 steps; in 4-bit coding changes above 8/255 per step are clamped
    # and caught up (bytes where that would cost more than 2/255)
    assert np.max(np.abs(stored - sol.P0 * 255)) <= 2.5
    assert np.mean(np.abs(stored - sol.P0 * 255)) <= 0.5
    for i in range(N):
        for j in range(N):
            lo, gap, past, allin = table.cells(i, j)
            for m in range(1, rules.dice + 1):
                assert (lo[m], gap[m], past[m]) == (
                    sol.thresholds[i, j, m], sol.gap[i, j, m], sol.past[i, j, m])
            assert table.p0(i, j) == stored[i, j] / 255
    reach = ms.reach_table(rules)
    for need in range(N + 1):
        for m in range(1, rules.dice + 1):
            assert abs(table.reach(need, m) / 65535 - reach[need, m]) <= 0.5 / 65535 + 1e-12


def test_small_case_table_policy_is_near_the_optimum(small):
    rules, sol = small
    ev = ms.expected_score_policy(rules)
    opt = ms.OptimalPolicy(sol)
    pol = ms.table_policy(sol)
    a = ms.both_seats(pol, ev, rules)[2]
    b = ms.both_seats(opt, ev, rules)[2]
    c = ms.both_seats(pol, opt, rules)[2]
    # the optimum is the best reply; the table policy beats expected-score
    # play and gives up little against the optimum
    assert b >= a - 1e-12 and c <= 0.5 + 1e-12
    assert a > 0.5 and c > 0.49


def test_row_coding_round_trip():
    rng = np.random.default_rng(1)
    for _ in range(50):
        n = int(rng.integers(1, 300))
        walk = np.cumsum(rng.integers(-1, 2, size=(n, 3)) * (rng.random((n, 3)) < 0.3), axis=0)
        jumps = rng.integers(0, 200, size=(n, 3)) * (rng.random((n, 3)) < 0.05)
        cells = [tuple(int(v) for v in np.clip(w + 100 + jmp, 0, 255))
                 for w, jmp in zip(walk, jumps, strict=True)]
        data = ms.encode_row(cells)
        for j in range(n):
            assert ms.decode_row(data, j) == cells[j]


def test_every_preset_has_master_tables_at_4000_5000_and_10000():
    """Point 5 of issue 25: the Master plays from a table at the shorter
    targets too (the app finds it by the rules' fingerprint): its own where
    an entry hurdle or a penalty makes the game depend on more than the
    distances to the target, else the 10000 table read shifted."""
    from engine.master import Master
    from firmware.players import Computers
    from firmware.store import DirFS

    reader = DirFS(str(TABLES))
    for key in PRESETS:
        base = preset(key)
        for target in (4000, 5000, 10000):
            rules = base.replace(target=target)
            master = Computers(rules, reader).bot("meister")  # as the app makes it
            assert isinstance(master, Master)
            assert master.table is not None, (key, target)
            assert master.table.N == target // 50
            master.table.f.close()


def test_a_table_read_shifted_is_the_table_of_the_lower_target():
    """Without an entry hurdle the game depends only on the distances to
    the target: the table solved for 1000 read 10 steps up is, cell for
    cell, the table solved for 500 (Rules.master_sources)."""
    base = preset("zehntausend")
    low = MasterTable(io.BytesIO(ms.pack_master(ms.solve_optimal(base.replace(target=500),
                                                                 progress=False))))
    high = MasterTable(io.BytesIO(ms.pack_master(ms.solve_optimal(base.replace(target=1000),
                                                                  progress=False))), 10)
    N = 10
    assert high.N == low.N == N
    for i in range(N):
        assert high.p0_row(i) == low.p0_row(i)
        for j in range(N):
            assert high.cells(i, j) == low.cells(i, j), (i, j)
    for need in range(N + 1):
        for m in range(1, 7):
            assert high.reach(need, m) == low.reach(need, m)
    for s in range(N + 70):
        for j in range(N):
            assert high.bank_value(s, j) == low.bank_value(s, j)
