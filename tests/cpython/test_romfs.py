"""The flash layout of the ROMFS image (tools/romfs.py, `make uf2`): firmware,
ROMFS partition and littlefs never overlap, the game's image fits its
partition with room to grow, and the UF2 puts each part where the
firmware's binary info says."""

import struct

import pytest

from tools import deploy, romfs, uf2

MPY_CROSS = deploy.find_mpy_cross()
# What the measured sizes leave (tools/romfs.py): the code may grow by this
# much before the partition must, and the firmware by FIRMWARE_ROOM.
CODE_ROOM = 48 * 1024
FIRMWARE_MEASURED = 0x53700  # MicroPython 1.28 RPI_PICO, ROMFS variant
FIRMWARE_ROOM = 32 * 1024
FS_ROOM = 128 * 1024  # littlefs left for saves, as test_deploy asks of the stock tree


def test_the_partitions_follow_each_other_and_fill_the_flash():
    assert romfs.ROMFS_OFFSET + romfs.ROMFS_BYTES == romfs.FS_OFFSET  # rp2_flash.c's placement
    assert (romfs.FS_OFFSET, romfs.FS_BYTES) == (uf2.FS_OFFSET, uf2.FS_BYTES)  # stock littlefs
    assert romfs.FS_OFFSET + romfs.FS_BYTES == romfs.FLASH_BYTES
    assert "MICROPY_HW_ROMFS_BYTES=(%d*1024)" % (romfs.ROMFS_BYTES // 1024) in romfs.VARIANT_TEXT
    room = romfs.check_layout(FIRMWARE_MEASURED, (romfs.ROMFS_OFFSET, romfs.ROMFS_BYTES),
                              (romfs.FS_OFFSET, romfs.FS_BYTES))
    assert room["firmware"] >= FIRMWARE_ROOM


@pytest.mark.parametrize("board", deploy.board_names())
def test_the_games_image_fits_with_room_to_grow(board, tmp_path):
    dest = tmp_path / "stage"
    manifest = deploy.stage_romfs(board, dest, MPY_CROSS, log=lambda *a: None)
    size = manifest["romfs"]["size"]
    room = romfs.check_layout(FIRMWARE_MEASURED, (romfs.ROMFS_OFFSET, romfs.ROMFS_BYTES),
                              (romfs.FS_OFFSET, romfs.FS_BYTES), size)
    print("%s: ROMFS image %d bytes, %d KB free" % (board, size, room["romfs"] // 1024))
    assert room["romfs"] >= CODE_ROOM, (board, size)
    fs = uf2.lfs_volume(dest, romfs.FS_BYTES)
    free = (romfs.FS_BYTES // uf2.BLOCK_SIZE - fs.used_block_count) * uf2.BLOCK_SIZE
    assert free >= FS_ROOM, (board, free)


def test_overlaps_and_an_image_too_large_are_refused():
    part, fs = (0x60000, 0x40000), (0xA0000, 0x160000)
    with pytest.raises(romfs.RomfsError, match="into the ROMFS partition"):
        romfs.check_layout(0x60100, part, fs)
    with pytest.raises(romfs.RomfsError, match="overlaps the file system"):
        romfs.check_layout(0x50000, (0x60000, 0x41000), fs)
    with pytest.raises(romfs.RomfsError, match="past the 2 MB flash"):
        romfs.check_layout(0x50000, part, (0xA0000, 0x170000))
    with pytest.raises(romfs.RomfsError, match="make the partition larger"):
        romfs.check_layout(0x50000, part, fs, 0x40001)
    assert romfs.check_layout(0x50000, part, fs, 0x30000) == {"firmware": 0x10000,
                                                             "romfs": 0x10000}


def fake_firmware(devices, size=0x2000):
    """A firmware's flash contents whose binary info (the pico-sdk layout)
    declares the block devices {name: (offset, bytes)}; as UF2 bytes."""
    flash = bytearray(size)
    base = romfs.XIP_BASE
    entries, names = 0x300, 0x600
    pointers = []
    for i, (name, (offset, nbytes)) in enumerate(devices.items()):
        at, name_at = entries + 0x20 * i, names + 0x20 * i
        flash[name_at:name_at + len(name) + 1] = name.encode() + b"\0"
        struct.pack_into("<HHIIIIH", flash, at, romfs.BI_TYPE_BLOCK_DEVICE, 0x504D,
                         base + name_at, base + offset, nbytes, 0, 3)
        pointers.append(base + at)
    struct.pack_into("<%dI" % len(pointers), flash, 0x200, *pointers)
    struct.pack_into("<5I", flash, 0x110, romfs.BI_MARKER_START, base + 0x200,
                     base + 0x200 + 4 * len(pointers), base + 0x280, romfs.BI_MARKER_END)
    n = size // uf2.PAYLOAD
    return b"".join(uf2.make_block(uf2.FLAG_FAMILY_ID, base + i * uf2.PAYLOAD,
                                   bytes(flash[i * uf2.PAYLOAD:(i + 1) * uf2.PAYLOAD]), i, n,
                                   uf2.RP2040_FAMILY) for i in range(n))


def test_the_partitions_are_read_from_the_binary_info():
    fw = fake_firmware({"MicroPython": (0xA0000, 0x160000), "ROMFS": (0x60000, 0x40000)})
    flash = romfs.flash_bytes(uf2.parse_blocks(fw))
    assert romfs.partitions(flash) == {"MicroPython": (0xA0000, 0x160000),
                                       "ROMFS": (0x60000, 0x40000)}
    assert romfs.partitions(bytes(0x2000)) == {}


def test_make_uf2_puts_firmware_romfs_and_littlefs_where_the_firmware_says(tmp_path):
    fw = fake_firmware({"MicroPython": (0xA0000, 0x160000), "ROMFS": (0x60000, 0x40000)})
    data, summary = uf2.make("pico_ssd1306_i2c", fw, tmp_path / "stage", log=lambda *a: None)
    assert "ROMFS image" in summary
    blocks = uf2.parse_blocks(data)
    addrs = [addr - romfs.XIP_BASE for _, addr, _, _ in blocks]
    assert len(addrs) == len(set(addrs))  # nothing written twice
    image = (tmp_path / "stage.romfs").read_bytes()
    flash = romfs.flash_bytes(blocks)
    assert flash[0x60000:0x60000 + len(image)] == image
    assert all(a < 0x2000 or 0x60000 <= a < 0x60000 + len(image) or a >= 0xA0000
               for a in addrs)
    fs = romfs.flash_bytes(blocks)[0xA0000:]
    from tools.chipbench.stage import mount_image

    lfs = mount_image(fs)
    assert sorted(lfs.listdir("/")) == ["board.txt", "data", "deploy.json", "main.py", "tables"]


def test_a_stock_firmware_gets_the_whole_tree_in_littlefs(tmp_path):
    fw = fake_firmware({"MicroPython": (0xA0000, 0x160000)})
    data, summary = uf2.make("pico_ssd1306_i2c", fw, tmp_path / "stage", log=lambda *a: None)
    assert "no ROMFS partition" in summary
    from tools.chipbench.stage import mount_image

    lfs = mount_image(romfs.flash_bytes(uf2.parse_blocks(data))[0xA0000:])
    assert "firmware" in lfs.listdir("/")


def test_the_romfs_image_is_added_to_an_elf_as_a_load_segment():
    head = bytearray(52)
    head[:6] = b"\x7fELF\x01\x01"
    struct.pack_into("<I", head, 0x1C, 52)
    struct.pack_into("<HH", head, 0x2A, 32, 1)
    elf = bytes(head) + struct.pack("<8I", 1, 84, 0x10000000, 0x10000000, 16, 16, 5, 4) + \
        b"C" * 16
    out = romfs.elf_with_load(elf, b"ROMFS-IMAGE", 0x10060000)
    (phoff,) = struct.unpack_from("<I", out, 0x1C)
    (phnum,) = struct.unpack_from("<H", out, 0x2C)
    assert phnum == 2
    kind, off, _va, pa, filesz = struct.unpack_from("<5I", out, phoff + 32)
    assert (kind, pa, filesz) == (1, 0x10060000, 11)
    assert out[off:off + filesz] == b"ROMFS-IMAGE"
    with pytest.raises(romfs.RomfsError, match="overlaps"):
        romfs.elf_with_load(elf, b"x" * 32, 0x10000008)
