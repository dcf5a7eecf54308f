"""The game's code in a ROMFS partition: the flash layout, the image, and
finding the partition in a firmware.

MicroPython 1.28's rp2 port mounts a read-only ROMFS partition at /rom
when a board sets MICROPY_HW_ROMFS_BYTES (ports/rp2/mpconfigport.h,
rp2_flash.c); a `.mpy` there is imported in place, its bytecode read from
flash instead of copied into the heap. No stock RP2040 board sets it, so
`make uf2 MICROPYTHON=DIR` builds the RPI_PICO board with a variant that
does (VARIANT, `variant_commands`).

The layout of the 2 MB flash (RPI_PICO, the ROMFS variant):

    0x000000  firmware       MicroPython 1.28, ROMFS variant: 334 KB measured
                             (ends at 0x53700)
    0x060000  ROMFS          256 KB: engine/, firmware/, boards/ as .mpy and
                             the shipped title picture, 190 KB measured
    0x0a0000  littlefs       1408 KB, where stock MicroPython has it:
                             main.py, board.txt, tables/ (811 KB), data/

The partition sits right below the file system (rp2_flash.c puts it
there), which stays where stock firmware keeps it: moving between stock
and ROMFS firmware keeps the saves, and the harness, `make flash` and
the chip tools see the file system they know. The room left to grow:
50 KB for the firmware, 66 KB for the code (a third more code than now). The Master's tables
stay on littlefs: they are read with seek and small reads
(engine/master.py), never loaded whole, and 811 KB would take the
file system's place. tests/cpython/test_romfs.py checks the layout and
that the game's image fits.

A firmware says where its ROMFS partition is in its binary info (the
pico-sdk's `bi_block_device` named "ROMFS", rp2_flash.c): `partitions`
reads it from the flash contents, so a UF2 without one is known as stock.
"""

import contextlib
import hashlib
import io
import shutil
import struct
from pathlib import Path

XIP_BASE = 0x10000000
FLASH_BYTES = 2 * 1024 * 1024
ROMFS_OFFSET = 0x60000
ROMFS_BYTES = 256 * 1024
FS_OFFSET = 0xA0000  # as stock RPI_PICO: MICROPY_HW_FLASH_STORAGE_BYTES = 1408 KB
FS_BYTES = FLASH_BYTES - FS_OFFSET
SECTOR = 4096

# The packages that go into the ROMFS partition; the rest of the staged
# tree (main.py, board.txt, tables/, data/, deploy.json) stays on littlefs.
# A folder of one of these names left on littlefs would be imported instead
# (sys.path is ['', '.frozen', '/rom', '/rom/lib', '/lib']), so `make flash`
# removes them there.
CODE_DIRS = ("engine", "firmware", "boards")
MOUNT = "/rom"

