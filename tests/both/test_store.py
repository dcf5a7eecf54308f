"""Tests of firmware.store on MemFS and on DirFS in a temporary folder.
Run under CPython (pytest) and MicroPython (mprun)."""

import os

from engine import codec
from engine.crc import crc32
from firmware.store import (
    DirFS,
    NoSave,
    SaveDamaged,
    SaveFailed,
    Store,
)
from tests.both.helpers import raises, rmtree, tmpdir
from tools.fakes.memfs import MemFS

KIND = 0x53  # "S": a settings-like file
GAME = [3, "Anna", [450, 1200, -50], [1, 5, 5], None, True, b"\x00\xff"]
LATER = [4, "Anna", [450, 1650, -50], [], None, False, b""]


def each_fs(check):
    """Run `check(fs, names)` on a MemFS and on a DirFS; `names()` lists the files."""
    mem = MemFS()
    check(mem, lambda: sorted(mem.files))
    path = tmpdir()
    try:
        check(DirFS(path), lambda: sorted(os.listdir(path)))
    finally:
        rmtree(path)


def rewrite(fs, name, change):
    """Replace file `name` with `change(bytearray of it)`."""
    data = bytearray(fs.read(name))
    fs.write(name, bytes(change(data)))


def old_version(blob):
    """`blob` as an older codec version would have written it (CRC fixed)."""
    b = bytearray(blob[:-4])
    b[3] = codec.VERSION - 1
    crc = crc32(b)
    for shift in (24, 16, 8, 0):
        b.append((crc >> shift) & 0xFF)
    return bytes(b)


def test_round_trip():
    def check(fs, names):
        s = Store(fs)
        n = s.save("game", KIND, GAME)
        assert n == len(codec.pack(GAME, KIND))
        assert s.bytes_written == n
        value, note = s.load("game", KIND)
        assert value == GAME and note is None
        assert names() == ["game"]
        # A fresh Store (a reboot) reads the same.
        assert Store(fs).load("game", KIND) == (GAME, None)

    each_fs(check)


def test_bak_kept_and_no_leftovers():
    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        s.save("game", KIND, LATER)
        assert names() == ["game", "game.bak"]
        assert codec.unpack(fs.read("game.bak"), KIND) == GAME
        assert s.load("game", KIND) == (LATER, None)
        s.save("game", KIND, [1])
        assert codec.unpack(fs.read("game.bak"), KIND) == LATER
        assert names() == ["game", "game.bak"]

    each_fs(check)


def test_names_are_independent():
    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        s.save("stats", KIND, [1, 2])
        assert s.load("stats", KIND) == ([1, 2], None)
        assert s.load("game", KIND) == (GAME, None)
        raises(NoSave, s.load, "settings", KIND)

    each_fs(check)


def test_damaged_main_falls_back_to_bak():
    def flip(b):
        b[10] ^= 0x04
        return b

    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        s.save("game", KIND, LATER)
        rewrite(fs, "game", flip)
        value, note = s.load("game", KIND)
        assert value == GAME
        assert "damaged" in note, note  # the newest state is lost: say so

    each_fs(check)


def test_truncated_main_falls_back_to_bak():
    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        s.save("game", KIND, LATER)
        rewrite(fs, "game", lambda b: b[:-3])
        value, note = s.load("game", KIND)
        assert value == GAME
        assert "truncated" in note, note
        rewrite(fs, "game", lambda b: b[:0])  # an empty file
        assert s.load("game", KIND)[0] == GAME

    each_fs(check)


def test_older_codec_version():
    def check(fs, names):
        s = Store(fs)
        fs.write("game", old_version(codec.pack(GAME, KIND)))
        err = raises(SaveDamaged, s.load, "game", KIND)
        assert "older version" in err.reason, err.reason
        # With a good .bak, that copy is used and the note says why.
        fs.write("game.bak", codec.pack(LATER, KIND))
        value, note = s.load("game", KIND)
        assert value == LATER
        assert "older version" in note, note

    each_fs(check)


def test_no_save_and_all_damaged():
    def check(fs, names):
        s = Store(fs)
        raises(NoSave, s.load, "game", KIND)
        fs.write("game.bak", b"rubbish")
        err = raises(SaveDamaged, s.load, "game", KIND)
        assert err.reason
        fs.write("game", codec.pack(GAME, 0x47))  # another kind
        err = raises(SaveDamaged, s.load, "game", KIND)
        assert "another kind" in err.reason, err.reason

    each_fs(check)


