"""The three parts chipbench needs from outside the repository, and where they are.

The MicroPython firmware, the RP2040 bootrom and rp2040js come from the
`--firmware`, `--bootrom` and `--rp2040js` options or the CHIPBENCH_*
variables; when one is missing, HOW_TO_GET says how to build them.
"""

import os
import shutil
import sys
from pathlib import Path

PARTS = (
    ("firmware", "CHIPBENCH_FIRMWARE", "MicroPython v1.28.0 RPI_PICO firmware.elf"),
    ("bootrom", "CHIPBENCH_BOOTROM", "the RP2040 B1 bootrom as bootrom.mjs"),
    ("rp2040js", "CHIPBENCH_RP2040JS", "a node_modules folder holding rp2040js@1.4.1"),
)

HOW_TO_GET = """\
chipbench runs the game on real MicroPython firmware in an emulated Pico and
needs three parts from outside the repository:

  --firmware  (or CHIPBENCH_FIRMWARE)  MicroPython v1.28.0 RPI_PICO, as firmware.elf
  --bootrom   (or CHIPBENCH_BOOTROM)   the RP2040 B1 bootrom as an ES module, bootrom.mjs
  --rp2040js  (or CHIPBENCH_RP2040JS)  a node_modules folder holding rp2040js (npm rp2040js@1.4.1)

Missing: {missing}

How to get them (once per machine, about 6 minutes; see the hil README in the
team's shared notes):
  1. Have bare git mirrors of the public repositories micropython/micropython,
     raspberrypi/pico-sdk, hathach/tinyusb, micropython/micropython-lib,
     Mbed-TLS/mbedtls, raspberrypi/picotool and wokwi/rp2040js, each at
     MIRRORS/OWNER+NAME/repo.
  2. MIRRORS=<that folder> build-firmware.sh OUT   (the team's script, OUT outside
     the repository): it builds stock MicroPython v1.28.0 for RPI_PICO, saves the
     bootrom from rp2040js's demo/bootrom.ts and installs rp2040js@1.4.1, then prints
        OUT/micropython/ports/rp2/build-RPI_PICO/firmware.elf
        OUT/bootrom.mjs
        OUT/node/node_modules
  3. make chipbench CHIPBENCH_ARGS="--firmware \\
        OUT/micropython/ports/rp2/build-RPI_PICO/firmware.elf \\
        --bootrom OUT/bootrom.mjs --rp2040js OUT/node/node_modules"
     (or export the three CHIPBENCH_* variables). Node 18 or newer must be on PATH."""


def find_parts(args, environ=None):
    """{part: path} from the arguments, else the environment; the second
    value lists the parts that are missing or do not exist (with why)."""
    environ = os.environ if environ is None else environ
    found, missing = {}, []
    for name, env, what in PARTS:
        value = getattr(args, name, None) or environ.get(env)
        if not value:
            missing.append("%s (%s): not given" % (name, what))
        elif not Path(value).exists():
            missing.append("%s: %s does not exist" % (name, value))
        else:
            found[name] = str(Path(value).resolve())
    if "rp2040js" in found:
        folder = Path(found["rp2040js"])
        if not ((folder / "rp2040js").is_dir() or (folder / "package.json").is_file()):
            missing.append("rp2040js: %s holds no rp2040js package" % folder)
            del found["rp2040js"]
    return found, missing


def missing_message(missing):
    """What to tell when parts are missing (see HOW_TO_GET)."""
    return HOW_TO_GET.format(missing="\n  " + "\n  ".join(missing) if missing else "nothing")


def add_part_args(ap):
    """The options naming the three outside parts (see HOW_TO_GET)."""
    ap.add_argument("--firmware", help="MicroPython RPI_PICO firmware.elf ($CHIPBENCH_FIRMWARE)")
    ap.add_argument("--bootrom", help="the RP2040 bootrom.mjs ($CHIPBENCH_BOOTROM)")
    ap.add_argument("--rp2040js", help="node_modules holding rp2040js ($CHIPBENCH_RP2040JS)")


def ready_parts(args):
    """The outside parts and node, or None after saying on stderr what is
    missing and how to get it."""
    parts, missing = find_parts(args)
    if shutil.which("node") is None:
        missing.append("node: Node.js 18 or newer is not on PATH")
    if missing:
        print(missing_message(missing), file=sys.stderr)
        return None
    return parts
