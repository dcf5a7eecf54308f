"""Power cuts inside a save on CircuitPython's FAT drive (the image of `make uf2-cpy`).

    python -m tools.cpy_cutsave --cpy-out DIR --bootrom bootrom.mjs --rp2040js node_modules
        --hil hil.mjs [--board NAME] [--presses 12] [--fraction 0.5] [--keep DIR]

CircuitPython's drive is FAT (no journal) and its RP2040 flash layer
writes a 512-byte sector by erasing and programming the whole 4 KB flash
sector around it, so a cut can hit more than the file being written. This
plays the start of chipbench's game against the Master (seeded dice, as
tools.cpy_chipbench) for `--presses` presses with real flash timings
(`--flash-busy 45,0.5`), finds the flash operations of the last save
burst in that run (erases and programs less than GAP_MS apart), then for
each of them runs the same presses again with the power cut in that
operation (`--cut-flash-op N:F`), and on the flash left:

- reads /data of the drive (mtools in the chroot of build-circuitpython.sh):
  does the FAT still mount, does the game's save load (firmware.store, as
  the device loads it: main copy, a `.new` a cut left, or the `.bak`);
- boots the chip from it: does the game come up on the panel again.

Prints one line per cut and a summary; exit 0 when no cut lost the game.
"""

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from tools import cpy_uf2
from tools.chipbench.course import PARTS_HEAP, SEED, build_course
from tools.chipbench.harness import WIRING, read_report
from tools.cpy_chipbench import USB_WAIT_MS, course_script, drive_image

GAP_MS = 300  # flash operations closer than this belong to one save burst
BUSY = "45,0.5"  # a W25Q16JV's typical erase (4 KB) and program (256 B) times, ms


def cut_script(course, presses, tail_ms=3000):
    """The course's timeline up to and including its `presses`-th press, then `tail_ms`."""
    out, seen = [], 0
    for line in course_script(course).splitlines():
        if line.startswith("press "):
            if seen == presses:
                break
            seen += 1
        out.append(line)
    out.append("wait %d" % tail_ms)
    return "\n".join(out) + "\n"


def last_burst(ops, gap_ms=GAP_MS, after_ms=0):
    """The flash operations (harness `flash.ops`) of the last burst after
    `after_ms` (CircuitPython writes the drive itself at boot): the
    trailing ones each less than `gap_ms` after the one before."""
    burst = []
    for op in ops:
        if op["at_ms"] < after_ms:
            continue
        if burst and op["at_ms"] - burst[-1]["at_ms"] >= gap_ms:
            burst = []
        burst.append(op)
    return burst


def read_data(image, cpy_out, run=subprocess.run):
    """The files of /data on the FAT image `image` ({name: bytes}), or None
    when the drive does not mount (mtools in the chroot of `cpy_out`)."""
    root = Path(cpy_out).resolve() / "root"
    work = Path(tempfile.mkdtemp(dir=root / "tmp"))
    try:
        shutil.copyfile(image, work / "d.img")
        inside = "/" + work.relative_to(root).as_posix()
        cmd = ("cd %s && mkdir out && MTOOLS_SKIP_CHECK=1 mdir -i d.img ::/ >/dev/null && "
               "(MTOOLS_SKIP_CHECK=1 mcopy -s -n -i d.img ::/data out/ 2>/dev/null || true)"
               % inside)
        done = run(["chroot", str(root), "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "sh", "-c",
                    cmd], capture_output=True)
        if done.returncode != 0:
            return None
        data = work / "out" / "data"
        return {p.name: p.read_bytes() for p in data.iterdir()} if data.is_dir() else {}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def load_game(files):
    """(game value or None, note): the game save as the device loads it from `files`."""
    from firmware.files import GAME, KIND_GAME
    from firmware.store import NoSave, SaveDamaged, Store
    from tools.fakes.memfs import MemFS

    fs = MemFS()
    for name, blob in files.items():
        fs.write(name, blob)
    try:
        return Store(fs).load(GAME, KIND_GAME)
    except NoSave:
        return None, "no save"
    except SaveDamaged as e:
        return None, "damaged: %s" % e.reason


