"""One UF2 file with MicroPython and the game, for BOOTSEL drag-and-drop.

    python -m tools.uf2 --board NAME --micropython DIR [--out FILE]
    python -m tools.uf2 --board NAME --firmware micropython.uf2 [--out FILE]

With --micropython (a MicroPython 1.28 checkout with the rp2 port's
submodules, as ../shared/hil/build-firmware.sh leaves it) the RPI_PICO
board is built with a ROMFS partition (tools/romfs.py: the variant file is
written into the checkout's board folder, the build goes to
build-RPI_PICO-ROMFS); --firmware takes an already built UF2. A firmware
whose binary info declares a ROMFS partition gets the game's code there as
a ROMFS image (imported in place from flash) and the rest (main.py,
board.txt, tables/, data/) in its littlefs area; a stock firmware (no
partition) gets the whole tree in the littlefs area. This machine has no
network: the checkout is never fetched here.

The stock MicroPython UF2 for the Raspberry Pi Pico (rp2 port, RPI_PICO
board) holds the firmware at the start of the 2 MB flash; its filesystem is a
littlefs2 volume in the last 1408 KB (ports/rp2/boards/RPI_PICO/
mpconfigboard.cmake: MICROPY_HW_FLASH_STORAGE_BYTES = 1441792; rp2_flash.c:
storage base = flash size - storage bytes, erase/block size FLASH_SECTOR_SIZE
4096), so it starts at flash offset 0xA0000, address 0x100A0000.

MicroPython mounts it with `vfs.VfsLfs2(rp2.Flash(), progsize=256)`
(ports/rp2/modules/_boot.py) and extmod/vfs_lfs.c + vfs_lfsx.c set
read_size 32, prog_size 256, lookahead 32 bytes, block_cycles 100,
cache_size min(block, 4 * max(read, prog)) = 1024 and the default name_max
255; its littlefs v2.11 writes on-disk version 2.1. The image here is made
with littlefs-python under the same settings.

The output holds the firmware's blocks unchanged (only blockNo/numBlocks are
renumbered over the whole file) followed by blocks for the whole filesystem
area, so every sector of an old filesystem is overwritten: a freshly flashed
board holds exactly the staged tree (tools.deploy --stage), deploy.json
included, so a later `make flash` copies only what changed. Flashing it
replaces any saves on the board.

UF2 (github.com/microsoft/uf2): 512-byte blocks of 32-byte header, 476 data
bytes and a final magic; the RP2040 boot ROM wants 256-byte payloads at
256-byte aligned addresses and family id 0xe48bff56.
"""

import argparse
import struct
import sys
import tempfile
from pathlib import Path

from tools import deploy

MAGIC0 = 0x0A324655  # "UF2\n"
MAGIC1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FILE_CONTAINER = 0x00001000
FLAG_FAMILY_ID = 0x00002000
BLOCK = 512
PAYLOAD = 256
DATA_BYTES = 476
RP2040_FAMILY = 0xE48BFF56
OTHER_FAMILIES = {
    0xE48BFF57: "RP2XXX absolute",
    0xE48BFF58: "RP2XXX data",
    0xE48BFF59: "RP2350 ARM (Pico 2)",
    0xE48BFF5A: "RP2350 RISC-V (Pico 2)",
    0xE48BFF5B: "RP2350 ARM non-secure (Pico 2)",
    0xADA52840: "nRF52840",
    0x68ED2B88: "SAMD21",
    0x55114460: "SAMD51",
    0x57755A57: "STM32F4",
    0xBFDD4EEE: "ESP32-S2",
}

XIP_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024  # Raspberry Pi Pico: 2 MB
FS_BYTES = 1408 * 1024  # RPI_PICO MICROPY_HW_FLASH_STORAGE_BYTES
FS_OFFSET = FLASH_BYTES - FS_BYTES  # 0xA0000
BLOCK_SIZE = 4096  # rp2 FLASH_SECTOR_SIZE, the littlefs block size

