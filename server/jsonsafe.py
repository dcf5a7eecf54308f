"""JSON from strangers: parsed with limits, so that no input reaches the
rooms that could crash a handler or come back as invalid JSON.

Refused (ValueError): nesting deeper than MAX_DEPTH (json.loads itself
would raise RecursionError at about a thousand levels), the non-finite
numbers NaN, Infinity and -Infinity and anything that overflows a float
(1e999), integers longer than MAX_DIGITS, and text that is not JSON."""

import json
import math

MAX_DEPTH = 32  # no message of docs/protocol.md needs more than 4
MAX_DIGITS = 40  # a game number, a roll index, an id: far below this

_OPEN = frozenset(b"[{")
_CLOSE = frozenset(b"]}")


def _too_deep(raw):
    """True when the brackets of `raw` (bytes) nest deeper than MAX_DEPTH,
    counted outside strings, before anything is parsed."""
    depth = 0
    in_string = False
    escaped = False
    for c in raw:
        if in_string:
            if escaped:
                escaped = False
            elif c == 0x5C:  # backslash
                escaped = True
            elif c == 0x22:  # quote
                in_string = False
        elif c == 0x22:
            in_string = True
        elif c in _OPEN:
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif c in _CLOSE:
            depth -= 1
    return False


def _finite(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("non-finite number")
    return value


def _small_int(text):
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError("integer too long")
    return int(text)


def _no_constant(name):
    raise ValueError("non-finite number " + name)


def loads(raw):
    """The JSON value of `raw` (str or bytes); ValueError for anything the
    module docstring refuses."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    # Counting brackets is quick (C); the byte-wise scan only runs for the
    # rare input with enough brackets to nest too deep at all.
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and _too_deep(data):
        raise ValueError("nested too deep")
    return json.loads(raw, parse_float=_finite, parse_int=_small_int,
                      parse_constant=_no_constant)
