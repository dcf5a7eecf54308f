"""Build CircuitPython's Unix port from a checkout; run tests/both and a game under it.

    python -m tools.cpy_unix --checkout DIR [--heap auto|SIZE] [--jobs 1]
        [--no-build] [--no-tests] [--no-game] [--modules] [--frozen] [--text] [FILE ...]
    make cpy-unix CPY_DIR=DIR [CPY_UNIX_ARGS=...]

DIR is a clone of adafruit/circuitpython with the submodules its Unix port
needs (SUBMODULES; the tool names the `git submodule update` command when
one is empty). The tool

1. builds CircuitPython's mpy-cross and the Unix port's `coverage` variant
   (the one with `displayio.Bitmap`, `bitmaptools` and CircuitPython's
   error messages) with `make -j JOBS` (default 1: the machine is shared);
   make keeps what it built, so a second run only checks;
2. compiles the game's packages with that mpy-cross into a temporary
   folder, as `make stage-cpy` does for a CIRCUITPY drive: the modules
   with viper or native code (firmware/native.py) stay out, because
   CircuitPython on the RP2040 loads no native code
   (CIRCUITPY_ENABLE_MPY_NATIVE is 0); importing them fails as on the chip;
3. runs every tests/both module (or FILE ...) in its own capped process
   with tests/mprun.py (tools/mptest.py's runner), printing each module's
   result and, for a failing one, the first error it raised;
4. plays a whole game against the Master with tips on
   (tools/mp/cpy_game.py) on the CircuitPython canvas under the same cap
   and prints its live heap: the largest after a collection, and the
   margin left, also as an estimate in the chip's bytes;
5. with `--modules`, prints what each module costs on the port's heap,
   imported in the CircuitPython device's order (tools/chipheap.py's probe
   and table, CPY_BOOT then firmware.app.WARM);
6. with `--frozen`, builds the port a second time (BUILD=build-frozen-game,
   beside the first) with the game frozen in (the tree `make stage-cpy`
   stages, listed in a manifest after the variant's own) and plays the
   game again on it: what a CircuitPython firmware with the game in its
   flash would keep live;
7. with `--text`, what text costs: the game's renderer (firmware.font into
   the frame's Bitmap) against glyph Bitmaps blitted by bitmaptools as
   adafruit_display_text's bitmap_label draws (tools/mp/text_cost.py), and
   the size of that library and adafruit_bitmap_font as CircuitPython .mpy
   files (from the copies installed for the tests).

The heap cap (`--heap auto`, the default) stands for what CircuitPython
leaves free on a Pico: 171,440 B at the start of code.py (gc.mem_free()
under CircuitPython 10.1.4, CHIP_FREE). The port is 64-bit: the same
objects take about 1.35x the bytes they take on the 32-bit RP2040
(RATIO_64, measured for MicroPython with one tree on both: see the
Makefile's MP_HEAP). `auto` measures what the port itself keeps at start
(a probe under a large heap) and sets the cap so that its free heap at
start is CHIP_FREE x RATIO_64.

Exit status: 0 when every module passed and the game ended, 1 otherwise,
2 when the checkout or the build is not usable.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tools import chipheap
from tools.mptest import NATIVE_MARKS, run_module

ROOT = Path(__file__).resolve().parent.parent
# The submodules the Unix port's coverage variant compiles or freezes from,
# and the compressor of its messages (tools/huffman).
SUBMODULES = ("lib/mp3", "lib/quirc", "lib/adafruit_floppy", "lib/micropython-lib",
              "tools/huffman")
VARIANT = "coverage"
CHIP_FREE = 171440  # gc.mem_free() at the start on a Pico, CircuitPython 10.1.4
RATIO_64 = 1.35  # bytes on the 64-bit Unix port per byte on the RP2040
SPARE = 30 * 1024  # the margin a whole game must leave at its peak, on the chip
PACKAGES = ("engine", "firmware", "boards", "circuitpy")
NOT_MODULES = {"circuitpy/code.py", "circuitpy/boot.py"}  # the drive's entry points
# The game run's own modules (tools/mp/cpy_game.py), compiled into a folder
# of their own: the tests import the rest of tools/ from the sources.
HARNESS = ("tools/__init__.py", "tools/mp/__init__.py", "tools/mp/app_run.py",
           "tools/mp/scripted_player.py", "tools/fakes/__init__.py", "tools/fakes/memfs.py")
BIG_HEAP = "2048k"  # the game again without the cap, when it failed under it
ERROR = re.compile(r"^(\w*(?:Error|Exception)\b.*)$", re.M)
PROBE = "import gc; gc.collect(); print(gc.mem_alloc(), gc.mem_free())"


def check_checkout(checkout):
    """Raise SystemExit(2) with the command to run when `checkout` is not a
    CircuitPython tree with SUBMODULES filled in."""
    top = Path(checkout)
    if not (top / "ports" / "unix" / "Makefile").exists() or not (
            top / "shared-bindings").is_dir():
        raise SystemExit("%s is not a CircuitPython checkout (no ports/unix, "
                         "shared-bindings)" % top)
    empty = [s for s in SUBMODULES if not (top / s).is_dir() or not any((top / s).iterdir())]
    if empty:
        print("empty submodules in %s: %s\nrun: git -C %s submodule update --init %s"
              % (top, " ".join(empty), top, " ".join(empty)))
        raise SystemExit(2)


def build(checkout, jobs, log=print, frozen=False):
    """Build mpy-cross and the Unix port's coverage variant; return the
    paths of (micropython, mpy-cross). With `frozen`: the variant with the
    game frozen in, in build-frozen-game (see the module docstring)."""
    top = Path(checkout).resolve()
    build_dir = "build-" + VARIANT
    extra = ["VARIANT=" + VARIANT]
    if frozen:
        build_dir = "build-frozen-game"
        extra += ["BUILD=" + build_dir, "FROZEN_MANIFEST=" + str(stage_frozen(top / "ports" /
                                                                             "unix" / build_dir))]
    for where, args in ((top / "mpy-cross", []), (top / "ports" / "unix", extra)):
        cmd = ["make", "-C", str(where), "-j%d" % jobs] + args
        log("building: " + " ".join(cmd))
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode:
            print((proc.stdout + proc.stderr)[-4000:])
            raise SystemExit("the build failed (%s)" % " ".join(cmd))
    mp = top / "ports" / "unix" / build_dir / "micropython"
    cross = top / "mpy-cross" / "build" / "mpy-cross"
    if not cross.exists():
        cross = top / "mpy-cross" / "mpy-cross"
    for path in (mp, cross):
        if not path.exists():
            raise SystemExit("the build made no %s" % path)
    return mp, cross


MANIFEST = """\
# The coverage variant's own frozen modules, then the game as staged for a
# CIRCUITPY drive (tools/circuitpy_stage.py), written by tools/cpy_unix.py.
include("$(PORT_DIR)/variants/%s/manifest.py")
""" % VARIANT


def stage_frozen(build_dir):
    """Stage the game's tree in `build_dir`/game and write the manifest that
    freezes it; returns the manifest's path. The manifest is rewritten only
    when it changes (make then rebuilds the frozen modules as needed)."""
    from tools.circuitpy_stage import stage

    game = Path(build_dir) / "game"
    build_dir.mkdir(parents=True, exist_ok=True)
    stage("pico_ssd1306_i2c", game, log=lambda *_: None)
    text = MANIFEST + "".join('package("%s", base_path="%s")\n' % (p, game)
                              for p in ("engine", "firmware", "circuitpy", "boards"))
    manifest = Path(build_dir) / "manifest.py"
    if not manifest.exists() or manifest.read_text() != text:
        manifest.write_text(text)
    return manifest


def compile_files(cross, rels, dest):
    """Compile the files `rels` (relative to the repository) into `dest`."""
    for rel in rels:
        out = Path(dest) / Path(rel).with_suffix(".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([str(cross), "-o", str(out), "-s", rel, str(ROOT / rel)], check=True)


def compile_packages(cross, dest):
    """Compile the game's packages into `dest` with CircuitPython's mpy-cross;
    returns the modules left out (native code)."""
    left_out = []
    rels = []
    for package in PACKAGES:
        for src in sorted((ROOT / package).rglob("*.py")):
            rel = src.relative_to(ROOT).as_posix()
            if "__pycache__" in src.parts or rel in NOT_MODULES:
                continue
            text = src.read_text(encoding="utf-8")
            if any(mark in text for mark in NATIVE_MARKS):
                left_out.append(rel)
            else:
                rels.append(rel)
    compile_files(cross, rels, dest)
    return left_out


def start_heap(mp, heap):
    """(alloc, free) of the port's heap at the start of a script, under `heap`."""
    out = subprocess.run([str(mp), "-X", "heapsize=" + heap, "-c", PROBE], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout.split()
    return int(out[0]), int(out[1])


def auto_heap(mp):
    """The heap cap whose free heap at start is CHIP_FREE x RATIO_64 (see the
    module docstring), as a heapsize argument in bytes."""
    alloc, _ = start_heap(mp, "1024k")
    want = int(CHIP_FREE * RATIO_64)
    cap = want + alloc
    # The port's heap also keeps its allocation table out of the cap: probe
    # once and correct by what the free heap came to.
    _, free = start_heap(mp, str(cap))
    cap += want - free
    return str(cap)


def first_error(output):
    """The first exception line of a module's output ('' if none)."""
    m = ERROR.search(output)
    return m.group(1) if m else ""


def run_tests(mp, heap, files, mpy_dir):
    """Run the modules; print each one's result; return (passed modules,
    failed modules, tests passed, tests failed)."""
    good = []
    bad = []
    tests_passed = tests_failed = 0
    for path in files:
        passed, failed, ok, output = run_module(str(mp), heap, path, mpy_dir)
        tests_passed += passed
        tests_failed += failed
        if ok:
            good.append(path)
            print("pass %s: %d tests" % (path, passed))
        else:
            bad.append(path)
            print("FAIL %s: %d passed, %d failed: %s" % (path, passed, failed,
                                                           first_error(output)))
    return good, bad, tests_passed, tests_failed


# The CircuitPython device's boot order (circuitpy/code.py, circuitpy.host,
# firmware.device, the first frame); then the game path as for chipheap.
CPY_BOOT = ("firmware.board", "boards.pico_ssd1306_i2c", "circuitpy.canvas", "circuitpy.host",
            "circuitpy.keys", "circuitpy.saves", "circuitpy.power", "firmware.device",
            "firmware.ui", "firmware.app", "firmware.screens.title", "firmware.texts_de")


def module_table(mp, heap, paths):
    """tools/chipheap.py's table of the modules' heap, on the port."""
    from firmware.app import WARM

    order = []
    for name in CPY_BOOT + tuple(WARM) + chipheap.END:
        if name not in order:
            order.append(name)
    probe = "import sys\nsys.path[:0] = %r\n" % [str(p) for p in paths] + chipheap.probe_text(
        order)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(probe)
    try:
        out = subprocess.run([str(mp), "-X", "heapsize=" + heap, f.name], cwd=ROOT,
                             capture_output=True, text=True).stdout
    finally:
        Path(f.name).unlink()
    print(chipheap.format_table(chipheap.parse(out), "modules on the port's heap (64-bit bytes)"))


TEXT_LIBS = ("adafruit_display_text/__init__.py", "adafruit_display_text/bitmap_label.py",
             "adafruit_bitmap_font/__init__.py", "adafruit_bitmap_font/bdf.py",
             "adafruit_bitmap_font/bitmap_font.py", "adafruit_bitmap_font/glyph_cache.py",
             "adafruit_ticks.py")


def text_cost(mp, cross, paths):
    """Print tools/mp/text_cost.py's figures and the libraries' .mpy sizes."""
    import importlib.util

    cmd = [str(mp), "-X", "heapsize=" + BIG_HEAP, "tools/mp/text_cost.py"]
    for p in paths:
        cmd += ["--path", str(p)]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True).stdout
    print("text on the port (64-bit bytes; times on this machine, not the chip's):")
    print("\n".join("  " + line for line in out.splitlines()))
    spec = importlib.util.find_spec("adafruit_display_text")
    if spec is None or spec.origin is None:
        print("  (adafruit_display_text is not installed: no library sizes)")
        return
    site = Path(spec.origin).parent.parent
    total = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rel in TEXT_LIBS:
            out_file = Path(tmp) / "x.mpy"
            subprocess.run([str(cross), "-o", str(out_file), str(site / rel)], check=True)
            total += out_file.stat().st_size
    game = sum((Path(paths[-1]) / "firmware" / n).stat().st_size
               for n in ("font.mpy", "font_data.mpy"))
    print("  .mpy: adafruit_display_text (bitmap_label), adafruit_bitmap_font (bdf), "
          "adafruit_ticks %d B; firmware.font with its data %d B" % (total, game))


