"""Solving the Expert's plan for custom rules under MicroPython, as the
device does it behind its progress bar (engine.plan_solver.PlanSolver).

    micropython tools/mp/plan_bench.py [ROOT] [PRESET] [TARGET]

Solves the plan of PRESET with its target changed to TARGET (a rule set
without a shipped plan) one step at a time. Prints `name value` lines: the
time of each part (roll tables, turn totals, reach distances), the whole
solve, the slowest single step (what one frame of the progress screen
waits for), the number of steps, the heap the finished plan keeps and the
size of the plan as stored on flash.
"""

import gc
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
sys.path.insert(0, root)

from time import ticks_diff, ticks_us  # noqa: E402

from engine.plan_solver import PlanSolver  # noqa: E402
from engine.rules import preset  # noqa: E402


def main():
    """Solve and measure."""
    key = sys.argv[2] if len(sys.argv) > 2 else "zehntausend"
    target = int(sys.argv[3]) if len(sys.argv) > 3 else 9000
    rules = preset(key).replace(target=target)
    gc.collect()
    base = gc.mem_alloc()
    solver = PlanSolver(rules)
    parts = {"tables": 0, "rows": 0, "reach": 0}
    steps = 0
    slowest = 0
    done = False
    while not done:
        part = "tables" if len(solver.tables) <= rules.dice else (
            "rows" if solver.unreached is None else "reach")
        t0 = ticks_us()
        done = solver.step()
        us = ticks_diff(ticks_us(), t0)
        parts[part] += us
        slowest = max(slowest, us)
        steps += 1
    plan = solver.plan
    solver = None
    gc.collect()
    kept = gc.mem_alloc() - base
    for name in ("tables", "rows", "reach"):
        print("%s_ms %d" % (name, parts[name] // 1000))
    print("total_ms %d" % ((parts["tables"] + parts["rows"] + parts["reach"]) // 1000))
    print("slowest_step_us %d" % slowest)
    print("steps %d" % steps)
    print("plan_heap_bytes %d" % kept)
    print("stored_bytes %d" % len(plan.to_bytes()))


main()
