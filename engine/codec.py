"""The save format: versioned, CRC32-checked, compact.

A blob is

    b"ZT"  kind (1 byte)  version (1 byte)  length (2 bytes, big-endian)
    payload (length bytes)  CRC-32 of everything before it (4 bytes, big-endian)

The payload is one value in a small tagged encoding of None, bools, ints
(zigzag varints), text (UTF-8), bytes and lists, so a mid-turn game is a few hundred
bytes. `encode_game`/`decode_game` save a whole `Game`; `pack`/`unpack` serve
other files (settings, statistics) under their own kind byte.

Decoding a damaged, truncated, foreign or newer blob raises `CodecError`
(a ValueError) with a message for the screen, and never returns a half state.
"""

from engine.crc import crc32

MAGIC = b"ZT"
VERSION = 1
KIND_GAME = 0x47  # "G"
MAX_DEPTH = 8
MAX_PAYLOAD = 0xFFFF

_NONE, _FALSE, _TRUE, _INT, _STR, _LIST, _BYTES = 0, 1, 2, 3, 4, 5, 6


class CodecError(ValueError):
    """A blob that cannot be decoded; the message says why."""


def pack(value, kind):
    """Encode a value of None/bool/int/str/bytes/list/tuple under a kind
    byte. Returns a bytearray of the exact size: the value is measured
    first, then written once, so a large blob (a plan cached on flash)
    never needs room for a growing copy and a final one."""
    count = _Count()
    _put(count, value, 0)
    n = count.n
    if n > MAX_PAYLOAD:
        raise CodecError("too much data to save (%d bytes)" % n)
    blob = bytearray(6 + n + 4)
    blob[0:2] = MAGIC
    blob[2] = kind
    blob[3] = VERSION
    blob[4] = n >> 8
    blob[5] = n & 0xFF
    _put(_Fill(blob, 6), value, 0)
    crc = crc32(memoryview(blob)[:6 + n])
    for k in range(4):
        blob[6 + n + k] = (crc >> (24 - 8 * k)) & 0xFF
    return blob


class _Count:
    """The first pass of `pack`: counts the bytes `_put` would write."""

    def __init__(self):
        self.n = 0

    def append(self, _byte):
        """One byte more."""
        self.n += 1

    def extend(self, data):
        """len(data) bytes more."""
        self.n += len(data)


class _Fill:
    """The second pass of `pack`: writes into a buffer of the exact size."""

    def __init__(self, buf, pos):
        self.buf = buf
        self.pos = pos

    def append(self, byte):
        """Write one byte."""
        self.buf[self.pos] = byte
        self.pos += 1

    def extend(self, data):
        """Write the bytes of `data`."""
        n = len(data)
        self.buf[self.pos:self.pos + n] = data
        self.pos += n