def _game_lines(mp, heap, paths, extra=()):
    """Run tools/mp/cpy_game.py; return ({'@key': 'rest'}, output)."""
    cmd = [str(mp), "-X", "heapsize=" + heap, "tools/mp/cpy_game.py"]
    for p in paths:
        cmd += ["--path", str(p)]
    proc = subprocess.run(cmd + list(extra), cwd=ROOT, capture_output=True, text=True)
    out = proc.stdout + proc.stderr
    lines = {}
    for line in out.splitlines():
        if line.startswith("@") or line.startswith("ok "):
            key, _, rest = line.partition(" ")
            lines[key] = rest
    if proc.returncode and "ok" in lines:
        del lines["ok"]
    return lines, out


def _chip(n):
    """`n` bytes of the port as the chip's bytes (see RATIO_64)."""
    return int(n / RATIO_64)


def report_game(lines, harness, start_free):
    """Print the heap figures of a game that ended; return the spare on the
    chip (CHIP_FREE less the game's live peak, in chip bytes)."""
    start_alloc = int(lines["@start"].split()[0])
    peak, _, peak_on = lines["@peak"].partition(" ")
    least, _, least_on = lines["@least_free"].partition(" ")
    warm = int(lines["@warm"]) - start_alloc - harness
    game = int(peak) - start_alloc - harness
    print("  the harness's modules (policy, scripted player, MemFS): %d B, taken off below"
          % harness)
    if "@device" in lines:
        print("  device loop and host modules     %7d B (chip about %d B)"
              % (int(lines["@device"]), _chip(int(lines["@device"]))))
    print("  live after the warm-up           %7d B (chip about %d B)" % (warm, _chip(warm)))
    print("  largest live (after gc)          %7d B (chip about %d B) on %s"
          % (game, _chip(game), peak_on))
    if start_free:
        print("  smallest free (after gc)         %7d B of %d B at the start, on %s"
              % (int(least), start_free, least_on))
    spare = CHIP_FREE - _chip(game)
    print("  on the chip: %d B live of %d B free at the start: %d B spare (want %d B)"
          % (_chip(game), CHIP_FREE, spare, SPARE))
    return spare


