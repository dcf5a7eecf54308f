"""The browser's saves: firmware.store on web/webhost.py's KeyFS (a stand-in
localStorage here; tests/browser runs the real one), and DirFS on a port
that numbers a missing file's error its own way (the WebAssembly port)."""

import errno
import importlib.util
import os
from pathlib import Path

import pytest

from firmware import store as store_module
from firmware.store import ENOENT, ENOSPC, DirFS, NoSave, SaveDamaged, SaveFailed, Store

ROOT = Path(__file__).resolve().parents[2]


def _webhost():
    spec = importlib.util.spec_from_file_location("webhost", ROOT / "web" / "webhost.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


webhost = _webhost()


class Reload(BaseException):
    """The page was reloaded (or the tab closed) between two storage calls:
    nothing after it runs (a BaseException, so no handler takes it)."""


class Storage:
    """localStorage's interface over a dict; `full` makes setItem fail as a
    browser does when its quota is used up."""

    def __init__(self):
        self.items = {}
        self.full = False
        self.cut_in = -1  # changes left before the page goes away (-1: never)
        self.changes = 0

    def _change(self):
        if self.cut_in == 0:
            raise Reload()
        self.cut_in -= 1
        self.changes += 1

    def getItem(self, key):  # noqa: N802 - the browser's names
        return self.items.get(key)

    def setItem(self, key, value):  # noqa: N802
        self._change()
        if self.full:
            raise RuntimeError("QuotaExceededError")
        assert isinstance(value, str)
        self.items[key] = value

    def removeItem(self, key):  # noqa: N802
        self._change()
        self.items.pop(key, None)

    def key(self, i):
        keys = list(self.items)
        return keys[i] if i < len(keys) else None

    @property
    def length(self):
        return len(self.items)


def test_keyfs_store_round_trip_and_backups():
    storage = Storage()
    storage.items["zt-board"] = "thumby"  # the page's own item is no file
    fs = webhost.KeyFS(storage)
    st = Store(fs)
    with pytest.raises(NoSave):
        st.load("game", 0x47)
    st.save("game", 0x47, [1, "eins"])
    st.save("game", 0x47, [2, "zwei"])
    assert st.load("game", 0x47) == ([2, "zwei"], None)
    assert sorted(fs.names()) == ["game", "game.bak"]
    assert sorted(storage.items) == ["zt-board", "zt/game", "zt/game.bak"]
    assert all(v.isascii() for v in storage.items.values())  # hex text, as localStorage keeps it
    # a damaged main copy: the backup comes back with a note
    storage.items["zt/game"] = "AAAA"
    value, note = st.load("game", 0x47)
    assert value == [1, "eins"] and note
    st.clear("game")
    assert fs.names() == []


def test_keyfs_missing_and_full():
    storage = Storage()
    fs = webhost.KeyFS(storage)
    for op in (lambda: fs.read("x"), lambda: fs.remove("x"), lambda: fs.rename("x", "y")):
        with pytest.raises(OSError) as e:
            op()
        assert e.value.args[0] == ENOENT
    assert not fs.exists("x")
    assert fs.append("log", b"ab") == 2 and fs.append("log", b"cd") == 4
    assert fs.read("log") == b"abcd"
    st = Store(fs)
    st.save("names", 0x4E, ["Ada"])
    storage.full = True
    with pytest.raises(SaveFailed):
        st.save("names", 0x4E, ["Ada", "Bo"])
    storage.full = False
    assert st.load("names", 0x4E) == (["Ada"], None)  # the old save is untouched
    with pytest.raises(OSError) as e:
        storage.full = True
        fs.write("x", b"1")
    assert e.value.args[0] == ENOSPC


def test_keyfs_has_no_open():
    # firmware.players opens files for seek access only on readers with `open`;
    # the saves' adapter gives whole files through `read`.
    assert not hasattr(webhost.KeyFS(Storage()), "open")


def test_store_takes_the_wasm_missing_file_error(tmp_path, monkeypatch):
    """On the WebAssembly port a missing file raises OSError(44): the store
    must still take it as missing (else every first save failed), while
    other errors on files that exist still count as damage."""
    real_open = open
    real_remove = os.remove

    def emscripten_open(path, mode="r"):
        if "r" in mode and not os.path.exists(path):
            raise OSError(44)
        return real_open(path, mode)

    def emscripten_remove(path):
        if not os.path.exists(path):
            raise OSError(44)
        return real_remove(path)

    class Os:
        remove = staticmethod(emscripten_remove)
        rename = staticmethod(os.rename)
        replace = staticmethod(os.replace)
        stat = staticmethod(os.stat)
        listdir = staticmethod(os.listdir)
        fsync = staticmethod(os.fsync)

    monkeypatch.setattr(store_module, "open", emscripten_open, raising=False)
    monkeypatch.setattr(store_module, "os", Os)
    fs = DirFS(str(tmp_path))
    with pytest.raises(OSError) as e:
        fs.read("game")
    assert e.value.args[0] == 44  # what the port says; the store takes it as missing
    st = Store(fs)
    with pytest.raises(NoSave):
        st.load("game", 0x47)
    st.save("game", 0x47, [1])
    st.save("game", 0x47, [2])
    assert st.load("game", 0x47) == ([2], None)
    st.clear("game")
    assert os.listdir(tmp_path) == []

    def broken_open(path, mode="r"):
        raise OSError(errno.EIO)

    monkeypatch.setattr(store_module, "open", broken_open, raising=False)
    (tmp_path / "game").write_bytes(b"x")
    with pytest.raises(SaveDamaged):  # an existing file's error is no "missing"
        Store(fs).load("game", 0x47)


class Guarded(Storage):
    """web/storage.js's GuardedStorage as KeyFS meets it: a failed write is
    answered with an errno instead of an exception (28 full, 13 not this
    tab's game any more); removeItem refuses the same way."""

    def __init__(self):
        super().__init__()
        self.answer = 0

    def setItem(self, key, value):  # noqa: N802 - the browser's names
        if self.answer:
            return self.answer
        super().setItem(key, value)
        return 0

    def removeItem(self, key):  # noqa: N802
        if self.answer:
            return self.answer
        super().removeItem(key)
        return 0


@pytest.mark.parametrize("answer", [ENOSPC, 13])
def test_keyfs_takes_a_refused_write_as_a_failed_save(answer):
    storage = Guarded()
    fs = webhost.KeyFS(storage)
    st = Store(fs)
    st.save("game", 0x47, [1, "eins"])
    before = dict(storage.items)
    storage.answer = answer
    with pytest.raises(SaveFailed):
        st.save("game", 0x47, [2, "zwei"])
    assert storage.items == before  # nothing written, nothing lost
    with pytest.raises(OSError) as e:
        fs.write("x", b"1")
    assert e.value.args[0] == answer
    storage.answer = 0
    assert st.load("game", 0x47) == ([1, "eins"], None)