# littlefs settings of MicroPython's rp2 filesystem (see the module docstring).
LFS_CONFIG = {
    "block_size": BLOCK_SIZE,
    "read_size": 32,
    "prog_size": 256,
    "lookahead_size": 32,
    "block_cycles": 100,
    "cache_size": 1024,
    "name_max": 255,
    "disk_version": 0x00020001,
}


class Uf2Error(Exception):
    """A UF2 file that cannot be used; the message says why."""


def parse_blocks(data, name="UF2 file"):
    """[(flags, address, payload bytes, family)] of a UF2 file, checked for RP2040 flash."""
    if not data:
        raise Uf2Error("%s is empty" % name)
    if len(data) % BLOCK:
        raise Uf2Error("%s is %d bytes, not a whole number of 512-byte UF2 blocks (a "
                       "truncated download?)" % (name, len(data)))
    blocks = []
    count = len(data) // BLOCK
    for i in range(count):
        raw = data[i * BLOCK:(i + 1) * BLOCK]
        m0, m1, flags, addr, size, no, total, family = struct.unpack_from("<8I", raw)
        (end,) = struct.unpack_from("<I", raw, BLOCK - 4)
        if m0 != MAGIC0 or m1 != MAGIC1 or end != MAGIC_END:
            raise Uf2Error("%s: block %d has no UF2 magic numbers: not a UF2 file" % (name, i))
        if flags & FLAG_FILE_CONTAINER:
            raise Uf2Error("%s: block %d is a file container, not flash contents" % (name, i))
        if flags & FLAG_NOT_MAIN_FLASH:
            raise Uf2Error("%s: block %d is marked 'not main flash'" % (name, i))
        if not flags & FLAG_FAMILY_ID:
            raise Uf2Error("%s: block %d has no family id; the RP2040 boot ROM ignores such "
                           "blocks" % (name, i))
        if family != RP2040_FAMILY:
            raise Uf2Error("%s is for %s (family id 0x%08x), not the RP2040 (0x%08x): "
                           "download the Raspberry Pi Pico build of MicroPython" % (
                               name, OTHER_FAMILIES.get(family, "another chip"), family,
                               RP2040_FAMILY))
        if size != PAYLOAD or addr % PAYLOAD:
            raise Uf2Error("%s: block %d carries %d bytes at 0x%08x; the RP2040 needs 256 bytes "
                           "at 256-byte aligned addresses" % (name, i, size, addr))
        if not XIP_BASE <= addr < XIP_BASE + FLASH_BYTES:
            raise Uf2Error("%s: block %d is at 0x%08x, outside the 2 MB flash" % (name, i, addr))
        if no != i or total != count:
            raise Uf2Error("%s: block %d is numbered %d of %d (expected %d of %d): the file is "
                           "damaged or incomplete" % (name, i, no, total, i, count))
        blocks.append((flags, addr, bytes(raw[32:32 + size]), family))
    return blocks


def check_firmware(blocks, fs_offset=FS_OFFSET):
    """Refuse firmware blocks that overlap each other or the filesystem area."""
    seen = set()
    fs_start = XIP_BASE + fs_offset
    for _, addr, _, _ in blocks:
        if addr in seen:
            raise Uf2Error("the firmware UF2 writes 0x%08x twice" % addr)
        seen.add(addr)
        if addr + PAYLOAD > fs_start:
            raise Uf2Error("the firmware UF2 reaches 0x%08x, into the filesystem area at "
                           "0x%08x: is it a build with a different flash layout?" % (
                               addr + PAYLOAD, fs_start))


def make_block(flags, addr, payload, no, total, family):
    """One 512-byte UF2 block."""
    head = struct.pack("<8I", MAGIC0, MAGIC1, flags, addr, len(payload), no, total, family)
    body = payload + bytes(DATA_BYTES - len(payload))
    return head + body + struct.pack("<I", MAGIC_END)


