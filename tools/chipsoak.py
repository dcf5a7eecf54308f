"""A long random session on an emulated Pico, with power cuts (`make chipsoak`).

    python -m tools.chipsoak [--seeds 20] [--first-seed 1] [--minutes 100]
        [--cuts 2] [--jobs 1] [--board NAME] [--keep DIR] [--json] [--wall-limit MIN]
        [--every-screen]
        --firmware firmware.elf --bootrom bootrom.mjs --rp2040js node_modules

A soak, not a test: `make test` covers its generator and its report reading
(tests/cpython/test_chipsoak.py), never a run.

What it does:

1. Stages the board's tree once as `make stage` does
   (tools.chipbench.stage_tree; bench.json seeds the dice with the run's
   seed) and replaces its main.py with the game's own start plus a
   probe (PROBE): the device loop's hook prints, on the USB serial,
   `@scr` when the screen or language changes, `@fail` when the crash
   recovery takes over, and every SAMPLE_MS `@soak` after a collection,
   followed by MicroPython's `mem_info()` (free heap, largest free run).
   Nothing of this is in the game: a device without the probe pays nothing.
2. For each seed (a run) it plays `cuts + 1` parts, each a timeline for the
   harness (tools/hil/hil.mjs) drawn from random.Random(seed, part):
   a burst of fast presses within the first second after the title is on
   the panel (every boot: the warm-up is under way then), then
   single presses, fast bursts, long holds, two-button chords, waits
   (some long enough to dim and sleep the screen), and excursions: back
   out with B, then down the menu and in (the score pad, the rules
   editor, a new game, ...), and up the title menu to its last entries:
   the settings, where A on the first row changes the language, and the
   help with one of its pages. Every part but the
   last ends in a power cut, one of ENDS: at a random line of its last
   action (right after a press, mid-hold, in a question or dialog the
   press opened), or during a save (`--cut-flash-op N:F`: the N-th flash
   erase or program, F of it done; the part's own `poweroff` stays as
   its end when it writes less). Flash writes take their real time
   (`--flash-busy 45,0.5`). Each part boots from the flash the previous
   part left (`--save-fs` / `--fs`); the screen each cut landed in is
   counted. With `--every-screen` each cut part is played again from the
   flash it booted from (the dice are seeded: it goes the same way) and
   cut (`--cut-at-ms`) in the first of its screens that no cut of the run
   landed in yet, questions and dialogs included; the next part boots
   from that flash. A reset of the chip (the last resort, the watchdog) ends a
   part (`--on-reset exit`) and is counted; the next part boots from the
   flash it left.
3. After each part it reads /data/error.log (and error.log.1) from the
   saved flash (littlefs-python): the entries new since the part before
   are the part's failures, with their tracebacks.
4. Prints one table: per run the parts, emulated minutes, presses, cuts,
   failures, resets, the smallest free heap and largest free block seen in
   the samples, the wall time; then totals, the same two heap figures per
   screen (each sample counts for the screen on top then), the screens
   visited, the screens the cuts landed in (and how many in a flash
   write), and every failure with its traceback.

Emulation runs at a fraction of real time (about a quarter while the
game works, near real time while it waits): `--wall-limit` stops starting
new parts after that many wall minutes, and the table says what was run.
`--jobs N` runs N seeds at once (one harness process each, so up to the
machine's cores); the table lists the runs in seed order either way.
"""

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tools.chipbench import (
    DEFAULT_BOARD,
    TRACEBACK,
    add_part_args,
    hil_command,
    pack_image,
    read_error_log,
    ready_parts,
    romfs_firmware,
    run_hil,
    stage_tree,
)

SAMPLE_MS = 3000  # emulated ms between two heap samples of the probe
EARLY_MS = (1150, 1450)  # the boot's burst starts this long after power-on (title at ~1.2 s)
EARLY_PRESSES = (3, 8)  # presses in it, within its first second
# How a part that ends in a power cut ends: at a random line of its last
# action, or during a flash write (the N-th erase/program of the part, N
# drawn up to SAVE_OPS: a part of a few minutes makes about a hundred).
ENDS = (("instant", 6), ("save", 4))
SAVE_OPS = 90
RESET_KINDS = ("reset", "watchdog")  # log entries of a chip reset (firmware.recovery, .watchdog)
FLASH_BUSY = "45,0.5"  # a W25Q16JV's typical erase (4 KiB) and program (page) times
KEYS = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
# How often each action is drawn, and how often each key in single presses.
ACTIONS = (("press", 45), ("burst", 8), ("hold", 6), ("chord", 6), ("wait", 10),
           ("long_wait", 1), ("excursion", 8), ("top", 10))
