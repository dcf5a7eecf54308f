"""Build the optional firmware with the game frozen in (`make uf2-frozen`).

    python -m tools.frozen_uf2 --micropython DIR [--picotool DIR] [--out FILE] [--jobs N]

From a MicroPython checkout the user names (v1.28, with the rp2 port's
submodules), with the ARM toolchain and cmake from the system's packages:
builds mpy-cross, then ports/rp2 for RPI_PICO with FROZEN_MANIFEST set to
this repository's manifest.py (engine/, firmware/ and boards/ frozen in),
in a build folder of its own (build-RPI_PICO-frozen-game, so a stock build
in the same checkout stays as it is), and copies the UF2 to
build/frozen/firmware.uf2.

Frozen bytecode runs from flash: on the emulated Pico a game against the
Master with tips on keeps 64 KB of heap live instead of 188 KB
(docs/performance.md). The board then needs the tree of `make stage
FROZEN=1` copied with mpremote; `make flash` and `make uf2` stay on stock
MicroPython.
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "manifest.py"
BOARD = "RPI_PICO"
BUILD = "build-RPI_PICO-frozen-game"  # not the stock build-RPI_PICO: that one stays as it is
OUT = ROOT / "build" / "frozen" / "firmware.uf2"
APT = "apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake"
TOOLS = (  # (program, what it is)
    ("arm-none-eabi-gcc", "the ARM cross compiler"),
    ("cmake", "cmake"),
    ("make", "make"),
)


def problems(micropython, which=shutil.which):
    """What stops the build, each with how to fix it; [] when nothing does."""
    out = []
    for program, what in TOOLS:
        if which(program) is None:
            out.append("%s (%s) is not on PATH: on Debian or Ubuntu, %s" % (program, what, APT))
    if not micropython:
        out.append("no MicroPython checkout given: make uf2-frozen MICROPYTHON=DIR")
        return out
    checkout = Path(micropython)
    if not (checkout / "ports" / "rp2" / "Makefile").is_file():
        out.append("%s is not a MicroPython checkout (no ports/rp2/Makefile)" % checkout)
    elif not (checkout / "lib" / "pico-sdk" / "CMakeLists.txt").is_file():
        out.append("the rp2 port's submodules are missing in %s: run make -C %s BOARD=%s "
                   "submodules" % (checkout, checkout / "ports" / "rp2", BOARD))
    return out


def cached_manifest(micropython):
    """The manifest the build folder was configured with (its CMakeCache.txt),
    or None before the first build."""
    cache = Path(micropython).resolve() / "ports" / "rp2" / BUILD / "CMakeCache.txt"
    try:
        lines = cache.read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("MICROPY_FROZEN_MANIFEST:"):
            return line.split("=", 1)[1]
    return None


def commands(micropython, jobs=None, manifest=MANIFEST):
    """The command lines: mpy-cross, then the frozen RPI_PICO firmware.
    Nothing sets CMAKE_ARGS: on make's command line it would replace the
    port's own (the board, the manifest) instead of adding to them. The
    port's Makefile passes FROZEN_MANIFEST to cmake only when it configures
    a new build folder, so a folder configured from another tree (another
    checkout or worktree of this repository) is pointed at this one's
    manifest first: it would build that tree's game otherwise."""
    checkout = Path(micropython).resolve()
    parallel = ["-j%d" % jobs] if jobs else []
    rp2_dir = checkout / "ports" / "rp2"
    out = [["make", "-C", str(checkout / "mpy-cross")] + parallel]
    cached = cached_manifest(micropython)
    if cached is not None and cached != str(manifest):
        out.append(["cmake", "-S", str(rp2_dir), "-B", str(rp2_dir / BUILD),
                    "-DMICROPY_FROZEN_MANIFEST=" + str(manifest)])
    out.append(["make", "-C", str(rp2_dir), "BOARD=" + BOARD, "BUILD=" + BUILD,
                "FROZEN_MANIFEST=" + str(manifest)] + parallel)
    return out


def build_env(picotool=None, environ=None):
    """The builds' environment: `picotool_DIR` names an installed picotool
    (cmake's find_package reads it from the environment)."""
    env = dict(os.environ if environ is None else environ)
    if picotool:
        env["picotool_DIR"] = str(Path(picotool).resolve())
    return env


def built_uf2(micropython):
    """Where the rp2 build writes the UF2."""
    return Path(micropython).resolve() / "ports" / "rp2" / BUILD / "firmware.uf2"


def frozen_in(elf):
    """True when the firmware `elf` holds the game's frozen modules (their
    source names are in it)."""
    try:
        data = Path(elf).read_bytes()
    except OSError:
        return False
    return b"firmware/app.py" in data and b"engine/game.py" in data


def main(argv=None):
    """Check, build, copy; an exit status (2: something to fix first)."""
    ap = argparse.ArgumentParser(prog="python -m tools.frozen_uf2",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--micropython", default=os.environ.get("MICROPYTHON"),
                    help="the MicroPython checkout (v1.28, rp2 submodules in place)")
    ap.add_argument("--picotool", help="a folder holding picotoolConfig.cmake (an installed "
                    "picotool); without it the pico-sdk looks for one itself and may download "
                    "and build it")
    ap.add_argument("--out", default=str(OUT), help="where the UF2 goes (default %(default)s)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count(), help="parallel compile jobs")
    args = ap.parse_args(argv)
    found = problems(args.micropython)
    if found:
        print("uf2-frozen: cannot build yet:\n  " + "\n  ".join(found), file=sys.stderr)
        return 2
    env = build_env(args.picotool)
    for cmd in commands(args.micropython, args.jobs):
        print("uf2-frozen: " + " ".join(cmd), flush=True)
        if subprocess.run(cmd, env=env).returncode:
            print("uf2-frozen: the build failed (see above)", file=sys.stderr)
            return 1
    uf2 = built_uf2(args.micropython)
    if not uf2.is_file():
        print("uf2-frozen: the build wrote no %s" % uf2, file=sys.stderr)
        return 1
    if not frozen_in(uf2.with_suffix(".elf")):
        print("uf2-frozen: %s holds no frozen game (was the manifest left out?)" % uf2,
              file=sys.stderr)
        return 1
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(uf2, out)
    print("uf2-frozen: %s (%d KB), the game frozen in. Hold BOOTSEL, plug the board in and "
          "copy it onto RPI-RP2; then `make stage FROZEN=1` and copy build/stage/BOARD with "
          "mpremote (docs/handheld.md)." % (out, out.stat().st_size // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
