"""Staging the board's tree for the emulated Pico and its littlefs image.

The tree is the one `make stage` writes (tools.deploy.stage), plus
`bench.json`; `pack_image` packs it into a littlefs image in the RPI_PICO
flash layout, and `read_error_log` reads firmware.recovery's log back out
of the flash the harness saved at the end of a run.
"""

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def patch_freq(board, dest, freq, mpy_cross):
    """Compile the board module with `FREQ = freq` into the staged tree."""
    src = (ROOT / "boards" / (board + ".py")).read_text(encoding="utf-8")
    line = "FREQ = %d" % freq
    if re.search(r"^FREQ\s*=", src, re.M):
        src = re.sub(r"^FREQ\s*=.*$", line, src, flags=re.M)
    else:
        src += "\n%s\n" % line
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (board + ".py")
        path.write_text(src, encoding="utf-8")
        out = Path(dest) / "boards" / (board + ".mpy")
        proc = subprocess.run([mpy_cross, "-march=armv6m", "-s", "boards/%s.py" % board,
                               "-o", str(out), str(path)], capture_output=True, text=True)
        if proc.returncode:
            raise SystemExit("mpy-cross failed on the patched board: " + proc.stderr)


def stage_tree(board, dest, bench=None, freq=None, frozen=False):
    """Stage `board` into `dest` as `make stage` does, then add `bench`
    (a dict, written as bench.json: firmware.device.bench_options reads
    the dice seed and the @prof / @heap switches from it) and write the
    board's FREQ. `frozen`: the firmware holds the game (manifest.py), so
    the tree has no packages (tools.deploy.stage)."""
    from tools import deploy

    deploy.stage(board, dest, log=lambda *a: None, frozen=frozen)
    dest = Path(dest)
    if freq is not None:
        patch_freq(board, dest, freq, deploy.find_mpy_cross())
    if bench is not None:
        (dest / "bench.json").write_text(json.dumps(bench) + "\n", encoding="utf-8")


def pack_image(tree, out, block_size=4096, block_count=352, prog_size=256):
    """Pack every file under `tree` into a littlefs image (the RPI_PICO
    layout by default); returns the paths written."""
    from littlefs import LittleFS

    lfs = LittleFS(block_size=block_size, block_count=block_count, prog_size=prog_size)
    written = []
    tree = str(tree)
    for folder, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, tree).replace(os.sep, "/")
        if rel != ".":
            lfs.makedirs(rel, exist_ok=True)
        for name in sorted(files):
            dst = name if rel == "." else rel + "/" + name
            with open(os.path.join(folder, name), "rb") as fin, lfs.open(dst, "wb") as fout:
                fout.write(fin.read())
            written.append(dst)
    with open(out, "wb") as f:
        f.write(lfs.context.buffer)
    return written


ERROR_LOGS = ("data/error.log.1", "data/error.log")  # firmware.recovery's log, oldest first


def mount_image(data, block_size=4096, prog_size=256):
    """A LittleFS mounted on the bytes of a saved flash image (the RPI_PICO
    geometry of `pack_image`); raises when they hold no file system."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=block_size, block_count=len(data) // block_size,
                  prog_size=prog_size, mount=False)
    fs.context.buffer = bytearray(data)
    fs.mount()
    return fs


def error_logs(data):
    """firmware.recovery's log in the bytes of a flash image: error.log.1
    then error.log, joined ("" when neither is there); None when the bytes
    hold no file system (a run cut short before the first format)."""
    try:
        fs = mount_image(data)
    except Exception:
        return None
    out = []
    for name in ERROR_LOGS:
        try:
            with fs.open(name, "rb") as f:
                out.append(f.read().decode("utf-8", "replace"))
        except Exception:
            continue
    return "".join(out)


def read_error_log(image):
    """The error log (`error_logs`) of the flash image file `image` (the
    board's flash at the end of a run), or None when there is no file, no
    file system or no log."""
    try:
        data = Path(image).read_bytes()
    except OSError:
        return None
    return error_logs(data) or None