def test_unfinished_save_is_completed():
    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        # The power went off after game -> game.bak, before game.new -> game.
        fs.write("game.new", codec.pack(LATER, KIND))
        fs.rename("game", "game.bak")
        value, note = s.load("game", KIND)
        assert value == LATER and note is None, note  # the newest state: no alarm
        # The next save keeps LATER as the previous copy.
        s.save("game", KIND, [7])
        assert s.load("game", KIND) == ([7], None)
        assert codec.unpack(fs.read("game.bak"), KIND) == LATER
        assert names() == ["game", "game.bak"]

    each_fs(check)


def test_unfinished_first_save_is_no_save():
    """A cut in the very first save leaves only an empty or partial
    name.new: no save (has is False, load raises NoSave), and the next save
    writes over it."""
    blob = codec.pack(GAME, KIND)
    for left in (b"", blob[:5], blob[:-1]):
        def check(fs, names, left=left):
            s = Store(fs)
            fs.write("game.new", left)
            assert not s.has("game", KIND)
            assert not s.has("game", KIND, names())
            raises(NoSave, s.load, "game", KIND)
            s.save("game", KIND, LATER)
            assert s.has("game", KIND) and s.load("game", KIND) == (LATER, None)
            assert names() == ["game"]

        each_fs(check)


def test_has_counts_every_usable_copy():
    def check(fs, names):
        s = Store(fs)
        assert not s.has("game", KIND)
        fs.write("game.new", codec.pack(GAME, KIND))  # complete, rename not done
        assert s.has("game", KIND) and s.load("game", KIND) == (GAME, None)
        fs.rename("game.new", "game.bak")
        assert s.has("game", KIND)
        fs.rename("game.bak", "game")
        assert s.has("game", KIND, names())

    each_fs(check)


def test_save_over_damaged_main_keeps_bak():
    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        s.save("game", KIND, LATER)
        rewrite(fs, "game", lambda b: b[:5])
        assert s.load("game", KIND)[0] == GAME
        s.save("game", KIND, [9])
        assert s.load("game", KIND) == ([9], None)
        # The damaged file replaced nothing: GAME is still the backup.
        assert codec.unpack(fs.read("game.bak"), KIND) == GAME

    each_fs(check)


def test_clear_removes_every_copy():
    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        s.save("game", KIND, LATER)
        fs.write("game.new", b"junk")
        s.save("stats", KIND, [1])
        s.clear("game")
        assert names() == ["stats"]
        raises(NoSave, s.load, "game", KIND)
        s.clear("game")  # nothing left: fine

    each_fs(check)


def test_unsaveable_value_fails_cleanly():
    def check(fs, names):
        s = Store(fs)
        s.save("game", KIND, GAME)
        raises(SaveFailed, s.save, "game", KIND, [1.5])
        assert s.load("game", KIND) == (GAME, None)
        assert names() == ["game"]

    each_fs(check)


def test_failed_write_keeps_previous():
    for keep in (None, 0, 9):
        fs = MemFS()
        s = Store(fs)
        n = s.save("game", KIND, GAME)
        s.save("game", KIND, LATER)
        before = dict(fs.files)
        fs.fail_next_write(keep)
        err = raises(SaveFailed, s.save, "game", KIND, [5])
        assert "flash full" in err.reason, err.reason
        assert fs.files == before  # the partial .new was removed again
        assert s.load("game", KIND) == (LATER, None)
        assert s.bytes_written == n + len(codec.pack(LATER, KIND))


def test_memfs_damage_helpers():
    fs = MemFS()
    fs.write("f", b"abcdef")
    fs.damage("f", flip=1)
    assert fs.read("f") == b"a\x9dcdef"
    fs.damage("f", truncate=2)
    assert fs.read("f") == b"a\x9d"
    raises(OSError, fs.read, "g")
    raises(OSError, fs.remove, "g")
    assert not fs.exists("g")


def test_dirfs_basics():
    path = tmpdir()
    try:
        fs = DirFS(path + "/")
        raises(OSError, fs.read, "x")
        assert not fs.exists("x")
        fs.write("x", b"12")
        fs.write("y", b"345")
        fs.rename("y", "x")  # replaces
        assert fs.read("x") == b"345" and not fs.exists("y")
        fs.remove("x")
        assert os.listdir(path) == []
    finally:
        rmtree(path)
