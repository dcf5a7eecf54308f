"""Saves and dice of the CircuitPython host: the drive given to the game at
boot (circuitpy.saves, circuitpy/boot.py's choice), a drive left to USB
(read-only for code: no save, no crash), and dice from os.urandom."""

import os

import pytest

from circuitpy import saves
from circuitpy.host import start
from engine.dice import ByteDice
from firmware.board import load_board
from firmware.store import DirFS, NoSave, SaveFailed, Store
from simulator.host import ROOT
from tests.cpython.circuitpy_fakes import FakeI2C
from tests.cpython.test_circuitpy_keys import Clock, Scanner
from tools.fakes.memfs import MemFS
from tools.fakes.oled import Oled


class Storage:
    """CircuitPython's `storage` as boot.py uses it: the remounts asked for."""

    def __init__(self):
        self.remounts = []

    def remount(self, path, readonly=False):
        self.remounts.append((path, readonly))


def test_boot_gives_the_drive_to_the_game_unless_b_is_held():
    storage = Storage()
    assert saves.remount_for_saves(storage, usb_wanted=False)
    assert storage.remounts == [("/", False)]
    held = Storage()
    assert not saves.remount_for_saves(held, usb_wanted=True)
    assert held.remounts == []  # the computer keeps the drive writable


def _read_only(monkeypatch):
    """The drive left to USB: code cannot make a folder or write a file."""

    def refuse(*args, **kwargs):
        raise OSError(saves.EROFS, "Read-only filesystem")

    monkeypatch.setattr(os, "mkdir", refuse)
    real_open = open

    def guarded_open(path, mode="r", *args, **kwargs):
        if any(m in mode for m in "wax+"):
            refuse()
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", guarded_open)


def test_a_drive_left_to_usb_gives_a_store_that_refuses_to_save(tmp_path, monkeypatch):
    _read_only(monkeypatch)
    store = saves.make_store(str(tmp_path / "data"))
    assert not store.has("game", 1)
    with pytest.raises(NoSave):
        store.load("game", 1)
    with pytest.raises(SaveFailed) as failed:
        store.save("game", 1, [1, 2])
    assert "Read-only" in failed.value.reason


def test_make_store_makes_the_folder_and_saves(tmp_path):
    store = saves.make_store(str(tmp_path / "data"))
    store.save("game", 1, [1, 2, 3])
    again = saves.make_store(str(tmp_path / "data"))
    assert again.load("game", 1)[0] == [1, 2, 3]


def test_other_folder_errors_are_not_hidden(tmp_path, monkeypatch):
    def broken(*args):
        raise OSError(5, "I/O error")

    monkeypatch.setattr(os, "mkdir", broken)
    with pytest.raises(OSError):
        saves.make_store(str(tmp_path / "data"))


def test_the_host_rolls_with_os_urandom(monkeypatch):
    calls = []
    real = os.urandom

    def urandom(n):
        calls.append(n)
        return real(n)

    monkeypatch.setattr(os, "urandom", urandom)
    board = load_board("pico_ssd1306_i2c")
    dev = start(board, FakeI2C(Oled("ssd1306", 128, 64)), Scanner(), Clock(),
                store=Store(MemFS()), tables=DirFS(str(ROOT / "tables")))
    assert dev is not None
    assert calls and calls[0] == 64  # the start-up self-test of the source
    dice = dev.app.dice
    assert isinstance(dice, ByteDice)
    faces = [dice.face() for _ in range(600)]
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert len(calls) >= 2  # the faces came from os.urandom too


def test_a_stuck_random_source_stops_the_host_with_a_message():
    board = load_board("pico_ssd1306_i2c")
    oled = Oled("ssd1306", 128, 64)
    dev = start(board, FakeI2C(oled), Scanner(), Clock(), entropy=lambda n: bytes(n),
                store=Store(MemFS()), tables=DirFS(str(ROOT / "tables")))
    assert dev is None
    assert any("#" in row for row in oled.rows())  # the message is on the panel