KEY_WEIGHTS = (("UP", 15), ("DOWN", 22), ("LEFT", 10), ("RIGHT", 10), ("A", 28), ("B", 15))

# The probe: the game's own start (tools.deploy.root_main_text) with the
# device loop's hook. gc.collect() before each sample, so "free" is what
# the live heap leaves and "max free sz" (blocks of 16 bytes) the longest
# run a request could get.
PROBE = '''\
# tools/chipsoak.py: the game with a probe on the device loop (a soak only).
import gc
import micropython
from time import ticks_diff, ticks_ms

from firmware.main import main

_seen = [None, None, None, 0]  # fault, screen, language, last sample


def _soak(dev):
    fault = dev.fault
    if fault != _seen[0]:
        _seen[0] = fault
        if fault is not None:
            print("@fail ms=%%d kind=%%s" %% (ticks_ms(), fault))
    app = dev.app
    if app is not None:
        name = app.top().name
        if name != _seen[1] or app.lang != _seen[2]:
            _seen[1] = name
            _seen[2] = app.lang
            print("@scr ms=%%d %%s %%s" %% (ticks_ms(), name, app.lang))
    now = ticks_ms()
    if ticks_diff(now, _seen[3]) >= %d:
        _seen[3] = now
        gc.collect()
        print("@soak ms=%%d" %% now)
        micropython.mem_info()
    return False


main(hook=_soak)
''' % SAMPLE_MS


# ---------------------------------------------------------------- the timelines


def _pick(rng, table):
    total = sum(w for _, w in table)
    x = rng.random() * total
    for item, weight in table:
        x -= weight
        if x < 0:
            return item
    return table[-1][0]


class Timeline:
    """One part's harness script, built action by action; `ms` is the
    emulated time its steps take, `counts` what it holds."""

    def __init__(self):
        self.lines = []
        self.ms = 0
        self.harness = []  # extra harness arguments (the save cut: --cut-flash-op)
        self.end = None  # how a cut part ends (ENDS), None when it is not cut
        self.counts = {"presses": 0, "bursts": 0, "holds": 0, "chords": 0, "waits": 0,
                       "excursions": 0}

    def wait(self, ms):
        ms = int(ms)
        if ms > 0:
            self.lines.append("wait %d" % ms)
            self.ms += ms

    def press(self, key, ms):
        ms = int(ms)
        self.lines.append("press %s %d" % (key, ms))
        self.ms += ms
        self.counts["presses"] += 1

    def hold(self, key):
        self.lines.append("hold %s" % key)
        self.counts["presses"] += 1

    def release(self, key):
        self.lines.append("release %s" % key)

    def line(self, line):
        """Append a line of another Timeline, with the time it takes."""
        self.lines.append(line)
        words = line.split()
        if words[0] == "wait":
            self.ms += int(words[1])
        elif words[0] == "press":
            self.ms += int(words[2])
            self.counts["presses"] += 1
        elif words[0] == "hold":
            self.counts["presses"] += 1

    def comment(self, text):
        self.lines.append("# " + text)

    def text(self):
        return "\n".join(self.lines) + "\n"


