"""Intern the names a module will use without loading its code.

Why: on MicroPython each name a module uses (its identifiers, short
strings, the names of what it imports) becomes a qstr, kept for good in
pools that grow by doubling. Past about 1270 names on the chip the next
pool is one block of about 9 KB; asked for late in a session, in a
fragmented heap, it failed (a MemoryError at the end of a game, and at a
Master's first move). firmware.app.App.warm_up has the names of the game's
big modules interned right after boot, while the heap is still in one
piece.

How: a .mpy file starts with its qstr table (header, counts, then each
name as a length-prefixed string), so the names are read from the file
alone: the heap holds one name at a time, and a module takes about 27 ms
on the chip (importing it took about 160 ms and held its code meanwhile).
"""

# The .mpy header: b"M", the version, feature flags, small-int bits.
_MAGIC = 0x4D
_VERSION = 6
_ARCH_FLAGS = 0x40  # the header's flag: a varint of architecture flags follows


def _root():
    """The folder holding engine/ and firmware/ ("" on the device, where
    they sit at the top of the file system)."""
    path = __file__
    for _ in range(2):  # .../firmware/qstr_warmup.mpy -> ...
        cut = path.rfind("/")
        path = path[:cut] if cut >= 0 else ""
    return path + "/" if path else ""


_ROOT = _root()
_BUF = bytearray(256)


class _Holder:
    """A bare instance: setattr on it interns the attribute's name."""


_HOLDER = _Holder()


class _Reader:
    """Bytes of an open file through one reused buffer."""

    def __init__(self, f, buf):
        self.f = f
        self.buf = buf
        self.size = 0
        self.at = 0

    def byte(self):
        """The next byte; ValueError at the end of the file."""
        if self.at == self.size:
            self.size = self.f.readinto(self.buf) or 0
            self.at = 0
            if not self.size:
                raise ValueError("truncated .mpy")
        b = self.buf[self.at]
        self.at += 1
        return b

    def uint(self):
        """An unsigned varint: 7 bits a byte, most significant first."""
        n = 0
        while True:
            b = self.byte()
            n = (n << 7) | (b & 0x7F)
            if b < 0x80:
                return n

    def text(self, n):
        """The next `n` bytes as a str, then skip the NUL after them."""
        at = self.at
        if at + n <= self.size:  # the common case: inside the buffer
            s = str(memoryview(self.buf)[at:at + n], "utf-8")
            self.at = at + n
        else:
            part = bytearray()
            for _ in range(n):
                part.append(self.byte())
            s = str(part, "utf-8")
        self.byte()
        return s


def intern_file(path, buf=_BUF, holder=_HOLDER):
    """Intern the names of the qstr table of the .mpy file `path` (a name
    already interned costs a lookup). False when the file is no .mpy this
    reader knows; OSError when it cannot be opened."""
    with open(path, "rb") as f:
        r = _Reader(f, buf)
        if r.byte() != _MAGIC or r.byte() != _VERSION:
            return False
        flags = r.byte()
        r.byte()
        if flags & _ARCH_FLAGS:
            r.uint()
        count = r.uint()
        r.uint()  # the number of constant objects
        for _ in range(count):
            n = r.uint()
            if n & 1:
                continue  # a name the firmware holds itself: nothing to add
            name = r.text(n >> 1)
            setattr(holder, name, None)
            delattr(holder, name)
    return True


def intern_module(name):
    """Intern the names of module `name` ("engine.master") from its .mpy
    file; False when there is none to read (a tree of sources) or it is
    damaged: the caller then imports the module instead."""
    try:
        return intern_file(_ROOT + name.replace(".", "/") + ".mpy")
    except (OSError, ValueError, UnicodeError):
        return False

