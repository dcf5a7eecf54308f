"""Random presses on a heap cut into holes, under the MicroPython Unix port
(`make heapwalk`): the audit for large blocks (issue 21).

    python -m tools.heapwalk [--seeds 8] [--presses 600] [--hole 2048] [--heap 700k]

Compiles the device packages as tools/mptest.py does (mpy-cross, as on the
chip), then runs tools/mp/heap_walk.py once per seed: the App warmed up as
on the device, the free heap cut into holes of `--hole` bytes, random
presses; any request for a block longer than a hole fails with a
traceback. The port is 64-bit: a hole of 2048 bytes here is about 1.2 KB
of the chip's heap for most objects (bytes and bytearrays keep their
size). Prints each seed's screens and failures; exit 1 when any failed.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.mptest import compile_packages, find_micropython

ROOT = Path(__file__).resolve().parent.parent
DONE = re.compile(r"^done (\d+) failures (\d+)$", re.M)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--presses", type=int, default=600)
    ap.add_argument("--hole", type=int, default=2048)
    ap.add_argument("--heap", default="700k")
    args = ap.parse_args(argv)
    mp = find_micropython()
    if mp is None:
        print("micropython not found (run `make test` first)")
        return 2
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        compile_packages(tmp)
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            proc = subprocess.run([mp, "-X", "heapsize=" + args.heap, "tools/mp/heap_walk.py",
                                   "--path", tmp, str(seed), str(args.presses), str(args.hole)],
                                  cwd=ROOT, capture_output=True, text=True)
            out = proc.stdout + proc.stderr
            m = DONE.search(out)
            if m is None or int(m.group(2)) or proc.returncode:
                bad += 1
                print(out.rstrip())
            else:
                print("seed %d: %s" % (seed, " | ".join(
                    line for line in out.splitlines() if line.startswith(("holes", "screens")))))
    print("heapwalk: %d seeds, %d presses each, holes of %d bytes: %d failed" % (
        args.seeds, args.presses, args.hole, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
