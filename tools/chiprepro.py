"""Replay a chip repro folder on this tree's game (`make chiprepro REPRO=DIR`).

    python -m tools.chiprepro REPRO_DIR [--board NAME] [--keep DIR]
        [--timeout S] [--on-reset exit|hang] [--as-is]
        --firmware firmware.elf --bootrom bootrom.mjs --rp2040js node_modules

A repro folder (like the team's shared repro/chip-repl-after-cut) holds
`flash-before-boot.img`, the board's littlefs area as a run left it (an
older tree's game on it, and its /data: saves, statistics, the error
log), and `timeline.hil`, the harness script of the part that failed.

What it does:

1. Stages this tree's game for the board (tools.chipbench.stage_tree, as
   `make stage`); the board is the image's /board.txt unless --board says.
2. Updates the image's game as `make flash` updates a board
   (tools.deploy.plan): every staged file that differs is written, the
   stale files of the game's own folders are removed, and /data is left
   exactly as it was (`overlay`).
3. Boots that flash in the emulated Pico with the harness
   (tools/hil/hil.mjs, the board's wiring as chipbench has it) and plays
   the timeline; the flash is saved at the end of the run.
4. Prints a verdict (`verdict`): the harness's exit status and why the run
   ended, the emulated time reached against the timeline's length, Python
   tracebacks on the serial console, whether the REPL prompt showed
   (`main_ended_ms`), and what /data/error.log holds after the run (read
   from the saved flash), with the entries the run added.

It passes (exit 0) only when the run played the whole timeline (its
end: the script done, or the power cut of its last line), the
serial console shows no traceback, the REPL prompt never showed, and the
run added nothing to the error log (a failure the supervisor caught, a
last-resort or watchdog reset). A chip reset ends the run (`--on-reset
exit`, the default), so the rest of the timeline is not played: that
fails too.

`--as-is` skips steps 1 and 2: the image's own game runs, to check that
the repro still shows its failure on this firmware and harness.
"""

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path

from tools.chipbench import (
    DEFAULT_BOARD,
    TRACEBACK,
    WIRING,
    add_part_args,
    error_logs,
    hil_command,
    mount_image,
    ready_parts,
    run_hil,
    stage_tree,
)

IMAGE = "flash-before-boot.img"
TIMELINE = "timeline.hil"
BLOCK_SIZE = 4096  # the RPI_PICO littlefs geometry (tools.chipbench.stage.pack_image)
PROG_SIZE = 256
DATA = "data"  # the saves: never touched by the overlay
MARGIN_MS = 10000  # emulated time allowed past the timeline's end


def _mount(data):
    """A LittleFS mounted on the bytes of an image (RPI_PICO geometry)."""
    return mount_image(data, BLOCK_SIZE, PROG_SIZE)


