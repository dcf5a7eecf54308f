"""Crash-safe save files on littlefs (device), a folder (PC) or memory (tests).

`Store` keeps up to three files per save name:

- `name`: the current save,
- `name.new`: a save being written (left behind when the power went off
  between writing it and renaming it into place),
- `name.bak`: the save before the current one.

`Store.save` writes `name.new`, reads it back, moves an intact `name` to
`name.bak` and renames `name.new` to `name`; every step is a whole-file write
or an atomic rename, so a power cut at any point leaves the new value or the
previous one loadable. No step deletes the only good copy and nothing is ever
formatted. `Store.load` takes the first intact file of `name`, `name.new`,
`name.bak`, and gives a note only when it had to fall back to `name.bak`:
the newest state is lost then. A complete `name.new` left by a cut before
its rename is the newest state (no note), and an empty or unfinished
`name.new` with no other copy (a cut in the very first save) is no save at
all: `Store.has` says False and `load` raises NoSave.

Files go through a tiny adapter with `read`, `write`, `rename`, `remove`,
`exists` and `names`: `DirFS` for a real folder (MicroPython `os` or
CPython); the tests' in-memory double with fault injection is
tools/fakes/memfs.py (not shipped to the device), and web/webhost.py has
`KeyFS` on the browser's localStorage.
"""

import os

from engine.codec import CodecError, pack, unpack
from firmware.files import BAK, NEW

ENOENT = 2
ENOENT_WASM = 44  # a missing file on the WebAssembly port (Emscripten's numbering)
ENOSPC = 28


class NoSave(Exception):
    """No file of this save exists (a first start)."""


class SaveDamaged(Exception):
    """Files of this save exist but none is intact; `reason` says why."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


class SaveFailed(Exception):
    """A save could not be written; the previous copies are left as they were."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


def _missing(exc):
    """True when an OSError from `read` means the file does not exist. The
    WebAssembly port's file system raises Emscripten's number for it (44,
    while its errno.ENOENT is 2); no device port uses 44 for anything the
    store meets."""
    return not exc.args or exc.args[0] == ENOENT or exc.args[0] == ENOENT_WASM


class Store:
    """Versioned, checksummed saves that survive power cuts, on a file adapter."""

    def __init__(self, fs):
        self.fs = fs
        self.bytes_written = 0  # total bytes written by `save`, for wear figures

    def save(self, name, kind, value):
        """Save `value` under `name` with codec kind `kind`; return bytes written.

        Raises SaveFailed (nothing new saved, the old copies untouched) when
        the value cannot be encoded or a file operation fails.
        """
        fs = self.fs
        new = name + NEW
        try:
            blob = pack(value, kind)
        except CodecError as e:
            raise SaveFailed(str(e))
        wrote = moved = False
        try:
            main_ok = self._intact(name, kind)
            if not main_ok and self._intact(new, kind):
                # A cut save left the copy `load` uses in name.new; writing
                # name.new again would lose it, so it becomes name first.
                fs.rename(new, name)
                main_ok = True
            wrote = True
            fs.write(new, blob)
            self.bytes_written += len(blob)
            if fs.read(new) != blob:
                raise OSError(5, "save did not read back")
            if main_ok:
                fs.rename(name, name + BAK)  # replaces the older .bak
                moved = True
            fs.rename(new, name)  # a damaged name is replaced, name.bak kept
        except OSError as e:
            # Before `moved`, name or name.bak holds the last good copy and
            # name.new is spare: free the space a partial file takes.
            if wrote and not moved:
                try:
                    fs.remove(new)
                except OSError:
                    pass
            raise SaveFailed("could not save: %s" % _why(e))
        return len(blob)

    def has(self, name, kind, files=None):
        """True when save `name` has a copy `load` can use: `name` or
        `name.bak` exists (each is only ever made by a rename of a checked
        copy), or a lone `name.new` decodes. `files`: a directory listing
        at hand (one read of the folder instead of three lookups)."""
        if files is None:
            files = self.fs.names()
        if name in files or name + BAK in files:
            return True
        return name + NEW in files and self._intact(name + NEW, kind)

    def load(self, name, kind):
        """Return `(value, note)` from the first intact copy of save `name`.

        `note` is None when nothing was lost (the main file, or a complete
        `name.new` a cut left before its rename), else a short reason (in
        English, for logs: screens say it in their own words) when the older
        copy `name.bak` had to be used. Raises NoSave when no copy exists
        (an unfinished `name.new` alone is none) and SaveDamaged when copies
        exist but none is intact.
        """
        reason = None  # why the main file was not used; None: it is missing
        found = False
        for suffix in ("", NEW, BAK):
            try:
                blob = self.fs.read(name + suffix)
            except OSError as e:
                if _missing(e):
                    continue
                found = found or suffix != NEW
                why = "save unreadable (%s)" % _why(e)
            else:
                try:
                    value = unpack(blob, kind)
                except CodecError as e:
                    # an unfinished name.new was never a save of its own
                    found = found or suffix != NEW
                    why = str(e)
                else:
                    return value, (reason or "save missing") if suffix == BAK else None
            if suffix == "":
                reason = why
        if not found:
            raise NoSave(name)
        raise SaveDamaged(reason or "save damaged, no good copy left")

    def clear(self, name):
        """Delete every copy of save `name` (a finished game); missing ones are fine.

        The copies go oldest first, so a power cut part way leaves at most the
        latest state, never an older copy that `load` would bring back.
        """
        for suffix in (BAK, NEW, ""):
            try:
                self.fs.remove(name + suffix)
            except OSError as e:
                if not _missing(e):
                    raise SaveFailed("could not delete: %s" % _why(e))

    def _intact(self, name, kind):
        """True when file `name` exists and decodes."""
        try:
            unpack(self.fs.read(name), kind)
        except OSError as e:
            if _missing(e):
                return False
            raise
        except CodecError:
            return False
        return True


