"""The Master (engine.master): its shipped tables read with seek, legal play
in whole games of every preset, decisions equal to a plain reference
policy on sampled states, and win chances in [0, 1].

Runs under CPython and MicroPython (table files from tables/, relative to
the repository root, which is the working directory of both runners)."""

from engine.bots import Expert, bold, make_bot
from engine.dice import SeededDice
from engine.game import BANK, ROLL, Game
from engine.master import MAGIC, Master, MasterTable, table_name
from engine.plan_solver import solve_plan
from engine.rules import PRESETS, preset
from engine.view import View
from tests.both.helpers import shipped_plan

TABLES = "tables"


_plan = shipped_plan


def _master(rules, plan=None):
    plan = plan or _plan(rules)
    return Master(plan, open(TABLES + "/" + table_name(rules), "rb"))


def _row(f, table, i, m):
    """Reference decoder: the whole row (i, m) as a list of (lo, gap, past)
    per j (kept as three bytearrays: the MicroPython heap is small)."""
    f.seek(table.at_index + 3 * (i * table.D + m - 1))
    b = f.read(6)
    start = b[0] + 256 * b[1] + 65536 * b[2]
    end = b[3] + 256 * b[4] + 65536 * b[5]
    f.seek(table.at_rows + start)
    data = f.read(end - start)
    cols = (bytearray(), bytearray(), bytearray())
    cell = [0, 0, 0]
    change = [0, 0, 0]
    pos = 0

    def put(times):
        for _ in range(times):
            for k in range(3):
                cols[k].append(cell[k])

    while pos < len(data):
        token = data[pos]
        pos += 1
        if token < 96:
            k = token // 32
            step = -1 if token & 16 else 1
            cell[k] += step
            change = [0, 0, 0]
            change[k] = step
            put(token % 16 + 1)
            continue
        if token < 128:
            put(token - 95)
            continue
        if token >= 192:
            for _ in range(token - 191):
                cell = [cell[k] + change[k] for k in range(3)]
                put(1)
            continue
        for k in range(3):
            code = (token >> (4 - 2 * k)) % 4
            old = cell[k]
            if code == 3:
                cell[k] = data[pos]
                pos += 1
            else:
                cell[k] += (0, 1, -1)[code]
            change[k] = cell[k] - old
        put(1)
    return _Cells(cols)


class _Cells:
    """row[j] -> (lo, gap, past); len(row)."""

    def __init__(self, cols):
        self.cols = cols

    def __len__(self):
        return len(self.cols[0])

    def __getitem__(self, j):
        return (self.cols[0][j], self.cols[1][j], self.cols[2][j])


class _View:
    """A stand-in view of a two-seat game in phase 'decide' or 'keep'."""

    def __init__(self, rules, mine, theirs, turn_total, dice_left, keeps=None):
        self.rules = rules
        self.phase = "keep" if keeps else "decide"
        self.me = 0
        self.scores = (mine, theirs)
        self.entered = (mine > 0 or not rules.entry, True)
        self.active = (True, True)
        self.final = -1
        self.pending = ()
        self.playoff = None
        self.offer = None
        self.turn_total = turn_total
        self.dice_left = dice_left
        self.hot = False
        self.keeps = keeps or []
        if keeps:
            self.legal = tuple(("keep", k[0]) for k in keeps)
        elif mine or turn_total >= rules.entry:
            self.legal = (ROLL, BANK)
        else:
            self.legal = (ROLL,)

    def score(self):
        return self.scores[self.me]

    def leader_score(self, others_only=True):
        return self.scores[1]

    def last_chance(self):
        return False