def _action(rng, t, kind):
    """Append one action of `kind` to Timeline `t`."""
    if kind == "press":
        t.press(_pick(rng, KEY_WEIGHTS), rng.randint(40, 160))
        t.wait(rng.choice((60, 150, 300, 500, 800, 1200)))
    elif kind == "burst":  # fast presses of one key or a few
        t.counts["bursts"] += 1
        keys = [_pick(rng, KEY_WEIGHTS) for _ in range(rng.randint(1, 3))]
        for _ in range(rng.randint(3, 12)):
            t.press(rng.choice(keys), rng.randint(25, 60))
            t.wait(rng.randint(15, 70))
        t.wait(rng.randint(200, 900))
    elif kind == "hold":  # long press: the long action, the arrows' repeat
        t.counts["holds"] += 1
        key = _pick(rng, KEY_WEIGHTS)
        t.hold(key)
        t.wait(rng.randint(650, 3000))
        t.release(key)
        t.wait(rng.randint(200, 800))
    elif kind == "chord":  # two buttons at once, let go in either order
        t.counts["chords"] += 1
        a, b = rng.sample(KEYS, 2)
        t.hold(a)
        t.wait(rng.randint(0, 250))
        t.hold(b)
        t.wait(rng.randint(50, 1500))
        first, second = (a, b) if rng.random() < 0.5 else (b, a)
        t.release(first)
        t.wait(rng.randint(0, 300))
        t.release(second)
        t.wait(rng.randint(200, 800))
    elif kind == "wait":
        t.counts["waits"] += 1
        t.wait(rng.randint(1000, 8000))
    elif kind == "long_wait":  # the screen dims (30 s) or sleeps (2 min)
        t.counts["waits"] += 1
        t.wait(rng.choice((35000, 60000, 130000)))
        t.press(_pick(rng, KEY_WEIGHTS), 80)  # the waking press
        t.wait(600)
    elif kind == "excursion":  # back out, then into a menu entry and a row of it
        t.counts["excursions"] += 1
        _back_out(rng, t)
        for _ in range(2):
            for _ in range(rng.randint(0, 7)):
                t.press("DOWN", 70)
                t.wait(180)
            t.press("A", 80)
            t.wait(rng.randint(700, 2000))
        for _ in range(rng.randint(0, 6)):
            t.press(_pick(rng, KEY_WEIGHTS), 80)
            t.wait(rng.randint(200, 900))
    elif kind == "top":  # the title's last entries (UP from the cursor): settings, help
        t.counts["excursions"] += 1
        _back_out(rng, t)
        for _ in range(rng.randint(1, 7)):  # the cursor stays where it was: any entry
            t.press("UP", 70)
            t.wait(200)
        t.press("A", 80)
        t.wait(rng.randint(600, 1200))
        if rng.random() < 0.5:  # in the settings: A on the first row changes the language
            for _ in range(rng.randint(1, 3)):
                t.press("A", 80)
                t.wait(rng.randint(150, 1500))
        else:  # in the help: a page (RIGHT on the first row: another rule set)
            for _ in range(rng.randint(1, 7)):
                t.press(rng.choice(("DOWN", "DOWN", "DOWN", "RIGHT")), 70)
                t.wait(200)
            t.press("A", 80)
            t.wait(rng.randint(1500, 3000))  # the odds page works a second
            for _ in range(rng.randint(0, 6)):
                t.press("DOWN", 70)
                t.wait(rng.randint(150, 600))
        t.press("B", 80)
        t.wait(500)
    else:
        raise ValueError("unknown action %r" % kind)


def _back_out(rng, t):
    """B a few times: from a menu back to the title (in a game: the
    standings and back, so anywhere)."""
    for _ in range(rng.randint(2, 6)):
        t.press("B", 80)
        t.wait(350)


def _early_burst(rng, t):
    """Fast presses right after the boot's title: EARLY_PRESSES of them
    within a second (the warm-up is under way; into a menu and on)."""
    t.counts["bursts"] += 1
    for _ in range(rng.randint(*EARLY_PRESSES)):
        t.press(_pick(rng, KEY_WEIGHTS), rng.randint(25, 60))
        t.wait(rng.randint(15, 70))


