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