def _why(exc):
    """A short text for an OSError (its message, else its errno)."""
    if len(exc.args) > 1:
        return str(exc.args[1])
    if exc.args:
        if exc.args[0] == ENOSPC:
            return "flash full"
        return "error %s" % exc.args[0]
    return "error"


class DirFS:
    """The file adapter on a folder, with MicroPython `os` or CPython `os`."""

    def __init__(self, path):
        self.path = path.rstrip("/")

    def _p(self, name):
        return self.path + "/" + name

    def read(self, name):
        """The bytes of file `name`; OSError when it does not exist."""
        with open(self._p(name), "rb") as f:
            size = f.seek(0, 2)  # read at the exact size: one allocation, no regrowth
            f.seek(0)
            return f.read(size)

    def open(self, name):
        """File `name` opened for reading (binary, seek + read: the Master's
        tables); OSError when it does not exist. The caller closes it."""
        return open(self._p(name), "rb")

    def write(self, name, data):
        """Write `data` as file `name` (replacing it) and close it."""
        with open(self._p(name), "wb") as f:
            n = f.write(data)
            f.flush()
            sync = getattr(os, "fsync", None)  # CPython: reach the disk before a rename
            if sync is not None:
                sync(f.fileno())
        if n is not None and n != len(data):
            raise OSError(ENOSPC, "short write")

    def rename(self, old, new):
        """Rename file `old` to `new`, replacing `new` atomically."""
        replace = getattr(os, "replace", None)  # CPython on Windows needs replace
        (replace or os.rename)(self._p(old), self._p(new))

    def remove(self, name):
        """Delete file `name`; OSError when it does not exist."""
        os.remove(self._p(name))

    def exists(self, name):
        """True when file `name` exists."""
        try:
            os.stat(self._p(name))
        except OSError:
            return False
        return True

    def append(self, name, data):
        """Add `data` at the end of file `name` (made when missing); returns
        the file's new size. Nothing is read back: no buffer the size of
        the file (firmware.recovery writes its log with it)."""
        with open(self._p(name), "ab") as f:
            f.write(data)
            return f.tell()

    def names(self):
        """The names of the files in the folder (one directory read: on the
        chip a missing file's stat costs 1 ms, a listing about as much)."""
        try:
            return os.listdir(self.path)
        except OSError:
            return []
