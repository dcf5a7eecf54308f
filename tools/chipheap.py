"""What each module of the game costs on the chip's heap (`make chipheap`).

MicroPython on a stock RP2040 firmware copies the bytecode of every module
it imports into the heap (the RPI_PICO board has no ROMFS to run it from
flash), so the code a screen needs is most of the live heap. This tool
stages the board's tree as `make stage` does, replaces its main.py with a
probe, and boots it on the emulated Pico (the harness of tools/chipbench):
the probe imports the modules the device boots with, then every WARM module
of firmware.app (the game path), then the end-of-game message, collecting
the garbage after each, and prints one line per import:

    @mod <module> <bytes the heap grew by> <modules the import loaded>

The table it prints lists them in that order with a running total, the
heap before the first import and the free heap after the last. A module's
bytes include the names (qstrs) it adds to MicroPython's name pools, and
each import is charged with the modules it pulls in that were not loaded
yet, so the order matters: it is the device's own order.

Options: the firmware, bootrom and rp2040js paths as for chipbench
(arguments or $CHIPBENCH_* variables), `--frozen` for a firmware with the
game frozen in (manifest.py), `--romfs` for one with a ROMFS partition
(the code there, tools/romfs.py), `--json`, `--keep DIR`.
"""

import argparse
import json
import re
import shutil
import sys
import tempfile
from pathlib import Path

from tools import chipbench

# The device's boot order (firmware.main, firmware.device, the first frame),
# then the game path (firmware.app.WARM), then the screen a game ends on.
BOOT = ("firmware.splash", "firmware.board", "boards.pico_ssd1306_i2c", "firmware.display",
        "firmware.device", "firmware.ui",
        "firmware.app", "firmware.screens.title", "firmware.texts_de")
END = ("firmware.screens.message",)

PROBE = '''\
import gc
import sys
gc.collect()
base = gc.mem_alloc()
print("@base", base, gc.mem_free())
prev = base
for name in %r:
    before = set(sys.modules)
    try:
        __import__(name)
    except Exception as e:
        print("@err", name, repr(e))
    gc.collect()
    now = gc.mem_alloc()
    print("@mod", name, now - prev, " ".join(k for k in sys.modules if k not in before))
    prev = now
print("@end", prev - base, gc.mem_free())
'''

LINE = re.compile(r"@(base|mod|end|err) (.*)$")


def module_order():
    """Every module the probe imports, in the device's order, once each."""
    from firmware.app import WARM

    out = []
    for name in BOOT + tuple(WARM) + END:
        if name not in out:
            out.append(name)
    return out


def probe_text(order):
    """The main.py that measures `order` on the chip."""
    return PROBE % (tuple(order),)


def parse(serial):
    """The probe's lines in the serial text: {"base", "free_after", "total",
    "rows": [{"module", "bytes", "loaded"}], "errors"}."""
    res = {"base": None, "free_before": None, "total": None, "free_after": None, "rows": [],
           "errors": []}
    for line in serial.splitlines():
        m = LINE.search(line)
        if not m:
            continue
        kind, rest = m.group(1), m.group(2).split()
        if kind == "base" and len(rest) == 2:
            res["base"], res["free_before"] = int(rest[0]), int(rest[1])
        elif kind == "mod" and len(rest) >= 2:
            res["rows"].append({"module": rest[0], "bytes": int(rest[1]), "loaded": rest[2:]})
        elif kind == "end" and len(rest) == 2:
            res["total"], res["free_after"] = int(rest[0]), int(rest[1])
        elif kind == "err":
            res["errors"].append(" ".join(rest))
    return res


def format_table(res, title=""):
    """The table chipheap prints."""
    out = [title] if title else []
    out.append("%-30s %8s %8s  %s" % ("import", "bytes", "total", "modules it loaded"))
    total = 0
    for row in res["rows"]:
        total += row["bytes"]
        others = [m for m in row["loaded"] if m != row["module"]]
        out.append("%-30s %8d %8d  %s" % (row["module"], row["bytes"], total,
                                          " ".join(others) if others else ""))
    out.append("%-30s %8s" % ("heap in use before the imports", res["base"]))
    out.append("%-30s %8s" % ("all imports", res["total"]))
    out.append("%-30s %8s" % ("free heap after them", res["free_after"]))
    for err in res["errors"]:
        out.append("error: " + err)
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Heap cost of each game module on an emulated Pico.")
    chipbench.add_part_args(ap)
    ap.add_argument("--frozen", action="store_true",
                    help="the firmware has the game frozen in (built with manifest.py)")
    ap.add_argument("--romfs", action="store_true",
                    help="the firmware has a ROMFS partition: the code goes there (tools/romfs.py)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--keep", metavar="DIR", help="keep the staged tree and the harness output")
    args = ap.parse_args(argv)
    if args.frozen and args.romfs:
        print("chipheap: --frozen or --romfs, not both", file=sys.stderr)
        return 2
    parts = chipbench.ready_parts(args)
    if parts is None:
        return 2
    board = chipbench.DEFAULT_BOARD
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="chipheap-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        tree = work / "stage"
        if tree.exists():
            shutil.rmtree(tree)
        chipbench.stage_tree(board, tree, {"seed": chipbench.SEED}, frozen=args.frozen,
                             romfs=args.romfs)
        if args.romfs:
            parts = dict(parts, firmware=chipbench.romfs_firmware(
                parts["firmware"], work / "stage.romfs", work / "romfs.elf"))
        order = module_order()
        (tree / "main.py").write_text(probe_text(order), encoding="utf-8")
        image = work / "probe.img"
        chipbench.pack_image(tree, image)
        script = work / "probe.hil"
        script.write_text("wait 6000\n", encoding="utf-8")
        out = work / "out"
        cmd = chipbench.hil_command(parts, board, image, script, out, 6000, 600)
        code, _report = chipbench.run_all({"probe": (cmd, out)},
                                          lambda *a: print(*a, file=sys.stderr))["probe"]
        res = parse((out / "serial.txt").read_text(errors="replace"))
        res["frozen"] = args.frozen
        res["romfs"] = args.romfs
        if code != 0 or res["total"] is None:
            print("chipheap: the probe did not finish (exit %s); see %s" % (
                code, out / "serial.txt"), file=sys.stderr)
            return 1
        if args.json:
            print(json.dumps(res, indent=1))
        else:
            print(format_table(res, "chipheap %s%s: heap bytes per import, after gc.collect()" % (
                board, ", game frozen into the firmware" if args.frozen else
                ", code in the ROMFS partition" if args.romfs else "")))
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
