"""tools.deploy (staging, copying only what changed, refusals) and tools.pull_stats,
against a fake board: no hardware needed."""

import hashlib
import json
import subprocess

import pytest

from engine.codec import pack
from tools import deploy, pull_stats
from tools.mptest import find_micropython, has_native_code

ROOT = deploy.ROOT
BOARDS = deploy.board_names()
MPY_CROSS = deploy.find_mpy_cross()
MPY_VERSION = deploy.mpy_cross_version(MPY_CROSS)
RP2_INFO = ((1, 28, 0), MPY_VERSION[0] | MPY_VERSION[1] << 8 | 4 << 10, "rp2",
            "Raspberry Pi Pico with RP2040")


def quiet(*_):
    pass


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """{board: (dest, manifest)}, each board staged once."""
    out = {}
    for board in BOARDS:
        dest = tmp_path_factory.mktemp("stage") / board
        out[board] = dest, deploy.stage(board, dest, MPY_CROSS, log=quiet)
    return out


class FakeDevice:
    """An in-memory board with the interface of deploy.Device."""

    def __init__(self, files=None, info=RP2_INFO, hashlib_ok=True, partition=None):
        self.fs = dict(files or {})
        self.partition = partition  # ROMFS: None (stock), or [size, the image's bytes]
        self.removed_dirs = []
        self._info = info
        self.hashlib_ok = hashlib_ok
        self.written = []
        self.removed = []
        self.dirs = set()
        self.was_reset = False
        self.closed = False

    def __call__(self, port):  # the device factory
        self.port = port
        return self

    def info(self):
        return self._info

    def files(self, dirs, names):
        out = {}
        for path, data in self.fs.items():
            if path in names or path.split("/")[0] in dirs:
                digest = hashlib.sha256(data).hexdigest() if self.hashlib_ok else None
                out[path] = (len(data), digest)
        return out

    def read(self, path):
        return self.fs.get(path)

    def romfs(self):
        if self.partition is None:
            return None
        size, image = self.partition
        return size, hashlib.sha256(image).hexdigest() if image else None

    def rmtree(self, dirs):
        for d in dirs:
            gone = [p for p in self.fs if p.split("/")[0] == d]
            for p in gone:
                del self.fs[p]
            if gone:
                self.removed_dirs.append(d)

    def makedirs(self, dirs):
        self.dirs.update(dirs)

    def write(self, path, data, progress=None):
        self.fs[path] = bytes(data)
        self.written.append(path)

    def remove(self, path):
        del self.fs[path]
        self.removed.append(path)

    def reset(self):
        self.was_reset = True
        self.closed = True

    def close(self):
        self.closed = True


def tree_files(dest):
    return {p.relative_to(dest).as_posix(): p.read_bytes() for p in dest.rglob("*") if p.is_file()}


# ---------------------------------------------------------------- staging


@pytest.mark.parametrize("board", BOARDS)
def test_stage_has_every_module_compiled(staged, board):
    dest, manifest = staged[board]
    for package in ("engine", "firmware"):
        for src in (ROOT / package).rglob("*.py"):
            rel = src.relative_to(ROOT).with_suffix(".mpy")
            mpy = (dest / rel).read_bytes()
            assert mpy[:2] == b"M" + bytes([MPY_VERSION[0]]), rel
    assert (dest / "boards" / "__init__.mpy").exists()
    assert (dest / "boards" / (board + ".mpy")).exists()
    extra = set(deploy.referenced_boards())
    for other in BOARDS:
        if other != board and other not in extra:
            assert not (dest / "boards" / (other + ".mpy")).exists()
    sources = [p for p in dest.rglob("*.py")]
    assert [p.relative_to(dest).as_posix() for p in sources] == ["main.py"]
    assert (dest / "board.txt").read_text().strip() == board
    assert (dest / "data").is_dir()
    # the tests' file doubles stay on the PC (tools/fakes/memfs.py)
    assert not (dest / "tests").exists()
    for mpy in dest.rglob("*.mpy"):
        assert b"MemFS" not in mpy.read_bytes() and b"PowerCut" not in mpy.read_bytes(), mpy


