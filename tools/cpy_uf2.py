"""The game in CircuitPython's flash: one firmware and one CIRCUITPY drive per board.

    python -m tools.cpy_uf2 --board NAME --cpy-out DIR [--scripts DIR] [--dest DIR]
    make uf2-cpy BOARD=NAME CPY_OUT=DIR [CPY_SCRIPTS=DIR]

DIR is the OUT of ../shared/cpy/build-circuitpython.sh (its Debian 13
chroot with CircuitPython's sources at the pinned tag, 10.1.4); the build
runs through that script again (as root, with the MIRRORS it was given in
the environment; a second run only rebuilds). Writes build/cpy/NAME/:

    firmware.uf2, firmware.elf  CircuitPython for the board's CircuitPython
                 definition (CPY_BOARDS) with the game frozen in (engine/,
                 firmware/, circuitpy/, the boards of that definition, as
                 tools.circuitpy_stage picks them) and the display drivers
                 its boards need (adafruit_displayio_ssd1306 / _sh1106, copied
                 from the versions installed here), the modules a game does
                 not use turned off (OFF: without that the game does not fit
                 the firmware partition)
    drive.img    the CIRCUITPY drive (../shared/cpy/mkfat.sh, 1 MiB FAT12):
                 code.py, boot.py, board.txt, the strategy tables and data/
                 for the saves: nothing else, the code is in the firmware
    drive/       the same files, to copy onto a real board's CIRCUITPY

Boards sharing a CircuitPython definition (the three Pico boards) share one
firmware build (BUILD=build-zehntausend/DEFINITION in CircuitPython's port
folder, built from scratch when the frozen code changed);
board.txt on the drive picks the board. CircuitPython 10.1.4 has no
definition of the Thumby (tinycircuits_thumby came in 10.3): refused.
"""

import argparse
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tools import circuitpy_stage

ROOT = circuitpy_stage.ROOT
# The game's board -> CircuitPython's board definition (ports/raspberrypi/boards/).
CPY_BOARDS = {
    "pico_ssd1306_i2c": "raspberry_pi_pico",
    "pico_ssd1306_spi": "raspberry_pi_pico",
    "pico_sh1106_i2c": "raspberry_pi_pico",
    "macropad_rp2040": "adafruit_macropad_rp2040",
}
# CircuitPython modules the game does not use, turned off for room in the
# 1020 KB firmware partition (ulab 114 KB, audiomp3 55 KB, ...).
OFF = ("ULAB", "AUDIOMP3", "QRIO", "JPEGIO", "GIFIO", "RGBMATRIX", "AESIO", "BITMAPFILTER",
       "_EVE", "PICODVI", "IMAGECAPTURE", "FLOPPYIO", "BLEIO_HCI")
DRIVERS = {"ssd1306": "adafruit_displayio_ssd1306", "sh1106": "adafruit_displayio_sh1106"}
BUILD = "build-zehntausend"
PORT = "/src/circuitpython/ports/raspberrypi"  # inside the chroot
# ../shared/cpy beside the checkout (or beside the folder of worktrees it is in)
SCRIPTS = next((p for p in (ROOT.parent / "shared" / "cpy", ROOT.parent.parent / "shared" / "cpy")
                if p.is_dir()), ROOT.parent / "shared" / "cpy")


def cpy_board(board):
    """CircuitPython's definition for the game's `board`; SystemExit with the
    reason when there is none."""
    if not (ROOT / "boards" / (board + ".py")).exists():
        raise SystemExit("unknown board %r (boards/*.py)" % board)
    if board not in CPY_BOARDS:
        raise SystemExit("board %r: CircuitPython 10.1.4 has no definition of it "
                         "(known: %s)" % (board, ", ".join(sorted(CPY_BOARDS))))
    return CPY_BOARDS[board]


def siblings(board):
    """The game's boards built on the same CircuitPython definition as `board`."""
    target = cpy_board(board)
    return sorted(b for b, c in CPY_BOARDS.items() if c == target)


def drivers(boards):
    """The display driver modules the `boards` need."""
    from firmware.board import load_board

    return sorted({DRIVERS[load_board(b).DISPLAY] for b in boards})


