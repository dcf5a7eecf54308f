"""The most-expected-points turn plan against the published optimal figures."""

from engine.codec import CodecError, pack
from engine.plan_solver import PlanSolver, RollGrouping, roll_table, roll_tables, solve_plan
from engine.rules import Rules, preset
from engine.turnplan import KIND_PLAN, UNIT, TurnPlan, reach_size
from tests.both.helpers import raises

FIVE_SIMPLE = Rules(dice=5, n_of_kind="triple_only", straight=0, three_pairs=0)


def _points(value):
    """A plan value (1/64 points) rounded to tenths of a point."""
    return int(value * 10 / UNIT + 0.5) / 10


def test_six_dice_zehntausend_fresh_turn_and_thresholds():
    plan = solve_plan(preset("zehntausend"))
    assert _points(plan.fresh_turn()) == 582.3
    assert [plan.threshold(n) for n in range(1, 7)] == [350, 250, 450, 1050, 3100, 17750]


def test_five_dice_singles_and_triples_only():
    plan = solve_plan(FIVE_SIMPLE)
    assert _points(plan.fresh_turn()) == 293.6
    assert [plan.threshold(n) for n in range(1, 6)] == [200, 200, 350, 950, 2800]


def test_roll_table_weights_cover_every_roll():
    rules = preset("zehntausend")
    for n in range(1, 7):
        table = roll_table(n, rules)
        count = table[0] << 8 | table[1]
        pos, total, farkle = 2, 0, 0
        for _ in range(count):
            weight = table[pos] << 8 | table[pos + 1]
            k = table[pos + 2]
            total += weight
            if k == 0:
                farkle += weight
            pos += 3 + 3 * k
        assert pos == len(table)
        assert total == 6 ** n
        if n == 6:
            assert farkle == 46656 - 45576


def test_worth_is_bank_value_at_and_above_the_threshold():
    plan = solve_plan(FIVE_SIMPLE)
    for n in range(1, 6):
        limit = plan.threshold(n) // 50
        assert plan.worth(n, limit) == limit * 50 * UNIT
        assert plan.worth(n, limit - 1) > (limit - 1) * 50 * UNIT
        assert plan.roll_value(n, plan.threshold(n)) <= plan.threshold(n) * UNIT


def test_entry_hurdle_lowers_the_value_of_a_first_turn():
    plan = solve_plan(preset("fuenf"))
    entered = plan.fresh_turn(True)
    newcomer = plan.fresh_turn(False)
    assert newcomer < entered
    # Below the hurdle banking is refused: standing there is rolling there.
    assert plan.roll_value(1, 300, False) == plan.entry_values[1][6]


def test_reach_chance_of_fifty_points_is_the_chance_to_score():
    plan = solve_plan(FIVE_SIMPLE)
    assert plan.reach_chance(5, 0, 50) == (7176 * 65536 + 3888) // 7776
    assert plan.reach_chance(1, 0, 50) == (2 * 65536 + 3) // 6


def test_reach_chances_fall_as_the_need_grows():
    plan = solve_plan(FIVE_SIMPLE)
    low = plan.reach_chance(5, 0, 300)
    high = plan.reach_chance(5, 0, 1500)
    assert 0 < high < low < 65536


def test_reach_chance_depends_only_on_the_distance():
    plan = solve_plan(FIVE_SIMPLE)
    far = plan.reach_chance(3, 0, 2500)  # grows the rows past one step
    assert plan.reach_chance(3, 1000, 3500) == far
    assert plan.reach_chance(2, 300, 800) == plan.reach_chance(2, 0, 500)
    assert plan.reach_chance(4, 600, 600) == 65536  # already there


def test_reach_chance_past_the_need_with_hot_dice_that_must_roll():
    plan = solve_plan(preset("kneipe"))
    hot = plan.reach_chance(6, 800, 500)
    # Six dice score 45576 of 46656 rolls; a roll whose every keep takes all
    # six dice must roll again and may still farkle, so a little less.
    assert 63000 < hot < (45576 * 65536) // 46656
    assert plan.reach_chance(5, 800, 500) == 65536


def test_capped_values_never_pass_the_cap():
    plan = solve_plan(FIVE_SIMPLE)
    w = plan.capped_values(200)
    # Standing at the cap is worth exactly the cap: nothing can be added.
    assert w[5][4] == 200 * UNIT
    assert w[1][0] > 0