@pytest.mark.parametrize("board", BOARDS)
def test_main_py_is_tiny_and_starts_the_firmware(staged, board):
    dest, _ = staged[board]
    text = (dest / "main.py").read_text()
    assert len(text) < 200
    assert "firmware.main" in text
    compile(text, "main.py", "exec")


@pytest.mark.parametrize("board", BOARDS)
def test_staged_tree_imports_under_micropython(staged, board):
    """The Unix port, run in the staged tree, imports the .mpy files and finds the board."""
    mp = find_micropython()
    if mp is None:
        pytest.skip("micropython (Unix port) not installed")
    dest, manifest = staged[board]
    mods = sorted(p[:-4].replace("/", ".") for p in manifest["files"] if p.endswith(".mpy"))
    mods = [m[:-9] if m.endswith(".__init__") else m for m in mods]
    # Machine code for the board's Cortex-M0+ cannot load here: the port must
    # say so (firmware.font then keeps its Python loops), and nothing else may.
    native = [m for m in mods if (ROOT / (m.replace(".", "/") + ".py")).exists()
              and has_native_code(ROOT / (m.replace(".", "/") + ".py"))]
    assert native == ["firmware.native"]
    mods = [m for m in mods if m not in native]
    code = "import sys\nsys.path[:] = ['']\nfor m in %r:\n __import__(m)\n" % mods
    if (ROOT / "firmware" / "device.py").exists():
        code += "import firmware.board\nprint(firmware.board.board_name())\n"
    proc = subprocess.run([mp, "-c", code], cwd=dest, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    probe = ("import sys\nsys.path[:] = ['']\ntry:\n import firmware.native\n"
             "except ValueError as e:\n print(e)\n")
    probed = subprocess.run([mp, "-c", probe], cwd=dest, capture_output=True, text=True,
                            timeout=300)
    assert "incompatible .mpy arch" in probed.stdout, probed.stdout + probed.stderr
    if "firmware/device.mpy" in manifest["files"]:
        assert proc.stdout.split()[-1] == board


@pytest.mark.parametrize("board", BOARDS)
def test_shipped_title_is_the_first_frame_of_a_fresh_device(staged, board):
    """firmware/title.frm (shown at the first power-on, firmware.splash) is
    exactly the panel a fresh device shows once its app has drawn: the boot
    on the fake board with an empty store, the splash skipped."""
    # isort: off
    from tests.both.helpers import device_rig  # (first: it puts the fakes on sys.path)
    import machine  # the fake
    # isort: on
    from engine.dice import SeededDice
    from firmware import device, splash
    from firmware.store import Store
    from tools.fakes.memfs import MemFS

    dest, manifest = staged[board]
    assert "/" + deploy.TITLE_FRAME == splash.SHIPPED
    assert deploy.TITLE_FRAME in manifest["files"]
    shipped = (dest / deploy.TITLE_FRAME).read_bytes()
    fake_board, model, clock = device_rig(board)
    dev = device.start(fake_board, machine, clock, dice=SeededDice(1), store=Store(MemFS()),
                       tables=None)
    assert dev is not None
    dev.loop(1)
    assert dev.app.top().name == "title"
    assert len(shipped) == fake_board.WIDTH * fake_board.HEIGHT // 8
    assert model.frame() == shipped


def test_tables_copied_unchanged(staged):
    dest, manifest = staged[BOARDS[0]]
    for src in deploy.table_files():
        rel = src.relative_to(ROOT)
        assert (dest / rel).read_bytes() == src.read_bytes()
        assert rel.as_posix() in manifest["files"]


@pytest.mark.parametrize("board", BOARDS)
def test_manifest_lists_every_file_with_its_hash(staged, board):
    dest, manifest = staged[board]
    on_disk = json.loads((dest / "deploy.json").read_text())
    assert on_disk == manifest
    files = tree_files(dest)
    del files["deploy.json"]
    assert set(manifest["files"]) == set(files)
    for path, data in files.items():
        assert manifest["files"][path] == {"size": len(data),
                                           "sha256": hashlib.sha256(data).hexdigest()}
    assert "data" in manifest["dirs"] and "firmware/screens" in manifest["dirs"]
    assert manifest["board"] == board


def test_staging_is_repeatable(staged, tmp_path):
    dest, manifest = staged[BOARDS[0]]
    again = deploy.stage(BOARDS[0], tmp_path / "again", MPY_CROSS, log=quiet)
    assert again == manifest


def test_stage_refuses_a_foreign_folder(tmp_path):
    (tmp_path / "mine.txt").write_text("keep me")
    with pytest.raises(deploy.DeployError, match="not overwriting"):
        deploy.stage(BOARDS[0], tmp_path, MPY_CROSS, log=quiet)
    assert (tmp_path / "mine.txt").exists()


def test_unknown_board_refused(tmp_path):
    with pytest.raises(deploy.DeployError, match="unknown board"):
        deploy.stage("nope", tmp_path / "x", MPY_CROSS, log=quiet)


def test_root_main_calls_firmware_main_which_import_does_not_run():
    """The root main.py calls firmware.main.main(): it must exist and must
    not run at import already (a call under `if __name__ == ...` does not)."""
    import ast

    tree = ast.parse((deploy.ROOT / "firmware" / "main.py").read_text(encoding="utf-8"))
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    called = {n.value.func.id for n in tree.body if isinstance(n, ast.Expr)
              and isinstance(n.value, ast.Call) and isinstance(n.value.func, ast.Name)}
    assert "main" in defined and "main" not in called
    assert deploy.ROOT_MAIN_TEXT.endswith("from firmware.main import main\n\nmain()\n")


# ---------------------------------------------------------------- flashing


def flash(fake, board=None, finder=lambda: ["/dev/fake0"], tree=None):
    return deploy.flash(board or BOARDS[0], finder=finder, device_factory=fake,
                        mpy_cross=MPY_CROSS, tree=tree, log=quiet)


def test_flash_copies_only_what_changed(staged):
    board = BOARDS[0]
    dest, manifest = staged[board]
    files = tree_files(dest)
    del files["deploy.json"]
    names = sorted(files)
    same = names[::2]
    changed = names[1]
    missing = [n for n in names if n not in same and n != changed]
    board_fs = {n: files[n] for n in same}
    board_fs[changed] = b"old contents"
    board_fs["engine/gone.mpy"] = b"a module that no longer exists"
    board_fs["engine/codec.py"] = b"# a stale source that would shadow codec.mpy"
    board_fs["data/game"] = b"a save"
    board_fs["boot.py"] = b"# the user's own"
    board_fs["board_choice.py"] = b"BOARD = 'thumby'  # would override board.txt"
    fake = FakeDevice(board_fs)

    copied, deleted = flash(fake, board, tree=dest)

    assert fake.port == "/dev/fake0"
    assert sorted(fake.written) == sorted([changed] + missing + ["deploy.json"])
    assert fake.written[-1] == "deploy.json"
    assert sorted(fake.removed) == ["board_choice.py", "engine/codec.py", "engine/gone.mpy"]
    assert (copied, deleted) == (len(missing) + 1, 3)
    assert fake.fs["data/game"] == b"a save" and fake.fs["boot.py"] == b"# the user's own"
    assert {k: v for k, v in fake.fs.items() if k not in ("data/game", "boot.py")} == \
        tree_files(dest)
    assert "data" in fake.dirs
    assert fake.was_reset

    fake.written.clear()
    assert flash(fake, board, tree=dest) == (0, 0)
    assert fake.written == []


def test_flash_switches_board(staged):
    first, second = BOARDS[0], BOARDS[1]
    fake = FakeDevice()
    flash(fake, first)  # stages for itself
    fake.written.clear()
    flash(fake, second)
    assert "board.txt" in fake.written
    assert fake.fs["board.txt"].decode().strip() == second
    assert "boards/%s.mpy" % first in fake.removed
    assert "engine/game.mpy" not in fake.written


def test_flash_without_hashlib_trusts_the_boards_manifest(staged):
    board = BOARDS[0]
    dest, _ = staged[board]
    board_fs = tree_files(dest)
    board_fs["engine/game.mpy"] = board_fs["engine/game.mpy"][:-1] + b"?"  # same size, stale
    fake = FakeDevice(board_fs, hashlib_ok=False)
    flash(fake, board, tree=dest)
    assert fake.written == []  # it cannot tell: the manifest says the sizes and hashes match
    board_fs["engine/rules.mpy"] = b"short"
    fake = FakeDevice(board_fs, hashlib_ok=False)
    flash(fake, board, tree=dest)
    assert fake.written == ["engine/rules.mpy", "deploy.json"]


def test_no_board_says_what_to_do(capsys, monkeypatch):
    with pytest.raises(deploy.DeployError) as err:
        flash(FakeDevice(), finder=lambda: [])
    text = str(err.value)
    assert "No MicroPython board found" in text
    assert "BOOTSEL" in text and "make uf2" in text and "PORT=" in text
    monkeypatch.setattr(deploy, "find_ports", lambda: [])
    assert deploy.main(["--board", BOARDS[0]]) != 0
    assert "No MicroPython board found" in capsys.readouterr().err


def test_flash_refuses_a_tree_staged_for_another_board(staged):
    dest, _ = staged[BOARDS[0]]
    fake = FakeDevice()
    with pytest.raises(deploy.DeployError, match="was staged for"):
        flash(fake, BOARDS[1], tree=dest)
    assert fake.written == [] and fake.closed


def test_mpy_version_mismatch_refused():
    old = ((1, 18, 0), 5 | 4 << 10, "rp2", "Raspberry Pi Pico with RP2040")
    fake = FakeDevice(info=old)
    with pytest.raises(deploy.DeployError, match=r"loads \.mpy v5.*writes v%d" % MPY_VERSION[0]):
        flash(fake)
    assert fake.written == [] and fake.closed and not fake.was_reset


def test_board_without_mpy_support_or_other_port_refused():
    with pytest.raises(deploy.DeployError, match="cannot load .mpy"):
        flash(FakeDevice(info=((1, 28, 0), None, "rp2", "x")))
    with pytest.raises(deploy.DeployError, match="not the rp2 port"):
        flash(FakeDevice(info=((1, 28, 0), RP2_INFO[1], "esp32", "ESP32")))


def test_older_micropython_with_same_mpy_only_warns():
    lines = []
    info = ((1, 25, 0), RP2_INFO[1], "rp2", "Pico")
    assert deploy.check_compatible(info, MPY_VERSION, log=lines.append)
    assert "older" in lines[0]


# ---------------------------------------------------------------- pull_stats


def test_stats_blob_to_csv():
    blob = pack([["game", "winner", "points"], [1, "Anna", 10050], [2, "Bot, Mutig", None]],
                pull_stats.KIND_STATS)
    assert pull_stats.to_csv(blob) == (
        "game,winner,points\n1,Anna,10050\n2,\"Bot, Mutig\",\n")
    blob = pack([[1, 2], [3]], pull_stats.KIND_STATS)
    assert pull_stats.to_csv(blob) == "col1,col2\n1,2\n3\n"


def test_pull_stats_from_fake_board(tmp_path, capsys):
    good = pack([["a"], [1]], pull_stats.KIND_STATS)
    fake = FakeDevice({"data/stats": b"ZT damaged", "data/stats.bak": good})
    out = tmp_path / "s.csv"
    assert pull_stats.main(["--out", str(out)], finder=lambda: ["/dev/fake0"],
                           device_factory=fake) == 0
    assert out.read_text() == "a\n1\n"
    assert fake.closed

    empty = FakeDevice()
    assert pull_stats.main(["--out", str(out)], finder=lambda: ["/dev/fake0"],
                           device_factory=empty) == 1
    assert "no statistics yet" in capsys.readouterr().out
    assert pull_stats.main(["--out", str(out)], finder=lambda: []) == 1
    assert "no MicroPython board" in capsys.readouterr().err


def test_the_staged_tree_leaves_room_on_the_flash(staged):
    """The game and its tables in the Pico's littlefs volume (1408 KB,
    MicroPython's rp2 settings, tools.uf2): at least ROOM_KB stay free for
    the saves (each with .new and .bak), statistics, score pads and the
    plans of custom rule sets cached on flash (9 to 13 KB each)."""
    from tools.uf2 import BLOCK_SIZE, FS_BYTES, lfs_volume

    ROOM_KB = 128
    for board, (dest, _) in staged.items():
        fs = lfs_volume(dest)
        free_kb = (FS_BYTES // BLOCK_SIZE - fs.used_block_count) * BLOCK_SIZE // 1024
        print("%s: %d KB of %d KB free" % (board, free_kb, FS_BYTES // 1024))
        assert free_kb >= ROOM_KB, (board, free_kb)


# ---------------------------------------------------------------- ROMFS


def test_route_follows_the_boards_romfs_partition():
    """`make flash`: no ROMFS partition (stock firmware) -> files; one that
    holds the image -> romfs; one too small -> a refusal that says what to do."""
    manifest = {"romfs": {"size": 200_000, "sha256": "ab"}}
    assert deploy.route(None, manifest) == "files"
    assert deploy.route((256 * 1024, None), manifest) == "romfs"
    assert deploy.route((200_000, "cd"), manifest) == "romfs"
    with pytest.raises(deploy.DeployError, match="make uf2"):
        deploy.route((128 * 1024, None), manifest)


def test_stage_romfs_splits_code_from_the_file_system(tmp_path):
    from tools import romfs

    board = BOARDS[0]
    dest = tmp_path / "stage"
    manifest = deploy.stage_romfs(board, dest, MPY_CROSS, log=quiet)
    rom_tree, rom_file = deploy.romfs_paths(dest)
    assert not any((dest / d).exists() for d in romfs.CODE_DIRS)
    assert (rom_tree / "firmware" / "main.mpy").is_file()
    assert (rom_tree / deploy.TITLE_FRAME).is_file()  # splash.ROM + SHIPPED
    assert {"main.py", "board.txt"} <= set(manifest["files"])
    assert not any(p.split("/")[0] in romfs.CODE_DIRS for p in manifest["files"])
    data = rom_file.read_bytes()
    assert manifest["romfs"] == {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert romfs.image_size(data[:12]) == len(data)
    assert json.loads((dest / "deploy.json").read_text()) == manifest


def test_flash_to_a_romfs_board_deploys_the_image_and_keeps_the_saves(staged):
    """A board with a ROMFS partition that ran the game from files: the
    image goes into the partition (by mpremote, faked here), the code
    folders leave the file system, the saves stay; a second flash finds
    the image up to date and writes nothing."""
    board = BOARDS[0]
    dest, _ = staged[board]
    board_fs = tree_files(dest)  # an install from files, as stock firmware has it
    board_fs["data/game"] = b"a save"
    fake = FakeDevice(board_fs, partition=[256 * 1024, None])
    deployed = []

    def romfs_deploy(port, image, log):
        deployed.append(port)
        fake.partition[1] = image.read_bytes()

    copied, _ = deploy.flash(board, finder=lambda: ["/dev/fake0"], device_factory=fake,
                             mpy_cross=MPY_CROSS, log=quiet, romfs_deploy=romfs_deploy)
    assert deployed == ["/dev/fake0"]
    assert sorted(fake.removed_dirs) == ["boards", "engine", "firmware"]
    assert not any(p.split("/")[0] in ("engine", "firmware", "boards") for p in fake.fs)
    assert fake.fs["data/game"] == b"a save"
    manifest = json.loads(fake.fs["deploy.json"])
    assert manifest["romfs"]["sha256"] == hashlib.sha256(fake.partition[1]).hexdigest()
    assert copied >= 1
    assert fake.was_reset

    fake.written.clear()
    assert deploy.flash(board, finder=lambda: ["/dev/fake0"], device_factory=fake,
                        mpy_cross=MPY_CROSS, log=quiet, romfs_deploy=romfs_deploy) == (0, 0)
    assert deployed == ["/dev/fake0"] and fake.written == []
