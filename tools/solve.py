"""Regenerate every shipped strategy table (`python -m tools.solve`).

Writes into tables/ (the folder the device reads from /tables):
- `plan-FINGERPRINT.bin` for each preset: the Expert's turn plan
  (engine.turnplan.TurnPlan.to_bytes), named by the rules' fingerprint so
  the app finds it for any rule set that equals a preset;
- `tables.json`: for every file its preset, rules encoding, size and
  sha256, checked by the tests.

The output is deterministic: solving twice gives identical bytes.
"""

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from engine.rules import PRESETS, preset
from engine.turnplan import TurnPlan

ROOT = Path(__file__).resolve().parent.parent
TABLES = ROOT / "tables"


def plan_name(rules):
    """The file name of the Expert plan for `rules` (as firmware.players)."""
    return "plan-%s.bin" % rules.fingerprint()


def solve_plan(rules, progress=None):
    """The Expert plan of `rules` as bytes."""
    return TurnPlan.solve(rules, progress=progress).to_bytes()


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
    args = p.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    index = {}
    start = time.time()
    for key in PRESETS:
        rules = preset(key)
        bar = _bar(key)
        blob = solve_plan(rules, bar)
        bar(1, 1)
        name = plan_name(rules)
        (out / name).write_bytes(blob)
        index[name] = {"kind": "expert-plan", "preset": key, "rules": rules.encode(),
                       "size": len(blob), "sha256": hashlib.sha256(blob).hexdigest()}
        sys.stderr.write("  %s %d bytes\n" % (name, len(blob)))
    (out / "tables.json").write_text(json.dumps(index, indent=1, sort_keys=True) + "\n")
    total = sum(v["size"] for v in index.values())
    print("wrote %d tables, %d bytes in all, in %.1f s" % (len(index), total, time.time() - start))


if __name__ == "__main__":
    main()