def unpack(blob, kind):
    """Decode `pack` output of this kind; CodecError when it is not intact.
    Bytes values come back as bytes (from a memoryview blob: as views)."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise CodecError("a save is bytes")
    if len(blob) < 10:
        raise CodecError("not a Zehntausend save")
    length = _header(blob, kind)
    if len(blob) != 6 + length + 4:
        raise CodecError("save is truncated or too long")
    end = 6 + length
    crc = blob[end] << 24 | blob[end + 1] << 16 | blob[end + 2] << 8 | blob[end + 3]
    if crc32(memoryview(blob)[:end]) != crc:  # a view: no copy of a big blob
        raise CodecError("save is damaged (checksum)")
    source = _Blob(blob, 6, end)
    value = _get(source, 0)
    if source.left:
        raise CodecError("save has trailing bytes")
    return value


def unpack_file(f, kind):
    """Decode `pack` output of this kind from an open binary file, reading
    it in pieces: each bytes value gets its own allocation, so a large
    stored table never needs one block of its whole size on a fragmented
    heap. The checksum is checked at the end, before anything is returned;
    CodecError when the file is not intact."""
    head = f.read(6)
    if not head or len(head) < 6:
        raise CodecError("not a Zehntausend save")
    source = _File(f, _header(head, kind), crc32(head))
    value = _get(source, 0)
    if source.left:
        raise CodecError("save has trailing bytes")
    tail = f.read(5)
    if not tail or len(tail) != 4:
        raise CodecError("save is truncated or too long")
    if source.crc != tail[0] << 24 | tail[1] << 16 | tail[2] << 8 | tail[3]:
        raise CodecError("save is damaged (checksum)")
    return value


def _header(head, kind):
    """The payload length from the six header bytes (CodecError when they
    are not ours, of another kind or of another version)."""
    if bytes(head[0:2]) != MAGIC:
        raise CodecError("not a Zehntausend save")
    if head[2] != kind:
        raise CodecError("a save of another kind")
    if head[3] > VERSION:
        raise CodecError("saved by a newer version (%d)" % head[3])
    if head[3] < VERSION:
        raise CodecError("saved by an older version (%d) that this one cannot read" % head[3])
    return head[4] << 8 | head[5]


class _Blob:
    """The payload of a blob in memory, taken piece by piece."""

    def __init__(self, blob, pos, end):
        self.blob = blob
        self.pos = pos
        self.left = end - pos

    def take(self, n):
        """The next n bytes (bytes, or a view of a memoryview blob)."""
        if n > self.left:
            raise CodecError("save is damaged (structure)")
        chunk = self.blob[self.pos:self.pos + n]
        self.pos += n
        self.left -= n
        return bytes(chunk) if type(chunk) is bytearray else chunk

    def byte(self):
        """The next byte."""
        if not self.left:
            raise CodecError("save is damaged (structure)")
        self.left -= 1
        self.pos += 1
        return self.blob[self.pos - 1]


class _File:
    """The payload read from a file piece by piece, with its running CRC."""

    def __init__(self, f, length, crc):
        self.f = f
        self.left = length
        self.crc = crc

    def take(self, n):
        """The next n bytes."""
        if n > self.left:
            raise CodecError("save is damaged (structure)")
        chunk = self.f.read(n) if n else b""
        if chunk is None or len(chunk) != n:
            raise CodecError("save is truncated or too long")
        self.left -= n
        self.crc = crc32(chunk, self.crc)
        return chunk

    def byte(self):
        """The next byte."""
        return self.take(1)[0]


def encode_game(game):
    """The save blob of a whole game, mid-turn dice included."""
    return pack(game.to_data(), KIND_GAME)


def decode_game(blob, dice=None):
    """The Game saved in `blob` (with `dice` as its dice source)."""
    from engine.game import Game  # here: the title screen boots without the game's code

    data = unpack(blob, KIND_GAME)
    try:
        return Game.from_data(data, dice)
    except ValueError as e:
        raise CodecError("save does not hold a valid game: %s" % e)


def _varint(out, n):
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _put(out, value, depth):
    if depth > MAX_DEPTH:
        raise CodecError("data nested too deeply")
    if value is None:
        out.append(_NONE)
    elif value is True:
        out.append(_TRUE)
    elif value is False:
        out.append(_FALSE)
    elif type(value) is int:
        n = value * 2 if value >= 0 else -value * 2 - 1
        if n >> 70:  # _get_varint reads at most ten bytes
            raise CodecError("number too large to save")
        out.append(_INT)
        _varint(out, n)
    elif isinstance(value, str):
        raw = value.encode()
        out.append(_STR)
        _varint(out, len(raw))
        out.extend(raw)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        out.append(_BYTES)
        _varint(out, len(value))
        out.extend(value)
    elif isinstance(value, (list, tuple)):
        out.append(_LIST)
        _varint(out, len(value))
        for item in value:
            _put(out, item, depth + 1)
    else:
        raise CodecError("cannot save a %s" % type(value).__name__)


def _get_varint(source):
    n = shift = 0
    while True:
        if not source.left or shift > 63:
            raise CodecError("save is damaged (number)")
        b = source.byte()
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            return n
        shift += 7


def _get(source, depth):
    if not source.left or depth > MAX_DEPTH:
        raise CodecError("save is damaged (structure)")
    tag = source.byte()
    if tag == _NONE:
        return None
    if tag == _FALSE:
        return False
    if tag == _TRUE:
        return True
    if tag == _INT:
        n = _get_varint(source)
        return (n >> 1) if not n & 1 else -((n + 1) >> 1)
    if tag == _STR:
        n = _get_varint(source)
        if n > source.left:
            raise CodecError("save is damaged (text)")
        try:
            return bytes(source.take(n)).decode()
        except UnicodeError:
            raise CodecError("save is damaged (text)")
    if tag == _BYTES:
        n = _get_varint(source)
        if n > source.left:
            raise CodecError("save is damaged (bytes)")
        return source.take(n)
    if tag == _LIST:
        n = _get_varint(source)
        if n > source.left:
            raise CodecError("save is damaged (list)")
        items = []
        for _ in range(n):
            items.append(_get(source, depth + 1))
        return items
    raise CodecError("save is damaged (tag %d)" % tag)
