"""`python -m tools.chipbench`: the command line, the two runs and the table."""

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from tools.chipbench.analysis import analyse
from tools.chipbench.course import (
    DEFAULT_BOARD,
    HEAP_SLOW,
    PARTS_ALL,
    PARTS_HEAP,
    SEED,
    build_course,
    script_text,
)
from tools.chipbench.harness import (
    EXPECT_MS,
    I2C_BOARDS,
    SCALE,
    WIRING,
    check_board,
    hil_command,
    run_all,
)
from tools.chipbench.parts import add_part_args, ready_parts
from tools.chipbench.report import format_table
from tools.chipbench.stage import pack_image, romfs_firmware, stage_tree

ROOT = Path(__file__).resolve().parents[2]


def parse_args(argv=None):
    """The command line (see the package docstring)."""
    ap = argparse.ArgumentParser(prog="python -m tools.chipbench",
                                 description="Speed and heap of the game on an emulated Pico.")
    ap.add_argument("--board", default=DEFAULT_BOARD,
                    help="the board to stage (default %s; harness boards: %s; all: each "
                    "of them in turn)" % (DEFAULT_BOARD, ", ".join(WIRING)))
    ap.add_argument("--freq", type=int, help="I2C frequency in Hz written into the staged "
                    "board file (I2C boards; default: the board's FREQ)")
    add_part_args(ap)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--keep", metavar="DIR", help="keep the staged tree, images, scripts, the "
                    "harness output (shots, report.json, serial) and the simulator's shots")
    ap.add_argument("--seed", type=int, default=SEED, help="the dice seed (default %d)" % SEED)
    ap.add_argument("--no-heap", action="store_true", help="only the timing run")
    ap.add_argument("--parts", default=",".join(PARTS_ALL),
                    help="the parts of the course to run (default all: %s; a quick check: "
                    "menus)" % ",".join(PARTS_ALL))
    ap.add_argument("--frozen", action="store_true",
                    help="the firmware has the game frozen in (built with manifest.py): stage "
                    "only main.py, board.txt, tables/ and the title picture (deploy --frozen)")
    ap.add_argument("--romfs", action="store_true",
                    help="the firmware has a ROMFS partition (make uf2 MICROPYTHON=DIR builds "
                    "it): the code goes there as an image, the rest onto littlefs")
    ap.add_argument("--slow", type=float, default=1.0, metavar="F",
                    help="scale every wait of the course by F (a slower tree: F > 1)")
    return ap.parse_args(argv)


def write_sim_shots(course, folder, width, height):
    """The simulator's shots as PNGs beside the chip's (for --keep)."""
    from simulator.host import write_png

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, pixels in course.shots.items():
        rows = ["".join("#" if pixels[y * width + x] else "." for x in range(width))
                for y in range(height)]
        write_png(str(folder / (name + ".png")), rows, SCALE)


BOARDS_ALL = (DEFAULT_BOARD, "pico_ssd1306_spi", "pico_sh1106_i2c", "thumby")  # --board all


def main_all(argv):
    """`--board all`: every board of BOARDS_ALL one after the other (--keep
    DIR: DIR/<board>), then their tables (or one JSON object by board); the
    worst exit status."""
    args = parse_args(argv)
    if args.freq is not None:
        print("chipbench: --freq is for one I2C board, not --board all", file=sys.stderr)
        return 2
    rest = []
    skip = False
    for a in argv:  # the options without --board and --keep
        if skip:
            skip = False
            continue
        if a in ("--board", "--keep"):
            skip = True
            continue
        if a.startswith("--board=") or a.startswith("--keep="):
            continue
        rest.append(a)
    code = 0
    results = {}
    for board in BOARDS_ALL:
        one = rest + ["--board", board]
        if args.keep:
            one += ["--keep", str(Path(args.keep) / board)]
        code = max(code, main(one, results))
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print("\n\n".join(format_table(results[b]) for b in BOARDS_ALL if b in results))
    return code


