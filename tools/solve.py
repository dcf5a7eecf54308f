"""Regenerate every shipped strategy table (`python -m tools.solve`).

Writes into tables/ (the folder the device reads from /tables):
- `plan-FINGERPRINT.bin`: the Expert's turn plan
  (engine.turnplan.TurnPlan.to_bytes) of each preset, named by the
  fingerprint of what it depends on (Rules.plan_rules: the target, the end
  of game, ties and the like left out), so the app finds it for every rule
  set with a preset's scoring, at any target. Presets that differ only
  there share one file (Fünf and Punktlandung), solved with the capped
  values an exact target needs when one of them has it;
- `master-FINGERPRINT.bin` for each preset, for the presets with an entry
  hurdle also at 4000 and 5000, and for Zehntausend with the immediate
  finish: the Master's two-seat table
  (engine.master documents the format; tools/master_solve solves it: about
  3 to 8 minutes per 10000-point preset with numpy, 1 to 5 at 4000 and
  5000, so `--no-master` skips them and keeps the shipped files,
  `--missing` solves only those not there yet, and `--master-cache DIR`
  stores and reuses the raw solutions there as npz);
- `tables.json`: for every file its preset, rules encoding, size and
  sha256, checked by the tests. A table file no rule set names any more
  is removed.

The output is deterministic: solving twice gives identical bytes.
"""

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from engine import plan_solver
from engine.rules import MASTER_TARGET, PRESETS, preset

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "tables"


def plan_name(rules):
    """The file name of the Expert plan for `rules` (as firmware.players)."""
    return "plan-%s.bin" % rules.plan_rules().fingerprint()


def plan_groups():
    """(file name, preset keys, capped) of every shipped plan: the presets
    grouped by what their plan depends on; `capped` when one of them has
    an exact target."""
    out = []
    for key in PRESETS:
        rules = preset(key)
        name = plan_name(rules)
        for group in out:
            if group[0] == name:
                group[1].append(key)
                group[2] = group[2] or rules.exact
                break
        else:
            out.append([name, [key], rules.exact])
    return [tuple(group) for group in out]


# The targets below 10000 people choose (one of the texts names 5000 for a
# shorter evening; Farkle plays to 4000).
LOW_TARGETS = (4000, 5000)


def master_rule_sets():
    """(label, rules) of every shipped Master table: each preset at its
    own target; the presets with an entry hurdle also at LOW_TARGETS
    (label KEY@TARGET), a preset without one below 10000 also at 10000
    (without a hurdle the lower targets read that table shifted); then
    the Zehntausend rules with the immediate finish (how most strategy
    papers play; reachable as custom rules)."""
    out = [(key, preset(key)) for key in PRESETS]
    for key in PRESETS:
        base = preset(key)
        if base.entry:
            for target in LOW_TARGETS:
                out.append(("%s@%d" % (key, target), base.replace(target=target)))
        elif base.target < MASTER_TARGET:  # (Farkle's 4000) its 10000 table, read
            # shifted, also serves every target in between (Rules.master_sources)
            out.append(("%s@%d" % (key, MASTER_TARGET), base.replace(target=MASTER_TARGET)))
    out.append(("zehntausend:finish=immediate", preset("zehntausend").replace(
        finish="immediate")))
    return out


def master_name(rules):
    """The file name of the Master table for `rules` (as engine.master)."""
    from engine.master import table_name

    return table_name(rules)


def solve_master(rules, cache=None, progress=False):
    """The Master table of `rules` as bytes, and the solve's seconds (0 when
    the solution came from the npz `cache` folder)."""
    from tools import master_solve as ms

    path = None
    if cache is not None:
        path = Path(cache) / ("%s.npz" % rules.fingerprint())
        if path.exists():
            sol = ms.load_solution(str(path))
            if sol.rules == rules:
                return ms.pack_master(sol), 0.0
    sol = ms.solve_optimal(rules, progress=progress)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        ms.save_solution(sol, str(path))
    return ms.pack_master(sol), sol.seconds


def solve_plan(rules, capped=False, progress=None):
    """The Expert plan of `rules` as bytes, solved for `rules.plan_rules()`
    (reach rows up to its target, 10000); with `capped` with the capped
    values an exact target needs (engine.turnplan.TurnPlan.solve_capped)."""
    plan = plan_solver.solve_plan(rules.plan_rules(), progress=progress)
    if capped:
        plan.solve_capped()
    return plan.to_bytes()


def _bar(label):
    """A progress callback that redraws one line on stderr."""

    def show(done, total):
        width = 30
        filled = width * done // max(1, total)
        sys.stderr.write("\r%-14s [%s%s] %3d%%" % (label, "#" * filled, "." * (width - filled),
                                                  100 * done // max(1, total)))
        sys.stderr.flush()

    return show


def main(argv=None):
    """Solve and write every table, then the index."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(TABLES), help="folder to write (default tables/)")
    p.add_argument("--no-master", action="store_true",
                   help="skip the Master tables (keep the files and entries there)")
    p.add_argument("--missing", action="store_true",
                   help="solve only the Master tables not there yet (keep the others)")
    p.add_argument("--master-cache", metavar="DIR",
                   help="store and reuse the raw Master solutions (npz) here")
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    index = {}
    start = time.time()
    for name, keys, capped in plan_groups():
        rules = preset(keys[0])
        bar = _bar("+".join(keys))
        blob = solve_plan(rules, capped, bar)
        bar(1, 1)
        (out / name).write_bytes(blob)
        index[name] = {"kind": "expert-plan", "preset": "+".join(keys),
                       "rules": rules.plan_rules().encode(),
                       "size": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
        sys.stderr.write("  %s %d bytes\n" % (name, len(blob)))
    old = {}
    if (out / "tables.json").exists():
        old = json.loads((out / "tables.json").read_text())
    for key, rules in master_rule_sets():
        name = master_name(rules)
        if args.no_master or (args.missing and name in old and (out / name).exists()):
            if name in old:
                index[name] = old[name]
            continue
        sys.stderr.write("%-14s Master table ...\n" % key)
        blob, seconds = solve_master(rules, args.master_cache)
        (out / name).write_bytes(blob)
        index[name] = {"kind": "master-table", "preset": key, "rules": rules.encode(),
                       "size": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
        sys.stderr.write("  %s %d bytes (%.0f s)\n" % (name, len(blob), seconds))
    (out / "tables.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    for path in sorted(out.glob("*.bin")):  # tables no rule set has any more
        if path.name not in index:
            path.unlink()
            sys.stderr.write("  removed %s\n" % path.name)
    total = sum(v["size"] for v in index.values())
    print("wrote %d tables, %d bytes in all, in %.1f s" % (len(index), total, time.time() - start))


if __name__ == "__main__":
    main()
