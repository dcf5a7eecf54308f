"""Every text the device shows, in German (the default) and English.

The texts are written in tools/texts/de.py and tools/texts/en.py and packed
into firmware/texts_de.py and texts_en.py (`python -m tools.texts.gen`):
the UTF-8 texts, the end offset of each text, and a sorted 24-bit hash of
each key (the packer refuses colliding keys). Keys as strings would cost
twice the heap of all the texts together on the device. Each of the three
comes in pieces of at most PIECE_BYTES: loading a language never asks the
heap for a larger block (one 8 KB blob could not be had late in a long
session on the chip, when the heap was fragmented: issue 21). Only the
language in use is loaded; switching drops the other. Each language comes
in two books: the texts of the help pages and the rules editor's
explanations (a third of the bytes) are in texts_LANG_help.py, loaded only
when a key is not in the main book and let go by `release` (the app calls
it when it releases the screens' modules), so a game does not carry
them. `text(lang, key)`
finds the key's hash by binary search (in native code on the chip, where
the bytecode search took 0.6 ms) and returns a fresh str (screens ask only
when they redraw); an unknown key shows itself. Texts with `%s`/`%d`
are formatted by the screens.
"""

import sys

try:  # native on the chip (firmware/native.py); the Python search below otherwise
    from firmware.native import find_text as _find
except Exception:
    _find = None

LANGS = ("de", "en")
PIECE_BYTES = 1024  # the largest piece of a packed language (tools/texts/gen.py)
PIECE_KEYS = 256  # keys per piece of the hashes (3 bytes each) and ends (2 bytes each)
_MODULES = {"de": "firmware.texts_de", "en": "firmware.texts_en"}
HELP_BOOK = "_help"  # the help book's module: the main book's name and this
_held: list = [None, None, None]  # the language loaded, its main book, its help book or None


def _packed(lang):
    if _held[0] != lang:
        old = _held[0]
        release()
        _held[0] = _held[1] = None
        if old is not None:
            _forget(_MODULES[old])
        name = _MODULES.get(lang, _MODULES["de"])
        _held[1] = __import__(name, None, None, ("BLOB",))
        _held[0] = lang
    return _held[1]


def _help_book(lang):
    """The help book of `lang` (loaded now if it is not); `_packed(lang)` first."""
    book = _held[2]
    if book is None:
        name = _MODULES.get(lang, _MODULES["de"]) + HELP_BOOK
        book = _held[2] = __import__(name, None, None, ("BLOB",))
    return book


def release():
    """Let the help book go (it loads again when a text of it is asked for)."""
    if _held[2] is not None:
        _held[2] = None
        _forget(_MODULES.get(_held[0], _MODULES["de"]) + HELP_BOOK)


def _forget(name):
    sys.modules.pop(name, None)
    package = sys.modules.get("firmware")
    attr = name.split(".")[-1]
    if package is not None and attr in getattr(package, "__dict__", {}):
        try:
            delattr(package, attr)
        except (AttributeError, TypeError):
            pass


def _native_ok():
    """True when the native search finds a key as the Python hash does. (In
    a firmware with the game frozen in, the viper search missed every key:
    the check keeps the texts right wherever native code misbehaves.)"""
    h = key_hash("ok")
    table = bytes(((h >> 16) & 0xFF, (h >> 8) & 0xFF, h & 0xFF))
    find = _find
    if find is None:
        return False
    try:
        return find("ok", table, 1) == 0  # pyright: ignore[reportArgumentType]  (viper takes a buffer for a ptr8 argument)
    except Exception:
        return False


def key_hash(key):
    """24-bit hash of a key (small ints only: no big-int allocation)."""
    h = 0x9DC5
    for b in key.encode():
        h = ((h ^ b) * 37 + 0x1B3) & 0xFFFFFF
    return h


def text(lang, key):
    """The text of `key` in `lang` ("de" or "en"); an unknown key shows itself."""
    found = _lookup(_packed(lang), key)
    if found is None:
        found = _lookup(_help_book(lang), key)
    return key if found is None else found


def _lookup(packed, key):
    """The text of `key` in one packed book, or None when it is not there."""
    pieces = packed.HASHES
    if _find is not None:
        first = 0
        for hashes in pieces:
            mid = _find(key, hashes, len(hashes) // 3)
            if mid >= 0:
                return _slice(packed, first + mid)
            if mid != -1:
                break  # not ASCII: the search below
            first += PIECE_KEYS
        else:
            return None
    want = key_hash(key)
    first = 0
    for hashes in pieces:
        last = len(hashes) - 3
        if want <= (hashes[last] << 16 | hashes[last + 1] << 8 | hashes[last + 2]):
            mid = _search(hashes, want)
            return None if mid < 0 else _slice(packed, first + mid)
        first += PIECE_KEYS
    return None


def _search(hashes, want):
    """The number of hash `want` in one sorted piece of hashes, or -1."""
    lo = 0
    hi = len(hashes) // 3 - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        found = hashes[3 * mid] << 16 | hashes[3 * mid + 1] << 8 | hashes[3 * mid + 2]
        if found == want:
            return mid
        if found < want:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def _end(ends, n):
    """Where text number `n` ends (the ends come in pieces of PIECE_KEYS)."""
    piece = ends[n // PIECE_KEYS]
    i = 2 * (n % PIECE_KEYS)
    return piece[i] << 8 | piece[i + 1]


def _slice(packed, mid):
    """Text number `mid` of the packed module, as a fresh str (a text lies
    within one piece: the packer cuts between texts)."""
    ends = packed.ENDS
    end = _end(ends, mid)
    start = 0 if mid == 0 else _end(ends, mid - 1)
    cuts = packed.CUTS
    piece = len(cuts) - 1
    while cuts[piece] > start:
        piece -= 1
    cut = cuts[piece]
    return str(packed.BLOB[piece][start - cut:end - cut], "utf-8")


if _find is not None and not _native_ok():
    _find = None
