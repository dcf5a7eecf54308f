"""JSON from strangers: parsed with limits, so that no input reaches the
rooms that could crash a handler or come back as invalid JSON.

Parsed by orjson: an action's message in a quarter of the time the json
module took with the hooks that checked its numbers.
Refused (ValueError): nesting deeper than MAX_DEPTH (counted here before
parsing), the non-finite numbers NaN, Infinity and -Infinity and anything
that overflows a float (1e999), lone surrogates (text that could not be
written back as UTF-8), and text that is not JSON. An integer beyond 64
bits comes as a float, as a browser would read it: never a Python int so
long that turning it into text raises."""

import orjson

MAX_DEPTH = 32  # no message of docs/protocol.md needs more than 4

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


def loads(raw):
    """The JSON value of `raw` (str or bytes); ValueError for anything the
    module docstring refuses."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    # Counting brackets is quick (C); the byte-wise scan only runs for the
    # rare input with enough brackets to nest too deep at all.
    if data.count(b"[") + data.count(b"{") > MAX_DEPTH and _too_deep(data):
        raise ValueError("nested too deep")
    return orjson.loads(data)  # orjson.JSONDecodeError is a ValueError