def image_files(fs):
    """{path: bytes} of every file in a mounted image (paths without the
    leading slash, as in deploy.json)."""
    out = {}
    for root, _dirs, files in fs.walk("/"):
        for name in files:
            path = (root.rstrip("/") + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                out[path] = f.read()
    return out


def _in_data(path):
    return path == DATA or path.startswith(DATA + "/")


def overlay(image_bytes, tree):
    """The image with the staged `tree` (holding deploy.json) written over
    its game as `make flash` would (tools.deploy.plan) and /data kept;
    returns (new image bytes, paths written, paths removed)."""
    from tools import deploy

    tree = Path(tree)
    manifest = json.loads((tree / deploy.MANIFEST).read_text(encoding="utf-8"))
    fs = _mount(image_bytes)
    have = image_files(fs)
    remote = {p: (len(d), hashlib.sha256(d).hexdigest()) for p, d in have.items()}
    copy, delete = deploy.plan(manifest, remote)
    copy = [p for p in copy if not _in_data(p)]
    delete = [p for p in delete if not _in_data(p)]
    for path in delete:
        fs.remove(path)
    for path in copy + [deploy.MANIFEST]:
        parent = path.rpartition("/")[0]
        if parent:
            fs.makedirs(parent, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write((tree / path).read_bytes())
    return bytes(fs.context.buffer), copy, delete


def read_error_log(image_bytes):
    """error.log.1 then error.log of /data in an image, joined ("" when
    there is none); None when the image does not mount."""
    return error_logs(image_bytes)


def timeline_ms(text):
    """The emulated ms a harness script takes (waits and presses; holds,
    releases and shots take none)."""
    ms = 0
    for line in text.splitlines():
        words = line.split("#", 1)[0].split()
        if words and words[0] == "wait":
            ms += int(words[1])
        elif words and words[0] == "press":
            ms += int(words[2]) if len(words) > 2 else 100
    return ms


def ends_in_cut(text):
    """Whether a harness script's last action is a power cut."""
    actions = [w for w in (line.split("#", 1)[0].split() for line in text.splitlines()) if w]
    return bool(actions) and actions[-1][0] in ("poweroff", "cut")


def verdict(report, serial, code, log_before, log_after, script_ms, end_wanted="script-done"):
    """(passed, lines): the verdict on one run from its report dict (None
    when the harness wrote none), serial text, exit code, and the error log
    text before and after it (None: the saved flash did not mount);
    `end_wanted` is how the timeline ends (script-done, or power-cut when
    its last line cuts the power)."""
    from tools.chipsoak import log_entries, new_entries

    lines, ok = [], True
    if report is None:
        return False, ["harness: exit %s and no report.json: the run did not finish" % code]
    end = report.get("end_reason")
    reached = report.get("emulated_ms") or 0
    good_end = code == 0 and end == end_wanted
    ok &= good_end
    lines.append("harness: exit %s, end %s%s" % (code, end, "" if good_end else "  FAIL"))
    full = reached >= script_ms
    ok &= full
    lines.append("emulated time reached: %.1f s of the timeline's %.1f s%s" % (
        reached / 1000, script_ms / 1000, "" if full else "  FAIL (not played to its end)"))
    tracebacks = max(report.get("python_tracebacks") or 0, serial.count(TRACEBACK))
    ok &= not tracebacks
    lines.append("Python tracebacks on the serial console: %d%s" % (
        tracebacks, "  FAIL" if tracebacks else ""))
    repl = report.get("main_ended_ms")
    ok &= repl is None
    lines.append("REPL prompt: " + ("never shown" if repl is None else
                                    "shown at %.1f ms (main.py ended)  FAIL" % repl))
    if log_after is None:
        ok = False
        lines.append("/data/error.log: the saved flash does not mount  FAIL")
    else:
        fresh = new_entries(log_entries(log_before or ""), log_entries(log_after))
        ok &= not fresh
        lines.append("/data/error.log after the run: %s; %d entr%s added by the run%s" % (
            "%d bytes" % len(log_after) if log_after else "none",
            len(fresh), "y" if len(fresh) == 1 else "ies", "  FAIL" if fresh else ""))
        for ms, kind, tb in fresh:
            lines.append("  --- %d ms %s" % (ms, kind))
            lines.extend("  " + row for row in tb.splitlines())
    if serial.count(TRACEBACK):
        first = serial.index(TRACEBACK)
        start = serial.rfind("\n", 0, first) + 1
        lines.append("first traceback on the serial console:")
        lines.extend("  " + row for row in serial[start:].splitlines()[:12])
    lines.append("verdict: " + ("PASS" if ok else "FAIL"))
    return ok, lines


def board_of(image_bytes):
    """The board named in the image's /board.txt, or None."""
    try:
        with _mount(image_bytes).open("board.txt", "rb") as f:
            return f.read().decode().strip() or None
    except Exception:
        return None


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Replay a chip repro folder (%s, %s) on this "
                                 "tree's game in the emulated Pico." % (IMAGE, TIMELINE))
    ap.add_argument("repro", help="the repro folder")
    ap.add_argument("--board", help="the board (default: the image's board.txt, else %s)" % (
        DEFAULT_BOARD))
    ap.add_argument("--keep", metavar="DIR", help="keep the tree, image and run output there")
    ap.add_argument("--timeout", type=int, default=3600, help="wall seconds (default 3600)")
    ap.add_argument("--on-reset", choices=("exit", "hang"), default="exit",
                    help="a chip reset ends the run (exit, default) or stops the chip (hang)")
    ap.add_argument("--as-is", action="store_true",
                    help="run the image's own game (no staging): does the repro still fail?")
    add_part_args(ap)
    return ap.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    repro = Path(args.repro)
    for name in (IMAGE, TIMELINE):
        if not (repro / name).is_file():
            print("chiprepro: %s has no %s" % (repro, name), file=sys.stderr)
            return 2
    image = (repro / IMAGE).read_bytes()
    script = (repro / TIMELINE).read_text(encoding="utf-8")
    board = args.board or board_of(image) or DEFAULT_BOARD
    if board not in WIRING:
        print("chiprepro: unknown board %r; the harness models %s" % (
            board, ", ".join(WIRING)), file=sys.stderr)
        return 2
    parts = ready_parts(args)
    if parts is None:
        return 2
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="chiprepro-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        flash = work / "flash-start.img"
        if args.as_is:
            flash.write_bytes(image)
            print("chiprepro: %s on %s: the image's own game (--as-is)" % (repro, board),
                  flush=True)
        else:
            tree = work / "stage"
            stage_tree(board, tree)
            new_image, copied, removed = overlay(image, tree)
            flash.write_bytes(new_image)
            print("chiprepro: %s on %s: %d files written over the image's, %d removed, "
                  "/data kept" % (repro, board, len(copied), len(removed)), flush=True)
        out = work / "run"
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        script_ms = timeline_ms(script)
        cmd = hil_command(parts, board, flash, repro / TIMELINE, out, script_ms + MARGIN_MS,
                          args.timeout) + ["--on-reset", args.on_reset]
        print("chiprepro: " + " ".join(cmd), flush=True)
        code, report, serial = run_hil(cmd, out)
        saved = out / "flash.img"
        after = read_error_log(saved.read_bytes()) if saved.exists() else None
        ok, lines = verdict(report, serial, code, read_error_log(image), after, script_ms,
                            "power-cut" if ends_in_cut(script) else "script-done")
        print("\n".join(lines))
        if args.keep:
            print("chiprepro: the run's output is in %s" % out)
        return 0 if ok else 1
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