def main(argv=None, results=None):
    """`python -m tools.chipbench`: the options, the two runs, the table; an
    exit status. `results` (a dict): the figures go there by board instead
    of being printed (main_all)."""
    if argv is None:
        argv = sys.argv[1:]
    args = parse_args(argv)
    if args.board == "all":
        return main_all(argv)
    why = check_board(args.board, args.freq)
    if why:
        print("chipbench: " + why, file=sys.stderr)
        return 2
    if args.frozen and args.romfs:
        print("chipbench: --frozen or --romfs, not both", file=sys.stderr)
        return 2
    if args.frozen and args.freq is not None:
        print("chipbench: --freq rewrites the staged board file, which a frozen firmware "
              "holds itself; build it with the FREQ wanted", file=sys.stderr)
        return 2
    wanted = tuple(p for p in args.parts.split(",") if p)
    if not wanted or set(wanted) - set(PARTS_ALL):
        print("chipbench: --parts takes some of %s" % ",".join(PARTS_ALL), file=sys.stderr)
        return 2
    parts = ready_parts(args)
    if parts is None:
        return 2
    log = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    t0 = time.time()
    from simulator.host import board_profile

    profile = board_profile(args.board)
    width, height = profile.WIDTH, profile.HEIGHT
    log("chipbench: the course in the simulator (%s, seed %d)" % (args.board, args.seed))
    course = build_course(args.board, args.seed, slow=args.slow, parts=wanted)
    total = course.total_ms()
    log("chipbench: %d presses, %d shots, %.0f s emulated at most" % (
        len(course.presses), len(course.shots), total / 1000))
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="chipbench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        runs = {"timing": {"seed": args.seed, "profile": True, "heap": False}}
        if not args.no_heap and "game" in wanted:
            runs["heap"] = {"seed": args.seed, "profile": False, "heap": True}
        courses = {"timing": course}
        if "heap" in runs:
            courses["heap"] = build_course(args.board, args.seed, slow=args.slow * HEAP_SLOW,
                                           parts=PARTS_HEAP)
            log("chipbench: the heap run: %d presses (the game against the Master)" % len(
                courses["heap"].presses))
        jobs = {}
        for name, options in runs.items():
            script = work / ("course-%s.hil" % name)
            script.write_text(script_text(courses[name]), encoding="utf-8")
            tree = work / ("stage-" + name)
            if tree.exists():
                shutil.rmtree(tree)
            stage_tree(args.board, tree, options, args.freq, frozen=args.frozen,
                       romfs=args.romfs)
            image = work / (name + ".img")
            pack_image(tree, image)
            out = work / name
            if out.exists():
                shutil.rmtree(out)
            max_ms = courses[name].total_ms() + EXPECT_MS + 60000
            run_parts = dict(parts)
            if args.romfs:
                run_parts["firmware"] = romfs_firmware(
                    parts["firmware"], work / ("stage-%s.romfs" % name), work / (name + ".elf"))
            jobs[name] = (hil_command(run_parts, args.board, image, script, out, max_ms, 3600),
                          out)
        done = run_all(jobs, log)
        code, timing = done["timing"]
        if timing is None:
            print("chipbench: the timing run wrote no report (exit %d); see %s" % (
                code, work / "timing" / "hil.log"), file=sys.stderr)
            return 1
        heap = done.get("heap", (None, None))[1]
        res = analyse(course, timing, heap, work / "timing", width, height,
                      heap_course=courses.get("heap"))
        freq = args.freq or getattr(profile, "FREQ", None)
        res.update({
            "board": args.board, "freq": freq if args.board in I2C_BOARDS else None,
            "seed": args.seed, "tree": str(ROOT),
            "wall_s": round(time.time() - t0, 1), "exit_codes": {k: v[0] for k, v in done.items()},
        })
        if code not in (0,):
            res["warnings"].append("the timing run ended with exit %d (%s)" % (
                code, timing.get("end_reason")))
        if res["tracebacks"]:
            res["warnings"].append("Python traceback(s) on the chip's serial: see %s" % (
                work / "timing" / "serial.txt"))
        res["frozen"] = args.frozen
        res["romfs"] = args.romfs
        res["title"] = ("chipbench %s%s%s, seed %d, %s: %d presses, %.0f s emulated, "
                        "%.1f min wall") % (
            args.board, " (I2C %d kHz)" % (freq // 1000) if res["freq"] else "",
            ", game frozen into the firmware" if args.frozen else
            ", code in the ROMFS partition" if args.romfs else "", args.seed,
            ROOT, len(course.presses), (res["emulated_ms"] or 0) / 1000, res["wall_s"] / 60)
        if args.keep:
            for name, c in courses.items():
                write_sim_shots(c, work / ("sim-" + name), width, height)
        if results is not None:
            results[args.board] = res
        elif args.json:
            print(json.dumps(res, indent=1))
        else:
            print(format_table(res))
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)