def lfs_image(tree, fs_bytes=FS_BYTES):
    """The bytes of a littlefs2 volume (MicroPython rp2 settings) holding the folder `tree`."""
    fs = lfs_volume(tree, fs_bytes)
    fs.unmount()
    return bytes(fs.context.buffer)


def lfs_volume(tree, fs_bytes=FS_BYTES):
    """A mounted littlefs2 volume (littlefs-python, MicroPython rp2
    settings) holding the folder `tree` (`used_block_count` tells how full)."""
    from littlefs import LittleFS

    fs = LittleFS(block_count=fs_bytes // BLOCK_SIZE, mount=False, **LFS_CONFIG)
    fs.format()
    fs.mount()
    tree = Path(tree)
    for path in sorted(tree.rglob("*")):
        rel = path.relative_to(tree).as_posix()
        if path.is_dir():
            fs.mkdir(rel)
        else:
            with fs.open(rel, "wb") as f:
                f.write(path.read_bytes())
    return fs


def _data_blocks(data, offset):
    """UF2 block tuples writing `data` at flash `offset` (the last one padded)."""
    return [
        (FLAG_FAMILY_ID, XIP_BASE + offset + off,
         data[off:off + PAYLOAD] + b"\xff" * (PAYLOAD - len(data[off:off + PAYLOAD])),
         RP2040_FAMILY)
        for off in range(0, len(data), PAYLOAD)
    ]


def build(firmware, tree, fs_offset=FS_OFFSET, fs_bytes=FS_BYTES, romfs=None):
    """The combined UF2 bytes: the firmware's blocks, then the ROMFS image
    when `romfs` is (flash offset, image bytes), then the filesystem of
    `tree`."""
    fw = parse_blocks(firmware, "the firmware UF2")
    check_firmware(fw, fs_offset)
    if fs_offset + fs_bytes > FLASH_BYTES or fs_offset % BLOCK_SIZE or fs_bytes % BLOCK_SIZE:
        raise Uf2Error("filesystem area 0x%x + 0x%x does not fit the flash" % (fs_offset, fs_bytes))
    rom_blocks = []
    if romfs is not None:
        rom_offset, rom_image = romfs
        check_firmware(fw, rom_offset)
        rom_blocks = _data_blocks(rom_image, rom_offset)
    image = lfs_image(tree, fs_bytes)
    every = fw + rom_blocks + _data_blocks(image, fs_offset)
    total = len(every)
    return b"".join(
        make_block(flags, addr, payload, no, total, family)
        for no, (flags, addr, payload, family) in enumerate(every)
    )


def firmware_layout(fw_blocks):
    """(ROMFS partition (offset, bytes) or None, file system (offset, bytes))
    as the firmware's binary info declares them (tools/romfs.py); the file
    system defaults to the stock RPI_PICO area."""
    from tools import romfs

    found = romfs.partitions(romfs.flash_bytes(fw_blocks))
    return found.get("ROMFS"), found.get("MicroPython", (FS_OFFSET, FS_BYTES))


def build_romfs_firmware(micropython, picotool=None, log=print):
    """Build RPI_PICO with the ROMFS partition in the checkout `micropython`
    (tools/romfs.py); the UF2's path. Raises Uf2Error with what to fix."""
    import subprocess

    from tools import frozen_uf2, romfs

    found = frozen_uf2.problems(micropython)
    if found:
        raise Uf2Error("cannot build the firmware yet:\n  " + "\n  ".join(found))
    log("uf2: %s" % romfs.write_variant(micropython))
    env = frozen_uf2.build_env(picotool)
    for cmd in romfs.variant_commands(micropython):
        log("uf2: " + " ".join(cmd))
        if subprocess.run(cmd, env=env).returncode:
            raise Uf2Error("the firmware build failed (see above)")
    uf2 = romfs.built(micropython)
    if not uf2.is_file():
        raise Uf2Error("the build wrote no %s" % uf2)
    return uf2


def make(board, firmware, stage_dir, log=print):
    """(UF2 bytes, a summary line) for `board` on the firmware UF2 bytes
    `firmware`; the staged trees go to `stage_dir`."""
    from tools import romfs

    fw = parse_blocks(firmware, "the firmware UF2")
    rom_part, (fs_offset, fs_bytes) = firmware_layout(fw)
    tree = Path(stage_dir)
    if rom_part is None:
        manifest = deploy.stage(board, tree, log=log)
        data = build(firmware, tree, fs_offset, fs_bytes)
        return data, ("stock firmware (no ROMFS partition): %d files in littlefs at 0x%08x"
                      % (len(manifest["files"]), XIP_BASE + fs_offset))
    manifest = deploy.stage_romfs(board, tree, log=log)
    image = deploy.romfs_paths(tree)[1].read_bytes()
    room = romfs.check_layout(romfs.firmware_end(fw), rom_part, (fs_offset, fs_bytes), len(image))
    data = build(firmware, tree, fs_offset, fs_bytes, romfs=(rom_part[0], image))
    return data, ("firmware %d KB (%d KB to grow), ROMFS image %.1f KB in the %d KB partition "
                  "at 0x%08x (%d KB free), %d files in littlefs at 0x%08x" % (
                      romfs.firmware_end(fw) // 1024, room["firmware"] // 1024,
                      len(image) / 1024, rom_part[1] // 1024, XIP_BASE + rom_part[0],
                      room["romfs"] // 1024, len(manifest["files"]), XIP_BASE + fs_offset))


def main(argv=None):
    """Command line; returns the exit status."""
    from tools.romfs import RomfsError

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", required=True, help="one of: " + ", ".join(deploy.board_names()))
    parser.add_argument("--micropython", help="a MicroPython 1.28 checkout (rp2 submodules in "
                        "place): build RPI_PICO with a ROMFS partition from it")
    parser.add_argument("--picotool", help="with --micropython: a folder holding "
                        "picotoolConfig.cmake (an installed picotool)")
    parser.add_argument("--firmware", help="a built MicroPython UF2 for the Raspberry Pi Pico "
                        "(with a ROMFS partition, or stock)")
    parser.add_argument("--out", help="output file (default build/zehntausend-BOARD.uf2)")
    parser.add_argument("--stage", metavar="DIR", help="keep the staged tree in DIR")
    args = parser.parse_args(argv)
    if not args.firmware and not args.micropython:
        print("error: say where MicroPython comes from: MICROPYTHON=DIR (a MicroPython 1.28 "
              "checkout with the rp2 submodules, e.g. the one ../shared/hil/build-firmware.sh "
              "makes; the ROMFS firmware is built from it) or FIRMWARE=path/to/firmware.uf2 "
              "(already built; the stock Raspberry Pi Pico download works too, without ROMFS)",
              file=sys.stderr)
        return 1
    if args.firmware and args.micropython:
        print("error: FIRMWARE or MICROPYTHON, not both", file=sys.stderr)
        return 1
    out = Path(args.out or deploy.ROOT / "build" / ("zehntausend-%s.uf2" % args.board))
    try:
        path = args.firmware or build_romfs_firmware(args.micropython, args.picotool)
        try:
            firmware = Path(path).read_bytes()
        except OSError as e:
            raise Uf2Error("cannot read %s: %s" % (path, e.strerror or e))
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(args.stage) if args.stage else Path(tmp) / "stage"
            data, summary = make(args.board, firmware, tree, log=lambda *a: None)
    except (Uf2Error, RomfsError, deploy.DeployError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    print("wrote %s (%d KB): %s" % (out, len(data) // 1024, summary))
    print("hold BOOTSEL while plugging the board in, then copy the file onto the RPI-RP2 drive "
          "(this replaces everything on the board, saves included); later updates: make flash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
