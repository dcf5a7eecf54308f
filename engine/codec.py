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

from engine.game import Game
from engine.rules import crc32

MAGIC = b"ZT"
VERSION = 1
KIND_GAME = 0x47  # "G"
MAX_DEPTH = 8
MAX_PAYLOAD = 0xFFFF

_NONE, _FALSE, _TRUE, _INT, _STR, _LIST, _BYTES = 0, 1, 2, 3, 4, 5, 6


class CodecError(ValueError):
    """A blob that cannot be decoded; the message says why."""


def pack(value, kind):
    """Encode a value of None/bool/int/str/bytes/list/tuple under a kind byte."""
    out = bytearray()
    _put(out, value, 0)
    if len(out) > MAX_PAYLOAD:
        raise CodecError("too much data to save (%d bytes)" % len(out))
    blob = bytearray(MAGIC)
    blob.append(kind)
    blob.append(VERSION)
    blob.append(len(out) >> 8)
    blob.append(len(out) & 0xFF)
    blob.extend(out)
    crc = crc32(blob)
    for shift in (24, 16, 8, 0):
        blob.append((crc >> shift) & 0xFF)
    return bytes(blob)


def unpack(blob, kind):
    """Decode `pack` output of this kind; CodecError when it is not intact."""
    if not isinstance(blob, (bytes, bytearray)):
        raise CodecError("a save is bytes")
    if len(blob) < 10 or blob[0:2] != MAGIC:
        raise CodecError("not a Zehntausend save")
    if blob[2] != kind:
        raise CodecError("a save of another kind")
    if blob[3] > VERSION:
        raise CodecError("saved by a newer version (%d)" % blob[3])
    if blob[3] < VERSION:
        raise CodecError("saved by an older version (%d) that this one cannot read" % blob[3])
    length = blob[4] << 8 | blob[5]
    if len(blob) != 6 + length + 4:
        raise CodecError("save is truncated or too long")
    end = 6 + length
    crc = blob[end] << 24 | blob[end + 1] << 16 | blob[end + 2] << 8 | blob[end + 3]
    if crc32(memoryview(blob)[:end]) != crc:  # a view: no copy of a big blob
        raise CodecError("save is damaged (checksum)")
    value, pos = _get(blob, 6, end, 0)
    if pos != end:
        raise CodecError("save has trailing bytes")
    return value


def encode_game(game):
    """The save blob of a whole game, mid-turn dice included."""
    return pack(game.to_data(), KIND_GAME)


def decode_game(blob, dice=None):
    """The Game saved in `blob` (with `dice` as its dice source)."""
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
    elif isinstance(value, (bytes, bytearray)):
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


def _get_varint(blob, pos, end):
    n = shift = 0
    while True:
        if pos >= end or shift > 63:
            raise CodecError("save is damaged (number)")
        b = blob[pos]
        pos += 1
        n |= (b & 0x7F) << shift
        if not b & 0x80:
            return n, pos
        shift += 7


def _get(blob, pos, end, depth):
    if pos >= end or depth > MAX_DEPTH:
        raise CodecError("save is damaged (structure)")
    tag = blob[pos]
    pos += 1
    if tag == _NONE:
        return None, pos
    if tag == _FALSE:
        return False, pos
    if tag == _TRUE:
        return True, pos
    if tag == _INT:
        n, pos = _get_varint(blob, pos, end)
        return (n >> 1) if not n & 1 else -((n + 1) >> 1), pos
    if tag == _STR:
        n, pos = _get_varint(blob, pos, end)
        if pos + n > end:
            raise CodecError("save is damaged (text)")
        try:
            text = bytes(blob[pos:pos + n]).decode()
        except UnicodeError:
            raise CodecError("save is damaged (text)")
        return text, pos + n
    if tag == _BYTES:
        n, pos = _get_varint(blob, pos, end)
        if pos + n > end:
            raise CodecError("save is damaged (bytes)")
        return bytes(blob[pos:pos + n]), pos + n
    if tag == _LIST:
        n, pos = _get_varint(blob, pos, end)
        if n > end - pos:
            raise CodecError("save is damaged (list)")
        items = []
        for _ in range(n):
            item, pos = _get(blob, pos, end, depth + 1)
            items.append(item)
        return items, pos
    raise CodecError("save is damaged (tag %d)" % tag)