def test_stored_capped_values_match_the_worked_out_ones():
    rules = preset("punktlandung")
    plan = solve_plan(rules)
    caps = (50, 650, 2000)
    fresh = [plan.capped_values(cap) for cap in caps]
    beyond = plan.capped_values(2050)
    plan.solve_capped()  # from now on read from the stored pieces
    again = plan
    for k, cap in enumerate(caps):
        worked = fresh[k]
        stored = again.capped_values(cap)
        for n in range(1, rules.dice + 1):
            for ti in range(cap // 50 + 1):
                assert abs(stored[n][ti] - worked[n][ti]) <= UNIT // 32  # 1/16-point steps
    assert again.capped_values(2050) == beyond  # past the horizon: worked out


def test_stored_plan_round_trips():
    rules = FIVE_SIMPLE
    plan = solve_plan(rules)
    again = TurnPlan.from_bytes(plan.to_bytes(), rules)
    assert again.limits == plan.limits
    for n in range(1, rules.dice + 1):
        assert [again.values[n][k] for k in range(len(again.values[n]))] == plan.values[n]
    assert again.fresh_turn() == plan.fresh_turn()
    # The reach rows come with the plan, up to the target and a step more.
    assert again._reach_done == plan._reach_done >= reach_size(rules)
    need = rules.target - 50
    assert again.reach_chance(3, 0, need) == plan.reach_chance(3, 0, need)
    assert again._reach_done == plan._reach_done  # nothing was worked out


def test_reach_rows_grow_past_the_stored_ones_as_if_solved_at_once():
    rules = FIVE_SIMPLE
    plan = solve_plan(rules)
    fresh = solve_plan(rules)
    fresh._reach, fresh._reach_done = None, 1
    far = rules.target + 3000
    assert plan.reach_chance(5, 0, far) == fresh.reach_chance(5, 0, far)
    assert plan.reach_chance(2, 0, 750) == fresh.reach_chance(2, 0, 750)


def test_plan_from_a_file_equals_the_plan_from_its_bytes():
    import io

    rules = preset("punktlandung")
    with open("tables/plan-%s.bin" % rules.plan_rules().fingerprint(), "rb") as f:
        blob = f.read()
    a = TurnPlan.from_bytes(blob, rules)
    b = TurnPlan.from_file(io.BytesIO(blob), rules)
    assert b.to_bytes() == a.to_bytes() == blob
    assert b.capped_values(650) == a.capped_values(650)
    assert b.reach_chance(4, 0, 3000) == a.reach_chance(4, 0, 3000)
    broken = bytearray(blob)
    broken[len(blob) // 2] ^= 4
    raises(CodecError, TurnPlan.from_file, io.BytesIO(bytes(broken)), rules)


def test_stored_capped_values_of_the_wrong_size_are_refused():
    rules = preset("punktlandung")
    plan = solve_plan(rules)
    plan._capped = b"\x00\x01" * 10
    raises(CodecError, TurnPlan.from_bytes, plan.to_bytes(), rules)


def test_stored_plan_from_an_older_version_is_refused_by_name():
    plan = solve_plan(FIVE_SIMPLE)
    old = pack([FIVE_SIMPLE.encode(), plan.limits[1:], [b""] * 5, plan.tables[1:]], KIND_PLAN)
    try:
        TurnPlan.from_bytes(old, FIVE_SIMPLE)
    except CodecError as e:
        assert "older version" in str(e)
    else:
        raise AssertionError("an old plan was taken")


def test_stored_plan_for_other_rules_or_damaged_is_refused():
    plan = solve_plan(FIVE_SIMPLE)
    blob = plan.to_bytes()
    raises(CodecError, TurnPlan.from_bytes, blob, preset("fuenf"))
    broken = bytearray(blob)
    broken[len(broken) // 2] ^= 0x10
    raises(CodecError, TurnPlan.from_bytes, bytes(broken), FIVE_SIMPLE)


def test_roll_tables_built_a_few_rolls_at_a_time_are_the_same():
    rules = preset("zehntausend")
    for n, rolls in ((1, 6), (3, 56), (6, 462)):  # different rolls of n dice
        grouping = RollGrouping(n, rules)
        steps = 1
        while not grouping.step(7):
            steps += 1
        assert grouping.table() == roll_table(n, rules)
        assert steps in ((rolls + 6) // 7, (rolls + 6) // 7 + 1)  # 7 rolls a step


def test_solver_steps_stay_short_and_count_up_to_the_total():
    rules = preset("fuenf")
    solver = PlanSolver(rules)
    seen = []
    totals = []
    while not solver.step():
        seen.append(solver.done)
        if solver.total not in totals:
            totals.append(solver.total)
        assert solver.done <= solver.total
    assert seen == sorted(seen) and solver.done == solver.total
    # The total is known once the rows are made, and never grows after:
    # no part of the work is done twice.
    assert len(totals) <= 2 and len(seen) <= solver.total + 2  # (making the rows, finishing)
    assert len(seen) > 2 * rules.dice  # the roll tables took several steps each


def test_the_solver_builds_the_largest_roll_table_first_and_goes_on_from_finished_ones():
    rules = FIVE_SIMPLE
    solver = PlanSolver(rules)
    while solver.finished_tables()[rules.dice] is None:
        solver.step()
    built = solver.finished_tables()
    assert built[1:rules.dice] == [None] * (rules.dice - 1)  # the others come after it
    assert built[rules.dice] == roll_table(rules.dice, rules)
    # A new solver on those tables (as after a MemoryError) ends at the same plan.
    again = PlanSolver(rules, list(built))
    while not again.step():
        pass
    assert again.plan.to_bytes() == solve_plan(rules).to_bytes()


def test_progress_is_reported():
    seen = []
    rules = FIVE_SIMPLE
    solve_plan(rules, roll_tables(rules), lambda done, total: seen.append((done, total)))
    assert seen and seen[-1][0] <= seen[-1][1]


def test_hot_dice_that_must_roll_past_the_stored_rows():
    """Five dice, hot dice must roll: a forced roll above the stored rows
    is valued (it once recursed without end, on the first plan solved for
    such custom rules)."""
    rules = Rules(dice=5, straight=0, three_pairs=0, hot_dice="must", entry=350)
    plan = solve_plan(rules)
    high = plan.limits[5] + 40
    forced = plan.worth(5, high)
    bank = high * 50 * UNIT
    assert forced < bank  # the forced roll may farkle
    assert forced > bank * 3 // 4  # but five dice mostly score
    assert bank * 3 // 4 < plan.roll_value(5, high * 50) <= forced
    assert 0 < plan.fresh_turn(False) < plan.fresh_turn()
