"""Die faces from random bytes, without modulo bias.

The engine never picks its own entropy: a host hands in a byte source, for
example `os.urandom` (the RP2040's hardware source on the rp2 port), and
`ByteDice(source)` turns it into faces. Bytes 252..255 are rejected, so each
face comes from 42 equally likely byte values: exactly 1/6 each. A plain
`byte % 6` would favour 1..4 (43 values) over 5 and 6 (42 values).

`SeededDice(seed)` is the deterministic source for tests and replays: the
same seed gives the same faces on CPython and MicroPython, and its `state`
can be saved and restored.

Every dice object is a callable `dice(n) -> list of n faces`, which is what
`engine.game.Game` expects.
"""

_LIMIT = 252  # 6 * 42: the largest multiple of 6 not above 256


class ByteDice:
    """Faces from `read(n) -> bytes` by rejection sampling; `chunk` bytes are
    fetched at a time (the unused rest of a chunk is kept for later faces)."""

    def __init__(self, read, chunk=16):
        self._read = read
        self._chunk = chunk
        self._buf = b""
        self._pos = 0

    def face(self):
        """One die face 1..6."""
        while True:
            if self._pos >= len(self._buf):
                self._buf = self._read(self._chunk)
                self._pos = 0
                if not self._buf:
                    raise ValueError("the random source returned no bytes")
            b = self._buf[self._pos]
            self._pos += 1
            if b < _LIMIT:
                return b % 6 + 1

    def __call__(self, n):
        return [self.face() for _ in range(n)]


class SeededDice(ByteDice):
    """Deterministic dice from a 32-bit xorshift generator; `state` is the
    whole generator state (an int), readable and writable for replays."""

    def __init__(self, seed=1):
        ByteDice.__init__(self, self._bytes, 1)
        self.state = (seed & 0xFFFFFFFF) or 0x9E3779B9

    def _bytes(self, n):
        out = bytearray(n)
        x = self.state
        for i in range(n):
            x ^= (x << 13) & 0xFFFFFFFF
            x ^= x >> 17
            x ^= (x << 5) & 0xFFFFFFFF
            out[i] = x >> 24
        self.state = x
        return bytes(out)


class ScriptedDice:
    """Faces from a fixed list, for tests and worked examples; raises
    ValueError when the script runs out."""

    def __init__(self, faces):
        self._faces = list(faces)
        self._pos = 0

    def __call__(self, n):
        if self._pos + n > len(self._faces):
            raise ValueError("scripted dice ran out")
        out = self._faces[self._pos:self._pos + n]
        self._pos += n
        return out


def source_looks_stuck(sample):
    """True when a sample of random bytes (64 or more) is plainly broken:
    every byte equal, or only two distinct values."""
    if len(sample) < 64:
        raise ValueError("need at least 64 bytes to judge a random source")
    seen = set()
    for b in sample:
        seen.add(b)
        if len(seen) > 2:
            return False
    return True