def freeze_tree(board, dest, driver_source=None):
    """Write what is frozen into the firmware for `board` into `dest` (made
    empty first): the game's modules for every board of its definition and
    the display drivers, each driver without its `__version__` line (the
    freeze step would run `git describe` for it). `driver_source(name)`
    gives a driver's source file (default: the installed module's).
    Returns the file names, relative to `dest`."""
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    boards = siblings(board)
    files = []
    for b in boards:
        files.extend(f for f in circuitpy_stage.modules(b) if f not in files)
    for rel in files:
        out = dest / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / rel, out)
    for name in drivers(boards):
        src = Path(driver_source(name) if driver_source else _installed(name))
        lines = src.read_text(encoding="utf-8").splitlines(keepends=True)
        (dest / (name + ".py")).write_text(
            "".join(line for line in lines if not line.startswith("__version__")),
            encoding="utf-8")
        files.append(name + ".py")
    return files


def _installed(name):
    """The source file of the installed module `name`."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        raise SystemExit("%s is not installed (pip install adafruit-circuitpython-%s)"
                         % (name, name.split("_")[-1]))
    return spec.origin


def drive_tree(board, dest):
    """Write the CIRCUITPY drive's files for `board` into `dest` (made empty
    first): code.py, boot.py, board.txt, the tables, data/. Returns the
    file names, relative to `dest`."""
    cpy_board(board)
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    return circuitpy_stage.drive_files(
        board, dest, {name: circuitpy_stage.ROOT_FILES[name] for name in ("code.py", "boot.py")})


def make_args(board, frozen):
    """The arguments build-circuitpython.sh hands to make for `board`, the
    game frozen from `frozen` (a path inside the chroot)."""
    return (["BOARD=" + cpy_board(board), "BUILD=%s/%s" % (BUILD, cpy_board(board)),
             "FROZEN_MPY_DIRS=" + frozen] + ["CIRCUITPY_%s=0" % m for m in OFF])


def digest(folder, files):
    """A hash of the `files` in `folder` (names and contents)."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + (Path(folder) / name).read_bytes() + b"\0")
    return h.hexdigest()


def _fresh_build(built, stamp, log):
    """Remove the build folder `built` when what it froze differs from
    `stamp`: CircuitPython's Makefile asks for a build from scratch when the
    frozen modules change (py/circuitpy_defns.mk: their names go into the
    firmware's qstr pool, which make does not regenerate for them)."""
    mark = built / "zehntausend-frozen.sha256"
    if built.is_dir() and (not mark.is_file() or mark.read_text() != stamp):
        log("frozen code changed: building %s from scratch" % built)
        shutil.rmtree(built)
    built.mkdir(parents=True, exist_ok=True)
    mark.write_text(stamp)


def build(board, cpy_out, scripts=SCRIPTS, dest=None, run=subprocess.run, log=print):
    """Freeze, build and copy the firmware for `board`, and make its drive
    (see the module docstring); returns the folder written."""
    cpy_out = Path(cpy_out).resolve()
    scripts = Path(scripts)
    dest = Path(dest) if dest else ROOT / "build" / "cpy" / board
    if not (cpy_out / "root" / PORT.lstrip("/")).is_dir():
        raise SystemExit("%s holds no CircuitPython checkout: run "
                         "%s/build-circuitpython.sh %s first" % (cpy_out, scripts, cpy_out))
    inside = "/w/zehntausend/%s/freeze" % cpy_board(board)
    frozen = cpy_out / "root" / inside.lstrip("/")
    files = freeze_tree(board, frozen)
    log("frozen: %d files for %s" % (len(files), ", ".join(siblings(board))))
    built = cpy_out / "root" / PORT.lstrip("/") / BUILD / cpy_board(board)
    _fresh_build(built, digest(frozen, files), log)
    if not os.environ.get("MIRRORS"):
        raise SystemExit("set MIRRORS to the folder of git mirrors build-circuitpython.sh was "
                         "given (it reads the CircuitPython mirror on every run)")
    run([str(scripts / "build-circuitpython.sh"), str(cpy_out)] + make_args(board, inside),
        check=True)
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("firmware.uf2", "firmware.elf"):
        shutil.copyfile(built / name, dest / name)
    tree = dest / "drive"
    drive_tree(board, tree)
    run([str(scripts / "mkfat.sh"), str(dest / "drive.img"), str(tree), str(cpy_out)], check=True)
    log("%s: firmware.uf2 (%d bytes), firmware.elf, drive.img, drive/"
        % (dest, (dest / "firmware.uf2").stat().st_size))
    return dest


def main(argv=None):
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", default="pico_ssd1306_i2c")
    ap.add_argument("--cpy-out", required=True, help="the OUT of build-circuitpython.sh")
    ap.add_argument("--scripts", default=str(SCRIPTS), help="folder of build-circuitpython.sh")
    ap.add_argument("--dest", help="default build/cpy/BOARD")
    args = ap.parse_args(argv)
    build(args.board, args.cpy_out, args.scripts, args.dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