def test_every_preset_has_a_table_for_its_rules():
    for key in PRESETS:
        rules = preset(key)
        with open(TABLES + "/" + table_name(rules), "rb") as f:
            assert f.read(4) == MAGIC
            table = MasterTable(f)
            assert table.fingerprint == rules.fingerprint()
            assert table.N == rules.target // 50 and table.D == rules.dice
            assert table.entry == rules.entry // 50
            for i, j in ((0, 0), (table.N - 1, 0), (0, table.N - 1), (table.N // 2, 7)):
                assert 0 <= table.p0(i, j) <= 1
            # the first player has the edge; more own points never hurt
            assert table.p0(0, 0) > 0.5
            assert table.p0(table.N - 1, 0) >= table.p0(0, 0)


def test_reader_matches_reference_decoder():
    for key in ("zehntausend", "farkle4000", "punktlandung"):
        rules = preset(key)
        with open(TABLES + "/" + table_name(rules), "rb") as f:
            table = MasterTable(f)
            N = table.N
            for i in (0, 1, N // 3, N // 2, N - 2, N - 1):
                rows = [None] + [_row(f, table, i, m) for m in range(1, table.D + 1)]
                for m in range(1, table.D + 1):
                    assert len(rows[m]) == N
                for j in (0, 1, 2, N // 4, N // 2, N - 3, N - 1):
                    lo, gap, past, allin = table.cells(i, j)
                    for m in range(1, table.D + 1):
                        assert (lo[m], gap[m], past[m]) == rows[m][j], (key, i, j, m)
                        assert 0 <= gap[m] < N and lo[m] <= N - i
                    assert allin == all(rows[m][j][0] >= N - i for m in range(1, table.D + 1))
                rows = None


def _reference_bank(table, rows, i, j, t, m):
    lo, gap, past = rows[m][j]
    s = i + t
    if s < table.N:
        return lo <= t and s < table.N - gap
    return s - table.N >= past or s >= table.N + table.cap


def test_decisions_equal_the_reference_policy():
    rules = preset("zehntausend")
    plan = _plan(rules)
    master = _master(rules, plan)
    table = master.table
    f = table.f
    N = table.N
    checked = 0
    seed = SeededDice(5)
    for i in (0, 10, 40, 90, 150, 185, 199):
        rows = [None] + [_row(f, table, i, m) for m in range(1, 7)]
        for _ in range(12):
            j = seed(1)[0] * 33 - seed(1)[0] * 5
            j = min(N - 1, max(0, j))
            t = (seed(1)[0] - 1) * 7 + seed(1)[0]
            m = seed(1)[0]
            view = _View(rules, 50 * i, 50 * j, 50 * t, m)
            want = BANK if _reference_bank(table, rows, i, j, t, m) else ROLL
            assert master.decide(view) == want, (i, j, t, m)
            checked += 1
            # keeps: a keep reaching a plain stand chooses by the Expert's
            # value unless the table never banks before the target
            keeps = [((1,), 100), ((5,), 50), ((1, 5), 150)]
            kv = _View(rules, 50 * i, 50 * j, 50 * t, 3, keeps)
            kv.dice_left = 3
            dice = master.decide(kv)[1]
            allin = all(rows[k][j][0] >= N - i for k in range(1, 7))
            best = None
            for kd, pts in keeps:
                left = 3 - len(kd)
                ti = t + pts // 50
                if allin:
                    v = (1 << 40) + plan.worth(left, ti) if i + ti >= N else table.reach(
                        N - i - ti, left)
                else:
                    v = plan.worth(left, ti)
                if best is None or v > best[0]:
                    best = (v, kd)
            assert dice == best[1], (i, j, t, allin)
    assert checked == 84


def test_legal_moves_in_whole_games_of_every_preset():
    for g, key in enumerate(PRESETS):
        rules = preset(key)
        plan = _plan(rules)
        for seats in (2, 3):
            bots = [_master(rules, plan), Expert(plan), bold()][:seats]
            if seats == 3:
                bots[2].prepare(rules)
            names = [("M", "meister"), ("E", "profi"), ("B", "mutig")][:seats]
            game = Game(rules, names, SeededDice(100 * g + seats))
            steps = 0
            while game.phase != "over":
                view = View(game)
                bot = bots[game.current]
                action = bot.decide(view)
                assert action in view.legal, (key, action)
                if bot is bots[0]:
                    chances = bot.win_chances(view)
                    if chances is not None:
                        assert seats == 2
                        for name in ("now", "bank", "roll"):
                            if name in chances:
                                assert 0 <= chances[name] <= 1, (name, chances)
                        for _, p in chances.get("keeps", ()):
                            assert 0 <= p <= 1
                game.apply(action)
                steps += 1
                assert steps < 5000
            assert game.winner >= 0
            bots[0].table.f.close()
        bots = game = view = plan = None


def test_make_bot_opens_the_table_and_falls_back_without_one():
    rules = preset("farkle4000")
    plan = _plan(rules)
    bot = make_bot("meister", rules, plan, TABLES)
    assert bot.key == "meister" and bot.table is not None
    bot.table.f.close()
    bare = make_bot("meister", rules, plan, None)
    assert bare.table is None
    shorter = make_bot("meister", rules.replace(target=3000), _plan(rules.replace(target=3000)),
                       TABLES)
    assert shorter.table is not None  # no hurdle: the 10000 table read shifted
    shorter.table.f.close()
    custom = rules.replace(target=3000, entry=300)  # a hurdle: no table serves it
    other = make_bot("meister", custom, solve_plan(custom), TABLES)
    assert other.table is None  # no table for custom rules: the Expert's play
    game = Game(custom, ["A", "B"], SeededDice(3))
    while game.phase != "over":
        action = other.decide(View(game))
        assert action in View(game).legal
        game.apply(action)


def test_banks_a_win_and_rolls_far_below():
    rules = preset("zehntausend")
    master = _master(rules)
    # one step short of nothing: far below any window, six dice
    assert master.decide(_View(rules, 0, 0, 50, 6)) == ROLL
    # immediate-looking win does not exist under last_turn: at 10000 with
    # the opponent far behind, banking is right
    assert master.decide(_View(rules, 9500, 1000, 3000, 2)) == BANK
    chances = master.win_chances(_View(rules, 9500, 1000, 3000, 2))
    assert chances["bank"] > 0.99 and 0 <= chances["roll"] <= 1
