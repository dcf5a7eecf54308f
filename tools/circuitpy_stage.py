"""Stage the game for a CIRCUITPY drive (CircuitPython's USB drive).

    python -m tools.circuitpy_stage --board NAME --dest DIR [--mpy-cross PATH]

Writes into DIR (made empty first) what goes onto the drive:

    code.py, boot.py   circuitpy/code.py and circuitpy/boot.py: CircuitPython
                       runs /boot.py at power-on (the drive given to the game
                       for its saves unless B is held) and /code.py after it
    board.txt          the board name (boards/NAME.py, firmware.board)
    engine/ firmware/ circuitpy/ boards/   the modules, as sources, or as .mpy
                       when `--mpy-cross` names CircuitPython's own mpy-cross
                       (built in its checkout's mpy-cross/ folder: MicroPython's
                       .mpy files are refused by CircuitPython); firmware's
                       viper code (native.py), the framebuf display drivers and
                       the MicroPython boot (main.py, splash.py) stay out: the
                       CircuitPython host does not import them
    tables/            the strategy tables
    data/              the folder for the saves
    requirements.txt   the libraries, for `circup install -r requirements.txt`

Then: copy DIR's contents onto the CIRCUITPY drive and run circup (see
docs/handheld.md, "CircuitPython").
"""

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "firmware", "circuitpy")
# Modules of firmware/ for MicroPython only (viper, framebuf drivers, its boot),
# and the files of circuitpy/ that go to the drive's root instead.
LEFT_OUT = {"firmware/native.py", "firmware/display.py", "firmware/canvas.py",
            "firmware/main.py", "firmware/splash.py", "circuitpy/code.py",
            "circuitpy/boot.py", "circuitpy/requirements.txt"}
ROOT_FILES = {"code.py": "circuitpy/code.py", "boot.py": "circuitpy/boot.py",
              "requirements.txt": "circuitpy/requirements.txt"}


def modules(board):
    """The source files (paths relative to the repository) staged for `board`."""
    out = []
    for package in PACKAGES:
        for p in sorted((ROOT / package).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            if "__pycache__" not in p.parts and rel not in LEFT_OUT:
                out.append(rel)
    for name in ("__init__", board):
        out.append("boards/%s.py" % name)
    return out


def drive_files(board, dest, entry_points):
    """Write the drive's own files for `board` into `dest`: the
    `entry_points` ({name on the drive: source in the repository}),
    board.txt, the tables and the empty data/ folder; returns their names."""
    from tools.deploy import table_files

    names = []
    for name, rel in entry_points.items():
        shutil.copyfile(ROOT / rel, dest / name)
        names.append(name)
    (dest / "board.txt").write_text(board + "\n")
    names.append("board.txt")
    for table in table_files():
        rel = table.relative_to(ROOT)
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(table, dest / rel)
        names.append(rel.as_posix())
    (dest / "data").mkdir()
    return names


def stage(board, dest, mpy_cross=None, log=print):
    """Write the tree for `board` into `dest` (see the module docstring);
    returns the staged file names, relative to `dest`."""
    if not (ROOT / "boards" / (board + ".py")).exists():
        raise SystemExit("unknown board %r (boards/*.py)" % board)
    dest = Path(dest)
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    staged = []
    for rel in modules(board):
        src = ROOT / rel
        if mpy_cross:
            out = dest / Path(rel).with_suffix(".mpy")
            out.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run([str(mpy_cross), "-o", str(out), "-s", rel, str(src)], check=True)
        else:
            out = dest / rel
            out.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, out)
        staged.append(out.relative_to(dest).as_posix())
    staged.extend(drive_files(board, dest, ROOT_FILES))
    size = sum((dest / name).stat().st_size for name in staged)
    log("staged %d files, %d bytes, in %s" % (len(staged), size, dest))
    return staged


def main(argv=None):
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--board", default="pico_ssd1306_i2c")
    ap.add_argument("--dest", default=str(ROOT / "build" / "circuitpy"))
    ap.add_argument("--mpy-cross", help="CircuitPython's mpy-cross (else: sources)")
    args = ap.parse_args(argv)
    stage(args.board, args.dest, args.mpy_cross)
    return 0


if __name__ == "__main__":
    sys.exit(main())
