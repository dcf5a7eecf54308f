"""The chipbench course on CircuitPython: the image of `make uf2-cpy` on an emulated Pico.

    python -m tools.cpy_chipbench --cpy-out DIR --bootrom bootrom.mjs --rp2040js node_modules
        [--board NAME] [--firmware build/cpy/NAME/firmware.elf] [--hil hil.mjs]
        [--parts menus,game,stats,solve] [--slow F] [--no-heap] [--keep DIR] [--json]

tools.chipbench's course (the simulator drives it, seeded dice) and its
analysis (press to panel per kind and screen, the heap after every frame,
every chip shot against the simulator's), run on the CircuitPython
firmware with the game frozen in (tools.cpy_uf2) instead of MicroPython's:

- the drive is the one `make uf2-cpy` writes (code.py, boot.py,
  board.txt, tables/, data/) plus chipbench's bench.json, made into a FAT
  image by ../shared/cpy/mkfat.sh (so `--cpy-out`, the chroot with
  mkfs.fat and mtools, is needed);
- the harness runs with `--circuitpython` (the drive at flash offset
  0x100000); `--hil` names a hil.mjs that has it (../shared/hil/hil.mjs);
- CircuitPython starts code.py only after USB has enumerated (about 2.2 s
  after power-on), so the course starts USB_WAIT_MS after power-on: its
  boot shot, 300 ms into the course, then asks for the title 2.6 s after
  power-on, the target of issue 48.

Boot figures and limits in the table are chipbench's (made for MicroPython);
the error log in /data of the drive is not read (it is FAT): a failure
shows as a traceback on the serial.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tools import cpy_uf2
from tools.chipbench.analysis import analyse
from tools.chipbench.course import PARTS_ALL, PARTS_HEAP, SEED, build_course, script_text
from tools.chipbench.harness import EXPECT_MS, SCALE, WIRING, read_report
from tools.chipbench.report import format_table

ROOT = cpy_uf2.ROOT
USB_WAIT_MS = 2300  # power-on to the course's start (CircuitPython: USB first, then code.py)
HIL = ROOT / "tools" / "hil" / "hil.mjs"


def drive_image(board, bench, work, cpy_out, scripts, run=subprocess.run):
    """The CIRCUITPY drive of `make uf2-cpy` with `bench` as bench.json, as a
    FAT image in `work`; returns its path."""
    tree = Path(work) / "drive"
    cpy_uf2.drive_tree(board, tree)
    (tree / "bench.json").write_text(json.dumps(bench) + "\n", encoding="utf-8")
    image = Path(work) / "drive.img"
    run([str(Path(scripts) / "mkfat.sh"), str(image), str(tree), str(cpy_out)], check=True,
        stdout=subprocess.DEVNULL)
    return image


def course_script(course):
    """chipbench's timeline for `course`, started USB_WAIT_MS after power-on."""
    return "wait %d\n" % USB_WAIT_MS + script_text(course)


def hil_command(hil, parts, board, image, script, out, max_ms, timeout_s=7200):
    """The harness's command line for one run on CircuitPython."""
    return ["node", str(hil), "--circuitpython", "--fw", str(parts["firmware"]),
            "--bootrom", str(parts["bootrom"]), "--rp2040js", str(parts["rp2040js"]),
            "--fs", str(image)] + WIRING[board] + [
        "--script", str(script), "--out", str(out), "--scale", str(SCALE),
        "--save-fs", str(Path(out) / "flash.img"), "--expect-ms", str(EXPECT_MS),
        "--max-emulated-ms", str(int(max_ms)), "--timeout", str(int(timeout_s))]