def part_timeline(seed, part, part_ms, cut):
    """The Timeline of part `part` of run `seed`: the boot, a burst of fast
    presses as soon as the title shows (EARLY_MS), then random actions
    until `part_ms` emulated ms; `cut`: it ends in a power cut, one of
    ENDS (`t.end`; `t.harness` holds the save cut's harness argument)."""
    rng = random.Random("chipsoak:%d:%d" % (seed, part))
    t = Timeline()
    t.comment("tools/chipsoak.py: seed %d, part %d, %d ms%s" % (
        seed, part, part_ms, ", ends in a power cut" if cut else ""))
    t.wait(rng.randint(*EARLY_MS))
    _early_burst(rng, t)
    while t.ms < part_ms:
        _action(rng, t, _pick(rng, ACTIONS))
    if not cut:
        t.wait(1500)
        return t
    t.end = _pick(rng, ENDS)
    if t.end == "save":
        t.harness = ["--cut-flash-op", "%d:%.2f" % (rng.randint(1, SAVE_OPS), rng.random())]
        t.comment("or earlier: a power cut in a flash write (%s)" % " ".join(t.harness))
    last = Timeline()  # the cut at a random line of one more action: a screen it opened
    _action(rng, last, _pick(rng, ACTIONS))
    for line in last.lines[:rng.randint(1, len(last.lines))]:
        t.line(line)
    t.wait(rng.randint(1, 80))  # the instant of the cut: mid-animation, mid-save
    t.lines.append("poweroff")
    return t


# ---------------------------------------------------------------- reading a part

SAMPLE_RE = re.compile(r"@soak ms=(\d+)")
FREE_RE = re.compile(r"GC: total: (\d+), used: (\d+), free: (\d+)")
MAXFREE_RE = re.compile(r"max free sz: (\d+)")
SCREEN_RE = re.compile(r"@scr ms=(\d+) (\S+) (\S+)")
FAIL_RE = re.compile(r"@fail ms=(\d+) kind=(\S+)")
BLOCK_BYTES = 16  # a heap block on the RP2040 (mem_info counts runs in blocks)


def parse_serial(text):
    """The probe's lines in a part's serial text: {"samples": [(ms, free,
    largest free run in bytes, the screen on top then)], "screens": [(ms,
    name, lang)], "fails": [(ms, kind)], "tracebacks": n}."""
    out = {"samples": [], "screens": [], "fails": [], "tracebacks": text.count(TRACEBACK)}
    pending = None
    free = None
    screen = None
    for line in text.splitlines():
        m = SAMPLE_RE.search(line)
        if m:
            pending = int(m.group(1))
            free = None
            continue
        if pending is not None:
            m = FREE_RE.search(line)
            if m:
                free = int(m.group(3))
                continue
            m = MAXFREE_RE.search(line)
            if m and free is not None:
                out["samples"].append((pending, free, int(m.group(1)) * BLOCK_BYTES, screen))
                pending = None
                continue
        m = SCREEN_RE.search(line)
        if m:
            screen = m.group(2)
            out["screens"].append((int(m.group(1)), screen, m.group(3)))
            continue
        m = FAIL_RE.search(line)
        if m:
            out["fails"].append((int(m.group(1)), m.group(2)))
    return out


ENTRY_RE = re.compile(r"^--- (\d+) ms (\S+)[ \t]*$", re.M)


def log_entries(text):
    """The entries of firmware.recovery's log text, oldest first: a list
    of (ms, error type, traceback text)."""
    heads = list(ENTRY_RE.finditer(text or ""))
    out = []
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((int(m.group(1)), m.group(2), text[m.end():end].strip("\n")))
    return out


def new_entries(before, after):
    """The entries of `after` that `before` did not have. Both are windows
    (error.log.1 then error.log) of one growing history: the longest tail
    of `before` that starts `after` is what both hold."""
    for k in range(min(len(before), len(after)), 0, -1):
        if before[len(before) - k:] == after[:k]:
            return after[k:]
    return list(after)


def read_logs(image):
    """error.log.1 then error.log from a saved flash image, joined (""
    when there are none or the image does not mount)."""
    return read_error_log(image) or ""


# ---------------------------------------------------------------- the summary


def summarise(runs):
    """Totals over `runs` (the per-run dicts main builds)."""
    tot = {"runs": len(runs), "parts": 0, "emulated_ms": 0, "presses": 0, "cuts": 0,
           "failures": 0, "resets": 0, "min_free": None, "min_largest": None, "wall_s": 0.0}
    for r in runs:
        for key in ("parts", "emulated_ms", "presses", "cuts", "failures", "resets"):
            tot[key] += r.get(key, 0)
        tot["wall_s"] += r["wall_s"]
        for key, src in (("min_free", "min_free"), ("min_largest", "min_largest")):
            if r[src] is not None and (tot[key] is None or r[src] < tot[key]):
                tot[key] = r[src]
    return tot


