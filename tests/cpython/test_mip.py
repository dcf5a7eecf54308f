"""package.json (and package-BOARD.json) for `mpremote mip install`: the
files are up to date with tools/mip.py, list exactly the tree tools/deploy.py
stages for their board, and mpremote's own installer, run against them on a
fake board, writes that tree."""

import json

import pytest
from mpremote import mip as mpremote_mip

from tools import deploy, mip

ROOT = deploy.ROOT
MPY_CROSS = deploy.find_mpy_cross()


BOARDS = ("pico_ssd1306_i2c", "thumby")


def quiet(*_):
    pass


@pytest.fixture(scope="module")
def staged(tmp_path_factory):
    """{board: staged tree}, each board staged once."""
    out = {}
    for board in BOARDS:
        out[board] = tmp_path_factory.mktemp("stage") / board
        deploy.stage(board, out[board], MPY_CROSS, log=quiet)
    return out


def test_the_package_files_are_up_to_date():
    assert mip.stale() == [], "run: python -m tools.mip"
    for board in deploy.board_names():
        text = (ROOT / mip.package_name(board)).read_text(encoding="utf-8")
        assert json.loads(text) == mip.package(board)


def _staged_as_sources(dest):
    """The staged tree's files as they come from mip (.py for .mpy), deploy.json left out."""
    out = set()
    for path in dest.rglob("*"):
        rel = path.relative_to(dest).as_posix()
        if path.is_file() and rel != deploy.MANIFEST:
            out.add(rel[:-4] + ".py" if rel.endswith(".mpy") else rel)
    return out


@pytest.mark.parametrize("board", BOARDS)
def test_a_package_lists_exactly_the_staged_files_of_its_board(board, staged):
    from firmware.board import DEFAULT_BOARD

    assert (mip.package_name(board) == "package.json") == (board == DEFAULT_BOARD)
    dest = staged[board]
    pairs = json.loads((ROOT / mip.package_name(board)).read_text(encoding="utf-8"))["urls"]
    targets = [t for t, _ in pairs]
    assert len(targets) == len(set(targets))
    assert set(targets) == _staged_as_sources(dest)
    for target, url in pairs:  # every URL is a file of the repository, relative
        assert not url.startswith(("http", "github:", "/")) and (ROOT / url).is_file(), url
        if target.endswith(".py") and target != deploy.MAIN:
            assert url == target
    got = dict(pairs)
    assert (ROOT / got[deploy.MAIN]).read_text() == (dest / deploy.MAIN).read_text()
    assert (ROOT / got[deploy.BOARD_FILE]).read_text() == (dest / deploy.BOARD_FILE).read_text()


class FakeBoard:
    """The filesystem calls mpremote's installer makes, into a local folder
    that stands for the board's root (the current folder at power-on)."""

    def __init__(self, root):
        self.root = root

    def _path(self, path):
        assert path.startswith("./"), path  # `--target .`
        return self.root / path[2:]

    def fs_exists(self, path):
        return path == "." or self._path(path).exists()

    def fs_mkdir(self, path):
        self._path(path).mkdir()

    def fs_writefile(self, path, data, progress_callback=None):
        self._path(path).write_bytes(data)


@pytest.mark.parametrize("board", BOARDS)
def test_mpremote_mip_installs_the_staged_tree(board, staged, tmp_path, capsys):
    root = tmp_path / "board"
    root.mkdir()
    # A local package file takes the same path through the installer as a
    # github: one (relative URLs against the package file's folder).
    mpremote_mip._install_json(FakeBoard(root), str(ROOT / mip.package_name(board)),
                               "https://micropython.org/pi/v2", ".", None, False)
    capsys.readouterr()
    dest = staged[board]
    got = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    assert got == _staged_as_sources(dest)
    assert (root / "board.txt").read_text() == board + "\n"
    for rel in got:
        written = (deploy.MAIN, deploy.BOARD_FILE, deploy.TITLE_FRAME)  # by staging
        src = ROOT / rel if rel not in written else dest / rel
        assert (root / rel).read_bytes() == src.read_bytes(), rel
