"""Staging the board's tree for the emulated Pico and its littlefs image.

The tree is the one `make stage` writes (tools.deploy.stage), plus
`bench.json`; `pack_image` packs it into a littlefs image in the RPI_PICO
flash layout, and `read_error_log` reads firmware.recovery's log back out
of the flash the harness saved at the end of a run. For a firmware with a
ROMFS partition (`--romfs`, tools/romfs.py) the code goes into a ROMFS
image beside the tree, and `romfs_firmware` adds it to the firmware's ELF
where the partition is, as `make uf2` puts it into the UF2.
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


def stage_tree(board, dest, bench=None, freq=None, frozen=False, romfs=False):
    """Stage `board` into `dest` as `make stage` does, then add `bench`
    (a dict, written as bench.json: firmware.device.bench_options reads
    the dice seed and the @prof / @heap switches from it) and write the
    board's FREQ. `frozen`: the firmware holds the game (manifest.py), so
    the tree has no packages (tools.deploy.stage). `romfs`: the code goes
    into the ROMFS image tools.deploy.romfs_paths(dest) names
    (tools.deploy.stage_romfs), the rest stays in `dest`."""
    from tools import deploy

    def extras(tree):
        if freq is not None:
            patch_freq(board, tree, freq, deploy.find_mpy_cross())
        if bench is not None:
            (tree / "bench.json").write_text(json.dumps(bench) + "\n", encoding="utf-8")

    if romfs:
        deploy.stage_romfs(board, dest, log=lambda *a: None, before_split=extras)
    else:
        deploy.stage(board, dest, log=lambda *a: None, frozen=frozen)
        extras(Path(dest))


def romfs_firmware(elf, image, out):
    """Write to `out` the firmware ELF `elf` with the ROMFS image file
    `image` as one more load segment at the firmware's ROMFS partition (the
    harness copies every load segment into flash); returns `out` as a str.
    Raises SystemExit when the firmware has no such partition or the image
    does not fit it."""
    from tools import romfs

    fw = Path(elf).read_bytes()
    found = romfs.partitions(romfs.elf_flash(fw)).get("ROMFS")
    if found is None:
        raise SystemExit("%s has no ROMFS partition: pass the ROMFS variant's firmware.elf "
                         "(make uf2 MICROPYTHON=DIR builds it, tools/romfs.py)" % elf)
    data = Path(image).read_bytes()
    if len(data) > found[1]:
        raise SystemExit("the ROMFS image (%d bytes) is larger than the partition (%d)" % (
            len(data), found[1]))
    Path(out).write_bytes(romfs.elf_with_load(fw, data, romfs.XIP_BASE + found[0]))
    return str(out)


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
