"""Reading the board's serial output: the @prof and @heap lines of
firmware/profiling.py, and the start of a Python traceback."""

import re

TRACEBACK = "Traceback (most recent call last)"
PROF_RE = re.compile(r"^@(prof|heap) (.*)$")


def parse_serial(text):
    """The @prof and @heap lines of the serial text: two lists of dicts
    (ints; `idle` gives idle_n and idle_bytes; `scr` a name)."""
    prof, heap = [], []
    for line in text.splitlines():
        m = PROF_RE.match(line.strip())
        if not m:
            continue
        row = {}
        for part in m.group(2).split():
            key, _, value = part.partition("=")
            if key == "scr":
                row[key] = value
            elif key == "idle":
                n, _, b = value.partition(":")
                row["idle_n"], row["idle_bytes"] = _int(n), _int(b)
            else:
                row[key] = _int(value)
        (prof if m.group(1) == "prof" else heap).append(row)
    return prof, heap


def _int(text):
    try:
        return int(text)
    except ValueError:
        return None
