"""firmware.splash: the kept title first, else the shipped one, else
nothing; a damaged file never shows a wrong picture. Runs under CPython and
MicroPython, on the fake board's display driver and panel model."""

# isort: off
from tests.both.helpers import device_rig, rmtree, tmpdir  # (first: the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
# isort: on

from firmware import splash  # noqa: E402
from firmware.board import make_display  # noqa: E402


def _frame(seed, size=1024):
    """A made-up picture of `size` bytes (no two seeds alike)."""
    return bytes((seed * 37 + i * 11) & 0xFF for i in range(size))


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def _rig():
    """(display, panel model, folder) on a fresh fake board."""
    board, model, _ = device_rig()
    return make_display(board, machine), model, tmpdir("zt-splash")


def test_the_kept_title_goes_on_the_panel_first():
    display, model, folder = _rig()
    try:
        _write(folder + "/kept", _frame(1))
        _write(folder + "/shipped", _frame(2))
        assert splash.show(display, folder + "/kept", folder + "/shipped")
        assert model.frame() == _frame(1)
        assert model.on
    finally:
        rmtree(folder)


def test_without_a_kept_title_the_shipped_one_is_shown():
    display, model, folder = _rig()
    try:
        _write(folder + "/shipped", _frame(2))
        assert splash.show(display, folder + "/kept", folder + "/shipped")
        assert model.frame() == _frame(2)
        assert model.on
    finally:
        rmtree(folder)


def test_a_wrong_sized_kept_title_gives_way_to_the_shipped_one():
    for damaged in (_frame(1)[:700], _frame(1) + b"\x00", b""):
        display, model, folder = _rig()
        try:
            _write(folder + "/kept", damaged)
            _write(folder + "/shipped", _frame(2))
            assert splash.show(display, folder + "/kept", folder + "/shipped")
            assert model.frame() == _frame(2)
        finally:
            rmtree(folder)


def test_nothing_usable_shows_nothing_and_leaves_the_buffer_blank():
    for shipped in (None, "missing", _frame(2)[:100]):
        display, model, folder = _rig()
        try:
            _write(folder + "/kept", _frame(1)[:512])
            path = None
            if shipped is not None:
                path = folder + "/shipped"
                if not isinstance(shipped, str):
                    _write(path, shipped)
            assert not splash.show(display, folder + "/kept", path)
            assert not model.on  # the panel stays dark until the app's first frame
            assert bytes(display.buffer) == bytes(len(display.buffer))
        finally:
            rmtree(folder)


def test_remember_keeps_the_new_picture_for_the_next_boot():
    display, model, folder = _rig()
    try:
        kept = folder + "/kept"
        display.buffer[:] = _frame(3)
        splash.remember(display, kept)
        with open(kept, "rb") as f:
            assert f.read() == _frame(3)
        display.buffer[:] = _frame(4)  # the picture changed (a save, another language)
        splash.remember(display, kept)
        display.fill(0)
        assert splash.show(display, kept, None)
        assert model.frame() == _frame(4)
    finally:
        rmtree(folder)


def test_remember_on_a_full_or_missing_folder_loses_nothing():
    display, _, folder = _rig()
    try:
        display.buffer[:] = _frame(5)
        splash.remember(display, folder + "/no-such-folder/kept")  # no exception
        assert bytes(display.buffer) == _frame(5)
    finally:
        rmtree(folder)


def test_the_shipped_title_is_found_in_the_romfs_partition():
    """With the game's code in a ROMFS partition (tools/romfs.py) the
    shipped title is there too, under splash.ROM, not on the file system."""
    display, model, folder = _rig()
    rom = splash.ROM
    try:
        _write(folder + "/zt-shipped.frm", _frame(3))  # the folder stands for the partition
        splash.ROM = folder
        assert splash.show(display, folder + "/kept", "/zt-shipped.frm")
        assert model.frame() == _frame(3)
    finally:
        splash.ROM = rom
        rmtree(folder)