def hil(args, image, script, out, extra=()):
    """One harness run on the drive `image`; its report (or None)."""
    firmware = args.firmware or cpy_uf2.ROOT / "build" / "cpy" / args.board / "firmware.elf"
    Path(out).mkdir(parents=True, exist_ok=True)
    cmd = ["node", args.hil, "--circuitpython", "--fw", str(firmware), "--bootrom", args.bootrom,
           "--rp2040js", args.rp2040js, "--fs", str(image)] + WIRING[args.board] + [
        "--script", str(script), "--out", str(out), "--save-fs", str(Path(out) / "flash.img"),
        "--flash-busy", BUSY, "--max-emulated-ms", "600000", "--timeout", "3600"] + list(extra)
    with open(Path(out) / "serial.txt", "w") as so, open(Path(out) / "hil.log", "w") as se:
        subprocess.call(cmd, stdout=so, stderr=se)
    return read_report(out)


def boots(args, image, out):
    """Whether the chip, powered on with flash `image`, shows the game again:
    frames on the panel and no traceback within 6 s."""
    script = Path(out) / "boot.hil"
    Path(out).mkdir(parents=True, exist_ok=True)
    script.write_text("wait 6000\nshot again\n")
    report = hil(args, image, script, out)
    if report is None:
        return False, "no report"
    shot = report["shots"][0]
    ok = report["display"]["frames"] > 0 and shot["lit_pixels"] > 0 and \
        not report.get("python_tracebacks")
    return ok, "%d frames, %d lit, tracebacks %s" % (
        report["display"]["frames"], shot["lit_pixels"], report.get("python_tracebacks"))


def main(argv=None):
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(prog="python -m tools.cpy_cutsave",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", default="pico_ssd1306_i2c")
    ap.add_argument("--firmware")
    ap.add_argument("--bootrom", required=True)
    ap.add_argument("--rp2040js", required=True)
    ap.add_argument("--hil", required=True, help="a hil.mjs with --circuitpython")
    ap.add_argument("--cpy-out", required=True)
    ap.add_argument("--scripts", default=str(cpy_uf2.SCRIPTS))
    ap.add_argument("--presses", type=int, default=30)
    ap.add_argument("--fraction", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--keep")
    args = ap.parse_args(argv)
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cpy-cutsave-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        course = build_course(args.board, args.seed, parts=PARTS_HEAP)
        image = drive_image(args.board, {"seed": args.seed}, work, args.cpy_out, args.scripts)
        script = work / "cut.hil"
        script.write_text(cut_script(course, args.presses))
        whole = hil(args, image, script, work / "whole")
        if whole is None:
            raise SystemExit("the uncut run wrote no report (%s)" % (work / "whole"))
        first = whole["presses"][0]["down_ms"] if whole.get("presses") else 0
        burst = last_burst(whole["flash"]["ops"], after_ms=first)
        if not burst:
            raise SystemExit("no flash operation after the first press in the uncut run: "
                             "more --presses")
        before, _ = load_game(read_data(work / "whole" / "flash.img", args.cpy_out) or {})
        print("cpy_cutsave: %s, %d presses (course starts %d ms after power-on): last save "
              "burst = flash ops %d..%d at %.0f..%.0f ms; the game saved at the end: %s" % (
                  args.board, args.presses, USB_WAIT_MS, burst[0]["n"], burst[-1]["n"],
                  burst[0]["at_ms"], burst[-1]["at_ms"], "yes" if before else "no"))
        lost = 0
        rows = []
        for op in burst:
            out = work / ("cut-%d" % op["n"])
            rep = hil(args, image, script, out,
                      ["--cut-flash-op", "%d:%s" % (op["n"], args.fraction)])
            files = read_data(out / "flash.img", args.cpy_out)
            if files is None:
                game, note = None, "the FAT does not mount"
            else:
                game, note = load_game(files)
            up, how = boots(args, out / "flash.img", work / ("boot-%d" % op["n"]))
            ok = game is not None and up
            lost += not ok
            rows.append({"op": op["n"], "kind": op["op"], "offset": op["offset"],
                         "cut": (rep or {}).get("power_cut"), "files": sorted(files or ()),
                         "game": game is not None, "note": note, "boots": up, "boot": how})
            print("  op %d (%s at %s): game %s%s; boot: %s" % (
                op["n"], op["op"], op["offset"], "loads" if game is not None else "LOST",
                " (%s)" % note if note else "", how))
        (work / "cuts.json").write_text(json.dumps(rows, indent=1))
        print("cpy_cutsave: %d of %d cuts lost the game" % (lost, len(burst)))
        return 1 if lost else 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