def _kb(n):
    return "-" if n is None else "%.1f KB" % (n / 1024)


def format_table(res):
    """The table chipsoak prints."""
    out = [res["title"], ""]
    out.append("%-6s %5s %9s %7s %4s %8s %6s %10s %12s %8s" % (
        "seed", "parts", "emul.min", "presses", "cuts", "failures", "resets", "min free",
        "min largest", "wall min"))
    for r in res["runs"]:
        out.append("%-6d %5d %9.1f %7d %4d %8d %6d %10s %12s %8.1f" % (
            r["seed"], r["parts"], r["emulated_ms"] / 60000, r["presses"], r["cuts"],
            r["failures"], r.get("resets", 0), _kb(r["min_free"]), _kb(r["min_largest"]),
            r["wall_s"] / 60))
    t = res["total"]
    out.append("%-6s %5d %9.1f %7d %4d %8d %6d %10s %12s %8.1f" % (
        "total", t["parts"], t["emulated_ms"] / 60000, t["presses"], t["cuts"], t["failures"],
        t.get("resets", 0), _kb(t["min_free"]), _kb(t["min_largest"]), t["wall_s"] / 60))
    out.append("")
    out.append("runs %d, emulated minutes %.1f, presses %d, power cuts %d, failures %d, "
               "resets %d; smallest free heap %s, largest free block at its smallest %s "
               "(samples every %d ms after a collection)" % (
                   t["runs"], t["emulated_ms"] / 60000, t["presses"], t["cuts"],
                   t["failures"], t.get("resets", 0), _kb(t["min_free"]),
                   _kb(t["min_largest"]), SAMPLE_MS))
    by_screen = res.get("by_screen") or {}
    if by_screen:
        out.append("")
        out.append("%-14s %8s %10s %12s" % ("screen", "samples", "min free", "min largest"))
        for name, (n, free, largest) in sorted(by_screen.items(), key=lambda kv: kv[1][2]):
            out.append("%-14s %8d %10s %12s" % (name, n, _kb(free), _kb(largest)))
    if res.get("cut_screens"):
        out.append("power cuts by screen on top (times): " + ", ".join(
            "%s %d" % (k, v) for k, v in sorted(res["cut_screens"].items(),
                                               key=lambda kv: -kv[1])))
        out.append("power cuts in a flash write: %d" % res.get("cut_in_write", 0))
        never = sorted(set(res.get("screens") or {}) - set(res["cut_screens"]))
        out.append("screens visited that no cut landed in: " + (", ".join(never) or "none"))
    if res.get("screens"):
        out.append("screens visited (times): " + ", ".join(
            "%s %d" % (k, v) for k, v in sorted(res["screens"].items(), key=lambda kv: -kv[1])))
    out.append("language changes seen: %d" % res.get("lang_changes", 0))
    for note in res.get("notes", []):
        out.append("note: " + note)
    for f in res["failures"]:
        out.append("")
        out.append("failure: seed %d part %d at %s ms: %s" % (
            f["seed"], f["part"], f["ms"], f["type"]))
        out.append(f["traceback"])
    return "\n".join(out)


# ---------------------------------------------------------------- running


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="A seeded random soak of the game on an emulated "
                                 "Pico, with power cuts.")
    ap.add_argument("--seeds", type=int, default=20, help="runs, one per seed (default 20)")
    ap.add_argument("--first-seed", type=int, default=1, help="the first seed (default 1)")
    ap.add_argument("--minutes", type=float, default=100.0,
                    help="emulated minutes over all runs (default 100)")
    ap.add_argument("--cuts", type=int, default=2,
                    help="power cuts per run: it plays cuts + 1 parts (default 2)")
    ap.add_argument("--board", default=DEFAULT_BOARD, help="the board (default %s)" % (
        DEFAULT_BOARD))
    ap.add_argument("--wall-limit", type=float, metavar="MIN",
                    help="start no new part after MIN wall minutes")
    ap.add_argument("--jobs", type=int, default=1,
                    help="runs at once, one harness process each (default 1; up to the cores)")
    ap.add_argument("--every-screen", action="store_true",
                    help="after each cut part, play it again and cut in the first screen of it "
                         "no cut of the run landed in yet (the next part boots from there)")
    ap.add_argument("--romfs", action="store_true",
                    help="the firmware has a ROMFS partition: the code goes there (tools/romfs.py)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--keep", metavar="DIR", help="keep the tree, scripts, images and output")
    add_part_args(ap)
    return ap.parse_args(argv)