VARIANT = "ROMFS"
VARIANT_FILE = "mpconfigvariant_ROMFS.cmake"
VARIANT_TEXT = ('# Written by Zehntausend (tools/romfs.py): RPI_PICO with a ROMFS partition\n'
                'list(APPEND MICROPY_DEF_BOARD "MICROPY_HW_ROMFS_BYTES=(%d*1024)")\n'
                % (ROMFS_BYTES // 1024))
BUILD = "build-RPI_PICO-" + VARIANT  # the rp2 Makefile's folder for BOARD_VARIANT=ROMFS

# pico-sdk binary info (src/common/pico_binary_info/include/pico/binary_info/structure.h)
BI_MARKER_START = 0x7188EBF2
BI_MARKER_END = 0xE71AA390
BI_TYPE_BLOCK_DEVICE = 7


class RomfsError(Exception):
    """A layout or image that cannot work; the message says why."""


def flash_bytes(blocks):
    """The flash contents the UF2 `blocks` ([(flags, address, payload, family)],
    tools.uf2.parse_blocks) write, from address XIP_BASE; gaps read 0xFF."""
    if not blocks:
        return b""
    end = max(addr + len(payload) for _, addr, payload, _ in blocks) - XIP_BASE
    flash = bytearray(b"\xff" * end)
    for _, addr, payload, _ in blocks:
        at = addr - XIP_BASE
        flash[at:at + len(payload)] = payload
    return bytes(flash)


def _cstring(flash, addr):
    """The NUL-terminated string at XIP address `addr` in `flash`, or None."""
    at = addr - XIP_BASE
    if not 0 <= at < len(flash):
        return None
    end = flash.find(b"\0", at, at + 64)
    return flash[at:end].decode("latin-1") if end >= 0 else None


def partitions(flash):
    """{name: (flash offset, bytes)} of the block devices a firmware's binary
    info declares (RPI_PICO: "MicroPython", its littlefs area; with the
    variant also "ROMFS"). `flash`: the contents from XIP_BASE on."""
    out = {}
    # The header: markers, then the start and end of the table of pointers,
    # then a mapping table; the SDK puts it in the first 256 bytes after boot2.
    for at in range(0x100, min(len(flash), 0x400) - 20, 4):
        start_marker, first, last, _mapping, end_marker = struct.unpack_from("<5I", flash, at)
        if start_marker != BI_MARKER_START or end_marker != BI_MARKER_END:
            continue
        for ptr in range(first, last, 4):
            p = ptr - XIP_BASE
            if not 0 <= p <= len(flash) - 4:
                continue
            (entry,) = struct.unpack_from("<I", flash, p)
            e = entry - XIP_BASE
            if not 0 <= e <= len(flash) - 20:
                continue
            kind, _tag, name, address, size = struct.unpack_from("<HHIII", flash, e)
            if kind == BI_TYPE_BLOCK_DEVICE:
                label = _cstring(flash, name)
                if label:
                    out[label] = (address - XIP_BASE, size)
        break
    return out


def firmware_end(blocks):
    """The flash offset just past the firmware's last block."""
    return max(addr + len(payload) for _, addr, payload, _ in blocks) - XIP_BASE


def check_layout(fw_end, romfs, fs, image_bytes=0):
    """Refuse overlaps: firmware [0, fw_end), the ROMFS partition `romfs`
    and the file system `fs` ((offset, bytes) each), and an image of
    `image_bytes` larger than its partition. Returns the bytes left:
    {"firmware", "romfs"}."""
    r_at, r_size = romfs
    f_at, f_size = fs
    if r_at % SECTOR or r_size % SECTOR or f_at % SECTOR or f_size % SECTOR:
        raise RomfsError("partitions must start and end on 4 KB sectors")
    if fw_end > r_at:
        raise RomfsError("the firmware reaches 0x%x, into the ROMFS partition at 0x%x: a "
                         "smaller ROMFS (%s) or a smaller firmware" % (fw_end, r_at, VARIANT_FILE))
    if r_at + r_size > f_at:
        raise RomfsError("the ROMFS partition 0x%x..0x%x overlaps the file system at 0x%x" % (
            r_at, r_at + r_size, f_at))
    if f_at + f_size > FLASH_BYTES:
        raise RomfsError("the file system 0x%x..0x%x is past the 2 MB flash" % (
            f_at, f_at + f_size))
    if image_bytes > r_size:
        raise RomfsError("the game's ROMFS image is %d bytes, its partition %d: make the "
                         "partition larger (%s)" % (image_bytes, r_size, VARIANT_FILE))
    return {"firmware": r_at - fw_end, "romfs": r_size - image_bytes}


def split(tree, rom_tree):
    """Move the code (CODE_DIRS) of the staged `tree` (tools.deploy.stage)
    into `rom_tree`, and leave in `tree` what goes onto littlefs."""
    tree, rom_tree = Path(tree), Path(rom_tree)
    if rom_tree.exists():
        shutil.rmtree(rom_tree)
    rom_tree.mkdir(parents=True)
    for name in CODE_DIRS:
        if (tree / name).exists():
            shutil.move(str(tree / name), str(rom_tree / name))


def image(rom_tree):
    """The ROMFS image of the folder `rom_tree`, made by mpremote's own
    builder (what `mpremote romfs build` writes); its listing is dropped."""
    from mpremote.romfs import make_romfs

    with contextlib.redirect_stdout(io.StringIO()):
        return make_romfs(str(rom_tree), mpy_cross=False)


def digest(data):
    """The sha256 hex of an image (deploy.json's "romfs" entry)."""
    return hashlib.sha256(data).hexdigest()


def image_size(head):
    """The size a ROMFS image's first bytes declare (its header, then a
    varint), or None when they are no ROMFS image (an erased partition)."""
    if not head.startswith(b"\xd2\xcd\x31"):
        return None
    size = 0
    for i, value in enumerate(head[3:]):
        size = (size << 7) | (value & 0x7F)
        if not value & 0x80:
            return 3 + i + 1 + size  # the header, the varint, what it counts
    return None


def elf_flash(elf):
    """The flash contents (from XIP_BASE) the PT_LOAD segments of the ELF32
    `elf` (bytes) put there, for `partitions`; gaps read 0xFF."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise RomfsError("not a little-endian 32-bit ELF file")
    (phoff,) = struct.unpack_from("<I", elf, 0x1C)
    (phnum,) = struct.unpack_from("<H", elf, 0x2C)
    segments = []
    for i in range(phnum):
        kind, off, _va, pa, filesz = struct.unpack_from("<5I", elf, phoff + 32 * i)
        if kind == 1 and filesz and XIP_BASE <= pa < XIP_BASE + FLASH_BYTES:
            segments.append((pa - XIP_BASE, elf[off:off + filesz]))
    if not segments:
        return b""
    flash = bytearray(b"\xff" * max(at + len(d) for at, d in segments))
    for at, d in segments:
        flash[at:at + len(d)] = d
    return bytes(flash)


def elf_with_load(elf, data, addr):
    """The ELF32 `elf` (bytes) with one more PT_LOAD segment holding `data`
    at physical address `addr`, for the harness, which copies every PT_LOAD
    into flash. The program headers move to the end of the file; the
    sections and symbols stay as they are."""
    if elf[:4] != b"\x7fELF" or elf[4] != 1 or elf[5] != 1:
        raise RomfsError("not a little-endian 32-bit ELF file")
    (phoff,) = struct.unpack_from("<I", elf, 0x1C)
    phentsize, phnum = struct.unpack_from("<HH", elf, 0x2A)
    if phentsize != 32:
        raise RomfsError("unexpected ELF program header size %d" % phentsize)
    headers = bytes(elf[phoff:phoff + 32 * phnum])
    for i in range(phnum):
        kind, _off, _va, pa, filesz = struct.unpack_from("<5I", headers, i * 32)
        if kind == 1 and filesz and pa < addr + len(data) and addr < pa + filesz:
            raise RomfsError("the firmware's segment 0x%08x..0x%08x overlaps 0x%08x" % (
                pa, pa + filesz, addr))
    out = bytearray(elf)
    out += bytes(-len(out) % SECTOR)
    data_off = len(out)
    out += data
    out += bytes(-len(out) % 4)
    new_phoff = len(out)
    out += headers + struct.pack("<8I", 1, data_off, addr, addr, len(data), len(data), 4, SECTOR)
    struct.pack_into("<I", out, 0x1C, new_phoff)
    struct.pack_into("<H", out, 0x2C, phnum + 1)
    return bytes(out)


def variant_commands(micropython, jobs=None):
    """The command line that builds RPI_PICO with the ROMFS variant in the
    checkout `micropython` (its board folder gets VARIANT_FILE first)."""
    rp2 = Path(micropython).resolve() / "ports" / "rp2"
    parallel = ["-j%d" % jobs] if jobs else []
    return [["make", "-C", str(rp2), "BOARD=RPI_PICO", "BOARD_VARIANT=" + VARIANT] + parallel]


def write_variant(micropython):
    """Put VARIANT_FILE into the checkout's RPI_PICO board folder (when it
    is not already there as written here); the path."""
    path = Path(micropython).resolve() / "ports" / "rp2" / "boards" / "RPI_PICO" / VARIANT_FILE
    if not path.is_file() or path.read_text() != VARIANT_TEXT:
        path.write_text(VARIANT_TEXT)
    return path


def built(micropython, suffix=".uf2"):
    """Where the variant's build writes its firmware (`suffix`: .uf2 or .elf)."""
    return Path(micropython).resolve() / "ports" / "rp2" / BUILD / ("firmware" + suffix)
