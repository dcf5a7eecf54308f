"""An in-memory file adapter for tests and tools (not shipped to the
device): `MemFS` behaves like firmware.store.DirFS and injects faults
(failed writes, power cuts after n operations, torn writes, damaged
bytes); `PowerCut` is what it raises while its power is off.

Runs under CPython and MicroPython (tests/both, tools/mp)."""

from firmware.store import ENOENT, ENOSPC


class PowerCut(Exception):
    """Raised by MemFS when its simulated power goes off."""


class MemFS:
    """An in-memory file adapter for tests, with fault injection.

    `files` maps names to bytes. `ops` counts the operations performed.
    `fail_next_write` makes the next write raise OSError; `fail_after` makes
    any operation fail; `power_cut_after` cuts the power after n more
    operations (the state freezes, everything raises PowerCut until
    `power_on`); `damage` truncates a file or flips its bytes.
    """

    def __init__(self, files=None):
        self.files = dict(files or {})
        self.ops = 0
        self.writes = 0  # bytes written, as the flash would see them
        self.off = False
        self._fail_write = None  # None, or bytes kept by the failing write (-1: none)
        self._fail_in = -1
        self._cut_in = -1
        self._torn = None

    def fail_next_write(self, keep=None):
        """Make the next write raise OSError (flash full).

        `keep` None leaves the file as it was; an int leaves the first `keep`
        bytes of the new data as the file (a partial write).
        """
        self._fail_write = -1 if keep is None else keep

    def fail_after(self, n):
        """Let `n` more operations succeed; the next one raises OSError, with no effect."""
        self._fail_in = n

    def power_cut_after(self, n, torn=None):
        """Let `n` more operations succeed; the power goes off at the next one.

        If that operation is a write and `torn` is an int, the file is left
        holding the first `torn` bytes of the data; otherwise it has no effect.
        """
        self._cut_in = n
        self._torn = torn

    def power_on(self):
        """Turn the power back on (a reboot): operations work again."""
        self.off = False
        self._cut_in = -1

    def damage(self, name, truncate=None, flip=None, mask=0xFF):
        """Truncate file `name` to `truncate` bytes and/or xor byte `flip` with `mask`."""
        data = bytearray(self.files[name])
        if truncate is not None:
            data = data[:truncate]
        if flip is not None:
            data[flip] ^= mask
        self.files[name] = bytes(data)

    def _op(self):
        """Count an operation; raise PowerCut or the injected OSError when due."""
        if self.off:
            raise PowerCut()
        if self._cut_in == 0:
            self.off = True
            self._cut_in = -1
            raise PowerCut()
        if self._cut_in > 0:
            self._cut_in -= 1
        if self._fail_in == 0:
            self._fail_in = -1
            raise OSError(5, "injected I/O error")
        if self._fail_in > 0:
            self._fail_in -= 1
        self.ops += 1

    def read(self, name):
        """The bytes of file `name`; OSError(ENOENT) when it does not exist."""
        self._op()
        if name not in self.files:
            raise OSError(ENOENT, "no file " + name)
        return self.files[name]

    def write(self, name, data):
        """Store `data` as file `name`, or fail as injected."""
        if not self.off and self._cut_in == 0 and self._torn is not None:
            self.files[name] = bytes(data[: self._torn])  # torn by the cut below
        self._op()
        if self._fail_write is not None:
            keep = self._fail_write
            self._fail_write = None
            if keep >= 0:
                self.files[name] = bytes(data[:keep])
                self.writes += min(keep, len(data))
            raise OSError(ENOSPC, "flash full")
        self.files[name] = bytes(data)
        self.writes += len(data)

    def rename(self, old, new):
        """Move file `old` to `new`, replacing `new` (atomic)."""
        self._op()
        if old not in self.files:
            raise OSError(ENOENT, "no file " + old)
        self.files[new] = self.files.pop(old)

    def remove(self, name):
        """Delete file `name`; OSError(ENOENT) when it does not exist."""
        self._op()
        if name not in self.files:
            raise OSError(ENOENT, "no file " + name)
        del self.files[name]

    def exists(self, name):
        """True when file `name` exists."""
        self._op()
        return name in self.files

    def append(self, name, data):
        """Add `data` at the end of file `name`; returns its new size."""
        self._op()
        self.files[name] = self.files.get(name, b"") + bytes(data)
        return len(self.files[name])

    def names(self):
        """The names of the stored files."""
        self._op()
        return list(self.files)
