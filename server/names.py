"""Names and codes: what a person may be called, and the secrets that
name rooms and seats."""

import hashlib
import hmac
import re
import secrets
import unicodedata

from engine.game import MAX_NAME

_EXTRA = " -_.'"
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{12}$")


def clean_name(name):
    """The name with outer spaces dropped, or None when it is not 1..12
    letters, digits, spaces and -_.' (no control or markup characters)."""
    if not isinstance(name, str):
        return None
    name = unicodedata.normalize("NFC", name).strip()
    if not 1 <= len(name) <= MAX_NAME or "  " in name:
        return None
    for ch in name:
        if not (ch.isalnum() or ch in _EXTRA):
            return None
    return name


# Default_Ignorable_Code_Point (Unicode's DerivedCoreProperties.txt) and
# the blank letters: drawn as nothing, or as empty space. Most fail
# isalnum() anyway; the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0)
# are letters to Python and would make an invisible name.
_INVISIBLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)

# Look-alikes: a small table of the common Cyrillic, Greek, Armenian and
# Cherokee letters drawn like Latin ones (after NFKC, before case folding, so that the capital's
# look counts: Greek "Η" is an H, "ν" a v), and the digits and letters
# that share a shape in most fonts, and "rn" for "m". Not the whole of
# Unicode's confusables.txt (which the standard library does not carry):
# enough for the names a person types to pass as another.
_LOOKALIKE = str.maketrans({
    # Cyrillic capitals and small letters
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "l", "Ј": "J", "Ԛ": "Q",
    "Ԝ": "W", "Ӏ": "l",
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d",
    "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ё": "ë", "ї": "ï",
    # Greek capitals and small letters
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "α": "a", "ο": "o", "ρ": "p", "ν": "v", "ι": "i", "κ": "k", "υ": "u", "τ": "t",
    "χ": "x",
    # Armenian and Cherokee letters drawn like Latin ones
    "օ": "o", "ո": "n", "ս": "u", "հ": "h", "ց": "g", "զ": "q", "Օ": "O", "Ս": "U",
    "Ꭺ": "A", "Ᏼ": "B", "Ꮯ": "C", "Ꭰ": "D", "Ꭼ": "E", "Ꮐ": "G", "Ꮋ": "H", "Ꭻ": "J",
    "Ꮶ": "K", "Ꮮ": "L", "Ꮇ": "M", "Ꮲ": "P", "Ꭱ": "R", "Ꮪ": "S", "Ꭲ": "T", "Ꮩ": "V",
    "Ꮃ": "W", "Ꮓ": "Z",
    # Latin letters drawn like other Latin ones, and digits that share a shape
    "ɑ": "a", "ı": "i", "ɡ": "g", "ɩ": "i",
    "I": "l", "1": "l", "|": "l", "0": "O",
})


def invisible(ch):
    """True for a character drawn as nothing or as blank space."""
    o = ord(ch)
    return ch.isspace() or any(lo <= o <= hi for lo, hi in _INVISIBLE)


def visible_name(name):
    """False when the name (a str) is made only of invisible or blank
    characters (e.g. U+3164 HANGUL FILLER alone)."""
    return any(not invisible(ch) for ch in name)


def skeleton(name):
    """What a name looks like, for comparing two names: NFKC, invisible
    characters dropped, look-alikes mapped to one letter (the table
    above), then case folded. Two names with the same skeleton pass for
    each other in a room."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if not invisible(ch) or ch == " ")
    text = text.translate(_LOOKALIKE).casefold().replace("rn", "m")  # "rn" reads as "m"
    return " ".join(text.split())


def new_code():
    """A room code: 72 random bits in 12 URL-safe characters."""
    return secrets.token_urlsafe(9)


def new_token():
    """A seat token: 192 random bits (the client keeps it, never in a URL)."""
    return secrets.token_urlsafe(24)


def code_tag(code):
    """What the log shows of a room code: 8 hex digits of its hash (the
    same room has the same tag; the code cannot be read back from it)."""
    return hashlib.sha256(("log:" + code).encode()).hexdigest()[:8]


def token_hash(token):
    """What the server stores of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token, stored):
    """True when `token` is the one whose hash is `stored` (constant time)."""
    if not isinstance(token, str) or not stored or len(token) > 100:
        return False
    return hmac.compare_digest(token_hash(token), stored)