def run_part(parts, board, image, script_text, out, max_ms, extra=()):
    """One harness run of a part (`extra`: more harness arguments); (exit
    code, report dict or None, serial). A reset of the chip ends it."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    script = out / "part.hil"
    script.write_text(script_text, encoding="utf-8")
    cmd = hil_command(parts, board, image, script, out, max_ms, 4 * 3600)
    cmd += ["--flash-busy", FLASH_BUSY, "--on-reset", "exit"] + list(extra)
    return run_hil(cmd, out)


def soak_seed(args, parts, work, seed, image, part_ms, t_start, log):
    """The parts of one seed's run, each booting from the flash the last
    left (`image` holds the first part's): its row, failures, screens
    visited, language changes and notes."""
    n_parts = args.cuts + 1
    run = {"seed": seed, "parts": 0, "emulated_ms": 0, "presses": 0, "cuts": 0,
           "failures": 0, "resets": 0, "min_free": None, "min_largest": None, "wall_s": 0.0}
    out_of = {"run": run, "failures": [], "screens": {}, "lang_changes": 0, "notes": [],
              "by_screen": {}, "cut_screens": {}, "cut_in_write": 0}
    failures, screens, notes = out_of["failures"], out_of["screens"], out_of["notes"]
    by_screen = out_of["by_screen"]
    on_top = "title"  # the screen on top when the part before ended
    entries = log_entries(read_logs(image))
    last_lang = None
    for part in range(n_parts):
        if args.wall_limit and time.time() - t_start > args.wall_limit * 60:
            notes.append("wall limit reached: seed %d stopped before part %d" % (seed, part + 1))
            break
        cut = part < n_parts - 1
        start_image, start_entries = image, entries
        t = part_timeline(seed, part, part_ms, cut)
        out = work / ("seed%d-part%d" % (seed, part + 1))
        if out.exists():
            shutil.rmtree(out)
        t0 = time.time()
        code, report, serial = run_part(parts, args.board, image, t.text(), out, t.ms + 60000,
                                        t.harness)
        wall = time.time() - t0
        run["wall_s"] += wall
        run["parts"] += 1
        run["presses"] += t.counts["presses"]
        emulated = (report or {}).get("emulated_ms") or 0
        run["emulated_ms"] += emulated
        end = (report or {}).get("end_reason")
        if cut and end == "power-cut":
            run["cuts"] += 1
        seen = parse_serial(serial)
        for _ms, free, largest, name in seen["samples"]:
            if run["min_free"] is None or free < run["min_free"]:
                run["min_free"] = free
            if run["min_largest"] is None or largest < run["min_largest"]:
                run["min_largest"] = largest
            n, low, short = by_screen.get(name or "boot", (0, free, largest))
            by_screen[name or "boot"] = (n + 1, min(low, free), min(short, largest))
        if seen["screens"]:
            on_top = seen["screens"][-1][1]
        if end == "power-cut":
            out_of["cut_screens"][on_top] = out_of["cut_screens"].get(on_top, 0) + 1
            if ((report or {}).get("power_cut") or {}).get("flash_op"):
                out_of["cut_in_write"] += 1
        for _ms, name, lang in seen["screens"]:
            screens[name] = screens.get(name, 0) + 1
            if last_lang is not None and lang != last_lang:
                out_of["lang_changes"] += 1
            last_lang = lang
        saved = out / "flash.img"
        now_entries = log_entries(read_logs(saved))
        fresh = new_entries(entries, now_entries)
        entries = now_entries
        for ms, kind, tb in fresh:
            failures.append({"seed": seed, "part": part + 1, "ms": ms, "type": kind,
                             "traceback": tb})
        resets = len([e for e in fresh if e[1] in RESET_KINDS])
        if end == "reset" and not resets:
            resets = 1  # (a reset that logged nothing: the harness saw it)
            failures.append({"seed": seed, "part": part + 1, "ms": "-", "type": "reset",
                             "traceback": "the chip reset itself; no log entry (see %s)" % out})
        run["resets"] += resets
        problems = []
        if seen["tracebacks"]:
            problems.append("a traceback on the serial (the loop itself ended)")
        if len(seen["fails"]) > len(fresh):
            problems.append("%d recovery screens, %d new log entries" % (
                len(seen["fails"]), len(fresh)))
        expected_end = "power-cut" if cut else "script-done"
        if end != "reset" and (code != 0 or end != expected_end):
            problems.append("harness exit %s, end %s" % (code, end))
        for p in problems:
            failures.append({"seed": seed, "part": part + 1, "ms": "-", "type": "run",
                             "traceback": p + " (see %s)" % out})
        run["failures"] += len(fresh) - len([e for e in fresh if e[1] in RESET_KINDS]) + len(
            problems)
        log("chipsoak: seed %d part %d/%d: %.1f emulated s in %.0f s wall, %d presses, "
            "%d failures, %d resets%s" % (
                seed, part + 1, n_parts, emulated / 1000, wall, t.counts["presses"],
                len(fresh) - resets + len(problems), resets,
                ", power cut on %s" % on_top if end == "power-cut" else ""))
        if not saved.exists():
            notes.append("seed %d part %d saved no flash: the run stops" % (seed, part + 1))
            break
        image = saved
        if cut and getattr(args, "every_screen", False) and end != "reset":
            target = uncut_screen(seen["screens"], out_of["cut_screens"])
            if target is not None:
                replayed = _replay_cut(args, parts, work, seed, part, t, start_image,
                                       start_entries, fresh, target, out_of, log)
                if replayed is not None:
                    image, entries = replayed
    return out_of


def uncut_screen(screens, cut_screens, settle_ms=150):
    """(screen, instant) for a replay's cut: the first screen of a part's
    `screens` ([(ms, name, lang)] in order) that no cut of the run landed
    in yet, and an instant `settle_ms` after it came up (halfway to the
    next when that is sooner); None when every screen there had a cut."""
    for i, (ms, name, _lang) in enumerate(screens[:-1]):
        if name in cut_screens:
            continue
        after = screens[i + 1][0]
        if after - ms < 2:
            continue
        return name, ms + min(settle_ms, (after - ms) // 2)
    return None


def _replay_cut(args, parts, work, seed, part, t, image, entries, seen_fresh, target, out_of,
                log):
    """--every-screen: play part `part` again from the flash it booted
    from (`image`; the dice are seeded, so it goes the same way) and cut
    the power at the instant `target` = (screen, ms) was on top; the next
    part boots from that flash. Returns (image, log entries) for the next
    part, or None when the replay left no flash."""
    name, at = target
    run = out_of["run"]
    out = work / ("seed%d-part%d-cut" % (seed, part + 1))
    if out.exists():
        shutil.rmtree(out)
    t0 = time.time()
    code, report, serial = run_part(parts, args.board, image, t.text(), out, at + 60000,
                                    ["--cut-at-ms", str(at)])
    run["wall_s"] += time.time() - t0
    run["parts"] += 1
    run["emulated_ms"] += (report or {}).get("emulated_ms") or 0
    end = (report or {}).get("end_reason")
    seen = parse_serial(serial)
    on_top = seen["screens"][-1][1] if seen["screens"] else "boot"
    if end == "power-cut":
        run["cuts"] += 1
        out_of["cut_screens"][on_top] = out_of["cut_screens"].get(on_top, 0) + 1
    if on_top != name:
        out_of["notes"].append("seed %d part %d: the replay cut on %s, not %s" % (
            seed, part + 1, on_top, name))
    saved = out / "flash.img"
    now_entries = log_entries(read_logs(saved))
    known = [(e[0], e[1]) for e in seen_fresh]  # the first play's failures, counted there
    fresh = [e for e in new_entries(entries, now_entries) if (e[0], e[1]) not in known]
    for ms, kind, tb in fresh:
        out_of["failures"].append({"seed": seed, "part": part + 1, "ms": ms, "type": kind,
                                   "traceback": tb + " (the replay)"})
    resets = len([e for e in fresh if e[1] in RESET_KINDS])
    run["resets"] += resets
    run["failures"] += len(fresh) - resets + (1 if seen["tracebacks"] else 0)
    if seen["tracebacks"]:
        out_of["failures"].append({"seed": seed, "part": part + 1, "ms": "-", "type": "run",
                                   "traceback": "a traceback on the serial (see %s)" % out})
    log("chipsoak: seed %d part %d replayed to a cut at %d ms on %s (%s): %d failures" % (
        seed, part + 1, at, on_top, end, len(fresh)))
    if not saved.exists() or code not in (0, 5):
        return None
    return saved, now_entries


def main(argv=None):
    args = parse_args(argv)
    if args.seeds < 1 or args.minutes <= 0 or args.cuts < 0 or args.jobs < 1:
        print("chipsoak: --seeds, --minutes and --jobs must be positive, --cuts not negative",
              file=sys.stderr)
        return 2
    parts = ready_parts(args)
    if parts is None:
        return 2
    log = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else (
        lambda *a: print(*a, flush=True))
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="chipsoak-"))
    work.mkdir(parents=True, exist_ok=True)
    n_parts = args.cuts + 1
    part_ms = int(args.minutes * 60000 / (args.seeds * n_parts))
    t_start = time.time()
    try:
        tree = work / "stage"  # staged once: every run plays the same tree
        if tree.exists():
            shutil.rmtree(tree)
        stage_tree(args.board, tree, {"seed": args.first_seed}, romfs=args.romfs)
        if args.romfs:
            parts = dict(parts, firmware=romfs_firmware(parts["firmware"], work / "stage.romfs",
                                                        work / "romfs.elf"))
        (tree / "main.py").write_text(PROBE, encoding="utf-8")
        seeds = list(range(args.first_seed, args.first_seed + args.seeds))
        images = {}
        for seed in seeds:  # each run's first flash, its seed in bench.json
            (tree / "bench.json").write_text(json.dumps({"seed": seed}) + "\n", encoding="utf-8")
            images[seed] = work / ("seed%d-part0.img" % seed)
            pack_image(tree, images[seed])

        def one(seed):
            return soak_seed(args, parts, work, seed, images[seed], part_ms, t_start, log)

        # --jobs runs at once: each harness is one process busy on one core
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            done = list(pool.map(one, seeds))
        runs = [d["run"] for d in done if d["run"]["parts"]]
        failures = [f for d in done for f in d["failures"]]
        screens = {}
        for d in done:
            for name, n in d["screens"].items():
                screens[name] = screens.get(name, 0) + n
        notes = [n for d in done if d["run"]["parts"] for n in d["notes"]]
        unrun = [d["run"]["seed"] for d in done if not d["run"]["parts"]]
        if unrun:
            notes.append("wall limit reached: seed(s) %s not run" % ", ".join(map(str, unrun)))
        lang_changes = sum(d["lang_changes"] for d in done)
        by_screen, cut_screens = {}, {}
        for d in done:
            for name, (n, free, largest) in d["by_screen"].items():
                m, low, short = by_screen.get(name, (0, free, largest))
                by_screen[name] = (m + n, min(low, free), min(short, largest))
            for name, n in d["cut_screens"].items():
                cut_screens[name] = cut_screens.get(name, 0) + n
        res = {"runs": runs, "total": summarise(runs), "failures": failures,
               "screens": screens, "lang_changes": lang_changes, "notes": notes,
               "by_screen": by_screen, "cut_screens": cut_screens,
               "cut_in_write": sum(d["cut_in_write"] for d in done),
               "board": args.board, "part_ms": part_ms, "cuts_per_run": args.cuts}
        res["romfs"] = args.romfs
        res["title"] = ("chipsoak %s%s: seeds %d..%d asked, %d run(s), %d parts of %.1f emulated "
                        "min each (%d power cut(s) a run), flash busy %s, %d job(s), %.1f min "
                        "wall") % (
            args.board, ", code in the ROMFS partition" if args.romfs else "", args.first_seed,
            args.first_seed + args.seeds - 1, len(runs), n_parts,
            part_ms / 60000, args.cuts, FLASH_BUSY, args.jobs, (time.time() - t_start) / 60)
        if args.json:
            print(json.dumps(res, indent=1))
        else:
            print(format_table(res))
        return 1 if failures else 0  # (a reset is listed there too)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