def run_game(mp, heap, paths, start_free, frozen=False):
    """Play tools/mp/cpy_game.py's game (with the device's modules) under
    the cap and print its heap; when it fails there, play it again under
    BIG_HEAP for the figures. Returns True when it ended under the cap
    with SPARE left on the chip."""
    mode = ["--frozen"] if frozen else []
    lines, out = _game_lines(mp, BIG_HEAP, paths, ["--harness"] + mode)
    harness = int(lines.get("@harness", 0))
    lines, out = _game_lines(mp, heap, paths, ["--device"] + mode)
    what = "the game frozen in" if frozen else "the game's .mpy files loaded"
    if "ok" in lines:
        print("game vs the Master with tips, %s, heapsize=%s: ended after %s steps (%s modules)"
              % (what, heap, lines["ok"], lines["@modules"]))
        return report_game(lines, harness, start_free) >= SPARE
    tail = [line for line in out.splitlines() if line.strip()][-12:]
    print("game vs the Master with tips, %s, heapsize=%s: FAILED (%s)" % (
        what, heap, first_error(out) or "no result"))
    print("\n".join("  | " + line for line in tail))
    lines, out = _game_lines(mp, BIG_HEAP, paths, ["--device"] + mode)
    if "ok" not in lines:
        print(out[-3000:])
        print("the game failed under heapsize=%s too" % BIG_HEAP)
        return False
    print("the same game, heapsize=%s: ended after %s steps (%s modules)"
          % (BIG_HEAP, lines["ok"], lines["@modules"]))
    report_game(lines, harness, 0)
    return False