def parse_args(argv=None):
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m tools.cpy_chipbench",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", default="pico_ssd1306_i2c")
    ap.add_argument("--firmware", help="default build/cpy/BOARD/firmware.elf")
    ap.add_argument("--bootrom", required=True)
    ap.add_argument("--rp2040js", required=True)
    ap.add_argument("--cpy-out", required=True, help="the OUT of build-circuitpython.sh")
    ap.add_argument("--scripts", default=str(cpy_uf2.SCRIPTS), help="folder of mkfat.sh")
    ap.add_argument("--hil", default=str(HIL), help="a hil.mjs with --circuitpython")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--parts", default=",".join(PARTS_ALL))
    ap.add_argument("--slow", type=float, default=1.0, metavar="F")
    ap.add_argument("--no-heap", action="store_true")
    ap.add_argument("--keep", metavar="DIR")
    ap.add_argument("--json", action="store_true")
    return ap.parse_args(argv)


def main(argv=None):
    """Build the course, run it (timing and heap at once), print the table."""
    args = parse_args(argv)
    cpy_uf2.cpy_board(args.board)
    if args.board not in WIRING:
        raise SystemExit("the harness does not model %s" % args.board)
    firmware = Path(args.firmware or ROOT / "build" / "cpy" / args.board / "firmware.elf")
    if not firmware.is_file():
        raise SystemExit("%s is missing: make uf2-cpy BOARD=%s CPY_OUT=..." % (firmware,
                                                                               args.board))
    parts = {"firmware": firmware.resolve(), "bootrom": Path(args.bootrom).resolve(),
             "rp2040js": Path(args.rp2040js).resolve()}
    wanted = tuple(p for p in args.parts.split(",") if p)
    log = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    t0 = time.time()
    from simulator.host import board_profile

    profile = board_profile(args.board)
    course = build_course(args.board, args.seed, slow=args.slow, parts=wanted)
    courses = {"timing": course}
    runs = {"timing": {"seed": args.seed, "profile": True, "heap": False}}
    if not args.no_heap and "game" in wanted:
        runs["heap"] = {"seed": args.seed, "profile": False, "heap": True}
        courses["heap"] = build_course(args.board, args.seed, slow=args.slow, parts=PARTS_HEAP)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cpy-chipbench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        procs = {}
        for name, bench in runs.items():
            folder = work / name
            if folder.exists():
                shutil.rmtree(folder)
            folder.mkdir()
            image = drive_image(args.board, bench, folder, args.cpy_out, args.scripts)
            script = folder / "course.hil"
            script.write_text(course_script(courses[name]), encoding="utf-8")
            out = folder / "out"
            max_ms = USB_WAIT_MS + courses[name].total_ms() + EXPECT_MS + 60000
            cmd = hil_command(args.hil, parts, args.board, image, script, out, max_ms)
            out.mkdir()
            procs[name] = subprocess.Popen(cmd, stdout=open(out / "serial.txt", "w"),
                                           stderr=open(out / "hil.log", "w"))
            log("cpy_chipbench: %s run started: %d presses (%s)" % (
                name, len(courses[name].presses), out))
        codes = {name: p.wait() for name, p in procs.items()}
        timing = read_report(work / "timing" / "out")
        if timing is None:
            print("cpy_chipbench: the timing run wrote no report (exit %d)" % codes["timing"],
                  file=sys.stderr)
            return 1
        heap = read_report(work / "heap" / "out") if "heap" in runs else None
        res = analyse(course, timing, heap, work / "timing" / "out", profile.WIDTH,
                      profile.HEIGHT, heap_course=courses.get("heap"))
        res.update({"board": args.board, "freq": getattr(profile, "FREQ", None),
                    "seed": args.seed, "tree": str(ROOT), "frozen": True,
                    "wall_s": round(time.time() - t0, 1), "exit_codes": codes,
                    "usb_wait_ms": USB_WAIT_MS})
        res["title"] = ("cpy_chipbench %s, CircuitPython with the game frozen in, seed %d: "
                        "%d presses, %.0f s emulated, %.1f min wall") % (
            args.board, args.seed, len(course.presses), (res["emulated_ms"] or 0) / 1000,
            res["wall_s"] / 60)
        print(json.dumps(res, indent=1) if args.json else format_table(res))
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
