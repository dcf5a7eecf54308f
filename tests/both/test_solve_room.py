"""The block the plan solver keeps for the six dice's roll table, and the
solve on a heap with no free run as long as it (issue 30). Under the
MicroPython Unix port the free heap is cut into holes
(tools/mp/heap_holes.py, as in tests/both/test_big_blocks.py), in a module
of its own: the grouping needs a heap of fresh holes on this 64-bit port,
where its dict is twice the chip's (2 KB), and the kept block a 3 KB run
before the holes are cut. Both were gone after test_big_blocks' other
tests: what they make while their holes are in place stays, cutting the
heap up for the rest of the module. Under CPython the solver's
bytearrays are cut instead, or the heap is whole."""

from engine.rules import preset
from tools.mp.heap_holes import MICROPYTHON, Holes


def test_the_largest_roll_table_gets_the_block_kept_for_it():
    """The plan solver's six-dice roll table (2.5 KB in one block) on a heap
    that its own grouping left cut into pieces: the block RollGrouping kept
    from its start (`room`) is let go for it. Without one the same table
    fails there with the chip's MemoryError (the custom-rules solve after a
    long session)."""
    from engine.plan_solver import ROOM, RollGrouping, roll_table

    rules = preset("zehntausend")
    want = bytes(roll_table(6, rules))
    assert 2 * 1024 < len(want) <= ROOM
    kept = RollGrouping(6, rules, ROOM)
    assert kept.room is not None  # (a wish: without it this would test the bare grouping)
    bare = RollGrouping(6, rules)
    for grouping in (kept, bare):
        while not grouping.step(100):
            pass
    holes = Holes(1024)  # every free run now far shorter than the table
    assert holes.tighten()
    failed = False
    try:
        try:
            bare.table()
        except MemoryError:
            failed = True
        got = kept.table()
    finally:
        holes.close()
    assert got == want  # (no copy: the heap may still be in pieces)
    assert failed == MICROPYTHON  # (CPython: one whole heap)


def _no_run_over(longest):
    """CPython's stand-in for a cut-up heap, put in engine.plan_solver's
    names: a bytearray longer than `longest` bytes raises MemoryError."""
    def limited(size=0):
        if not isinstance(size, int):
            return bytearray(size)  # (a copy of bytes: the table's keys)
        if size > longest:
            raise MemoryError("memory allocation failed, allocating %d bytes" % size)
        return bytearray(size)

    return limited


def test_the_solve_starts_on_a_heap_with_no_run_for_the_kept_block():
    """Issue 30: late in the chip's session no free run was as long as the
    block RollGrouping keeps for the six dice's table (ROOM, 3 KB), though
    runs as long as the table (2.5 KB) may be. The block was a must and
    the first request of every new solver, so the solving screen's three
    retries and the game put away all failed on it within 0.7 s. It is a
    wish: here the runs are at most 2880 bytes, and the table is made."""
    from engine import plan_solver
    from engine.plan_solver import ROOM, PlanSolver, roll_table

    rules = preset("zehntausend").replace(three_pairs=2000)  # chipbench's custom rules
    want = bytes(roll_table(6, rules))
    hole = 2560
    longest = hole + hole // 8  # (Holes: no free run longer)
    assert len(want) < hole and longest < ROOM
    solver = PlanSolver(rules)
    holes = Holes(hole)
    assert holes.tighten()
    if not holes.active:  # CPython: one whole heap, so the solver's own names are cut
        plan_solver.__dict__["bytearray"] = _no_run_over(longest)
    try:
        if holes.active:
            assert holes.biggest_block(2 * ROOM) < ROOM
        steps = 0
        while solver.tables[rules.dice] is None:
            assert not solver.step()
            steps += 1
        got = bytes(solver.tables[rules.dice])
    finally:
        holes.close()
        if not holes.active:
            del plan_solver.__dict__["bytearray"]
    assert got == want
    assert steps == solver.done > 50  # in steps, as the progress bar needs (462 rolls, 8 a step)
