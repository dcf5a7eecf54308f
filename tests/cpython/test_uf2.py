"""tools.uf2: stock firmware UF2 + the staged tree as littlefs, checked block by block and
mounted again with littlefs-python (and with MicroPython's own VfsLfs2 when the Unix port
is installed)."""

import hashlib
import random
import struct
import subprocess

import pytest

from tools import deploy, uf2
from tools.mptest import find_micropython

littlefs = pytest.importorskip("littlefs")

FW_BLOCKS = 40


def fake_firmware(blocks=FW_BLOCKS, family=uf2.RP2040_FAMILY, start=uf2.XIP_BASE, seed=1):
    """A synthetic 'stock firmware' UF2: random payloads from `start` on."""
    rng = random.Random(seed)
    return b"".join(
        uf2.make_block(uf2.FLAG_FAMILY_ID, start + i * 256, rng.randbytes(256), i, blocks, family)
        for i in range(blocks)
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    dest = tmp_path_factory.mktemp("uf2") / "stage"
    deploy.stage(deploy.board_names()[0], dest, log=lambda *_: None)
    return dest


@pytest.fixture(scope="module")
def built(tree):
    firmware = fake_firmware()
    return firmware, uf2.build(firmware, tree)


def raw_blocks(data):
    """[(header tuple, payload)] straight from the bytes."""
    out = []
    for i in range(0, len(data), 512):
        head = struct.unpack_from("<8I", data, i)
        out.append((head, data[i + 32:i + 32 + head[4]]))
    return out


def test_every_block_valid_and_numbered(built):
    firmware, out = built
    fs_blocks = uf2.FS_BYTES // 256
    blocks = uf2.parse_blocks(out)  # magics, family, sizes, numbering: raises when wrong
    assert len(blocks) == FW_BLOCKS + fs_blocks == len(out) // 512
    for i, (head, _) in enumerate(raw_blocks(out)):
        assert head[5] == i and head[6] == len(blocks)
        assert struct.unpack_from("<I", out, i * 512 + 508)[0] == uf2.MAGIC_END


def test_addresses_monotonic_and_disjoint(built):
    _, out = built
    addrs = [addr for _, addr, _, _ in uf2.parse_blocks(out)]
    assert all(b >= a + 256 for a, b in zip(addrs, addrs[1:], strict=False))
    assert addrs[-1] + 256 == uf2.XIP_BASE + 2 * 1024 * 1024


def test_firmware_blocks_unchanged(built):
    firmware, out = built
    before = raw_blocks(firmware)
    after = raw_blocks(out)[:FW_BLOCKS]
    for (h0, p0), (h1, p1) in zip(before, after, strict=True):
        assert p0 == p1
        assert h0[:5] == h1[:5] and h0[7] == h1[7]  # flags, address, size, family
    for i in range(FW_BLOCKS):  # the data area past the payload too (all zero)
        assert out[i * 512 + 32:i * 512 + 512] == firmware[i * 512 + 32:i * 512 + 512]


def test_filesystem_at_the_rp2_offset(built):
    _, out = built
    fs = uf2.parse_blocks(out)[FW_BLOCKS:]
    assert uf2.FS_OFFSET == 0xA0000
    assert fs[0][1] == 0x100A0000
    assert [addr for _, addr, _, _ in fs] == list(range(0x100A0000, 0x10200000, 256))


def mount(out):
    image = b"".join(p for _, _, p, _ in uf2.parse_blocks(out)[FW_BLOCKS:])
    assert len(image) == uf2.FS_BYTES
    ctx = littlefs.UserContext(buffer=bytearray(image))
    fs = littlefs.LittleFS(context=ctx, block_count=uf2.FS_BYTES // 4096, mount=False,
                           **uf2.LFS_CONFIG)
    fs.mount()
    return fs, image


def test_filesystem_mounts_and_holds_the_tree(built, tree):
    _, out = built
    fs, _ = mount(out)
    seen_files = {}
    seen_dirs = set()
    for top, dirs, files in fs.walk("/"):
        base = top.strip("/")
        for d in dirs:
            seen_dirs.add((base + "/" + d).lstrip("/"))
        for name in files:
            path = (base + "/" + name).lstrip("/")
            with fs.open(path, "rb") as f:
                seen_files[path] = f.read()
    expected = {p.relative_to(tree).as_posix(): p.read_bytes()
                for p in tree.rglob("*") if p.is_file()}
    assert seen_files == expected
    assert seen_dirs == {p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_dir()}
    assert "data" in seen_dirs and "main.py" in seen_files and "deploy.json" in seen_files


def test_image_mounts_in_micropython(built, tree, tmp_path):
    """MicroPython's own littlefs (the Unix port) reads the image as the rp2 port would."""
    mp = find_micropython()
    if mp is None:
        pytest.skip("micropython (Unix port) not installed")
    _, out = built
    _, image = mount(out)
    (tmp_path / "fs.img").write_bytes(image)
    script = tmp_path / "mount.py"
    script.write_text(MOUNT_SCRIPT)
    proc = subprocess.run([mp, str(script), str(tmp_path / "fs.img")], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    expected = {p.relative_to(tree).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in tree.rglob("*") if p.is_file()}
    assert got == expected


MOUNT_SCRIPT = """
import sys, os, vfs, hashlib, binascii

class Flash:  # rp2.Flash over a file: 4096-byte blocks
    def __init__(self, path):
        self.f = open(path, "r+b")
    def readblocks(self, n, buf, off=0):
        self.f.seek(n * 4096 + off)
        self.f.readinto(buf)
    def writeblocks(self, n, buf, off=0):
        self.f.seek(n * 4096 + off)
        self.f.write(buf)
    def ioctl(self, op, arg):
        if op == 4:
            return %d
        if op == 5:
            return 4096
        if op == 6:
            self.f.seek(arg * 4096)
            self.f.write(b"\\xff" * 4096)
        return 0

vfs.mount(vfs.VfsLfs2(Flash(sys.argv[1]), progsize=256), "/flash")

def walk(path, rel):
    for entry in os.ilistdir(path):
        name = entry[0]
        if entry[1] & 0x4000:
            walk(path + "/" + name, rel + name + "/")
        else:
            with open(path + "/" + name, "rb") as f:
                digest = hashlib.sha256(f.read()).digest()
            print(rel + name, binascii.hexlify(digest).decode())

walk("/flash", "")
""" % (uf2.FS_BYTES // 4096)


# ---------------------------------------------------------------- bad input


def test_rejects_non_uf2():
    with pytest.raises(uf2.Uf2Error, match="no UF2 magic"):
        uf2.parse_blocks(b"\x7fELF" + bytes(508))
    with pytest.raises(uf2.Uf2Error, match="not a whole number"):
        uf2.parse_blocks(fake_firmware()[:-100])
    with pytest.raises(uf2.Uf2Error, match="empty"):
        uf2.parse_blocks(b"")
    bad_end = bytearray(fake_firmware(2))
    bad_end[511] ^= 0xFF
    with pytest.raises(uf2.Uf2Error, match="no UF2 magic"):
        uf2.parse_blocks(bytes(bad_end))


def test_rejects_other_chip():
    with pytest.raises(uf2.Uf2Error, match="RP2350"):
        uf2.parse_blocks(fake_firmware(family=0xE48BFF59))
    with pytest.raises(uf2.Uf2Error, match="another chip"):
        uf2.parse_blocks(fake_firmware(family=0x12345678))


def test_rejects_incomplete_numbering():
    whole = fake_firmware(4)
    with pytest.raises(uf2.Uf2Error, match="damaged or incomplete"):
        uf2.parse_blocks(whole[:512 * 3])  # numbered "of 4" but only 3


def test_rejects_firmware_reaching_the_filesystem(tree):
    start = uf2.XIP_BASE + uf2.FS_OFFSET - 2 * 256
    with pytest.raises(uf2.Uf2Error, match="filesystem area"):
        uf2.build(fake_firmware(4, start=start), tree)


def test_command_line(tree, tmp_path, capsys):
    fw = tmp_path / "micropython.uf2"
    fw.write_bytes(fake_firmware())
    out = tmp_path / "out.uf2"
    assert uf2.main(["--board", deploy.board_names()[0], "--firmware", str(fw),
                     "--out", str(out)]) == 0
    assert len(uf2.parse_blocks(out.read_bytes())) == FW_BLOCKS + uf2.FS_BYTES // 256
    fw.write_bytes(fake_firmware(family=0xE48BFF59))
    assert uf2.main(["--board", deploy.board_names()[0], "--firmware", str(fw),
                     "--out", str(out)]) == 1
    assert "RP2350" in capsys.readouterr().err
    assert uf2.main(["--board", deploy.board_names()[0]]) == 1
    assert "FIRMWARE=" in capsys.readouterr().err