def main(argv=None):
    """The command line (see the module docstring); returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkout", required=True, help="a clone of adafruit/circuitpython")
    ap.add_argument("--heap", default="auto", help="heap cap (default auto: see the docstring)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--no-build", action="store_true", help="use the port built before")
    ap.add_argument("--no-tests", action="store_true")
    ap.add_argument("--no-game", action="store_true")
    ap.add_argument("--modules", action="store_true", help="the heap of each module")
    ap.add_argument("--text", action="store_true", help="what text costs (see the docstring)")
    ap.add_argument("--frozen", action="store_true",
                    help="also the game on a port with the game frozen in")
    ap.add_argument("files", nargs="*", help="test modules (default: tests/both/test_*.py)")
    args = ap.parse_args(argv)

    check_checkout(args.checkout)
    if args.no_build:
        top = Path(args.checkout).resolve()
        mp = top / "ports" / "unix" / ("build-" + VARIANT) / "micropython"
        cross = top / "mpy-cross" / "build" / "mpy-cross"
    else:
        mp, cross = build(args.checkout, args.jobs)
    version = subprocess.run([str(mp), "-c", "import sys; print(sys.implementation)"],
                             capture_output=True, text=True).stdout.strip()
    print("port: %s (%s)" % (mp, version))
    heap = auto_heap(mp) if args.heap == "auto" else args.heap
    alloc, free = start_heap(mp, heap)
    print("heap cap: heapsize=%s: %d B free at the start (%d B in use); the chip's %d B x %.2f"
          % (heap, free, alloc, CHIP_FREE, RATIO_64))
    files = [Path(f) for f in args.files] or sorted(
        p.relative_to(ROOT) for p in (ROOT / "tests" / "both").glob("test_*.py"))
    status = 0
    with tempfile.TemporaryDirectory() as mpy_dir, \
            tempfile.TemporaryDirectory() as harness_dir:
        left_out = compile_packages(cross, mpy_dir)
        compile_files(cross, HARNESS, harness_dir)
        print("compiled with %s; left out (native code): %s" % (cross, " ".join(left_out)))
        if not args.no_tests:
            good, bad, tp, tf = run_tests(mp, heap, files, mpy_dir)
            print("tests/both under CircuitPython: %d of %d modules pass (%d tests passed, "
                  "%d failed)" % (len(good), len(files), tp, tf))
            if bad:
                status = 1
        if not args.no_game and not run_game(mp, heap, (harness_dir, mpy_dir), free):
            status = 1
        if args.modules:
            module_table(mp, BIG_HEAP, (mpy_dir,))
        if args.text:
            text_cost(mp, cross, (mpy_dir,))
        if args.frozen:
            frozen_mp = build(args.checkout, args.jobs, frozen=True)[0]
            if not run_game(frozen_mp, heap, (harness_dir,), free, frozen=True):
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
