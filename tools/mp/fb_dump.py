"""Draw operations on frame buffers and print the buffers as hex.

Runs under MicroPython (real ``framebuf``) and CPython (``simulator.framebuf``),
so that the two can be compared byte for byte:

    micropython tools/mp/fb_dump.py CASES
    python tools/mp/fb_dump.py CASES

CASES holds one case per line: a JSON list of operations. Every case starts
from fresh frame buffers whose bytes are preset to a fixed pattern (so bits
outside the drawable area are checked too):

    A 128x64 MONO_VLSB    B 72x40 MONO_VLSB    V 13x11 MONO_VLSB stride 16
    H 13x11 MONO_HLSB     M 13x11 MONO_HMSB    G 10x7 GS8
    R 9x5 RGB565          F 7x5 GS4_HMSB       T 9x4 GS2_HMSB
    P 16x1 RGB565 and Q 16x1 MONO_HLSB (palettes; drawable too)

An operation is ``[method, target, args...]`` and calls that FrameBuffer
method with the args, except:

    ["blit", dst, src, x, y, (key, (palette))]  src, palette: target names;
                                   a name starting with "@" passes the tuple
                                   (buffer, width, height, format, stride)
    ["poly", dst, x, y, typecode, [coords...], c, (f)]  coords as array(typecode)
    ["make", nbytes, width, height, format, (stride)]  construct only

Output, per case i: ``i r k VALUE`` for an operation k that returned a value
(pixel get; "ok" for make), ``i e k NAME`` for one that raised, then one line
``i NAME HEX`` per frame buffer.
"""

import sys

if sys.implementation.name == "micropython":
    import framebuf
else:  # CPython: the stand-in from the simulator package at the repository root
    import os

    _root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    if _root not in sys.path:
        sys.path.insert(0, _root)
    from simulator import framebuf

from array import array
from binascii import hexlify

try:
    import json
except ImportError:  # very old MicroPython
    import ujson as json

# name: (width, height, format, stride or None)
TARGETS = (
    ("A", 128, 64, 0, None),
    ("B", 72, 40, 0, None),
    ("V", 13, 11, 0, 16),
    ("H", 13, 11, 3, None),
    ("M", 13, 11, 4, None),
    ("G", 10, 7, 6, None),
    ("R", 9, 5, 1, None),
    ("F", 7, 5, 2, None),
    ("T", 9, 4, 5, None),
    ("P", 16, 1, 1, None),
    ("Q", 16, 1, 3, None),
)


def _nbytes(w, h, fmt, stride):
    stride = stride or w
    if fmt == 0:
        return ((h + 7) // 8) * stride
    bits = {1: 16, 2: 4, 3: 1, 4: 1, 5: 2, 6: 8}[fmt]
    align = {1: 1, 2: 2, 3: 8, 4: 8, 5: 4, 6: 1}[fmt]
    stride = (stride + align - 1) // align * align
    return stride * h * bits // 8


_PATTERNS = {}


def make_targets(fb):
    """Fresh {name: (FrameBuffer, buffer, tuple form)} with patterned buffers."""
    if not _PATTERNS:
        seed = 0
        for name, w, h, fmt, stride in TARGETS:
            n = _nbytes(w, h, fmt, stride)
            _PATTERNS[name] = bytes((i * 73 + seed * 29 + 41) & 0xFF for i in range(n))
            seed += 1
    out = {}
    for name, w, h, fmt, stride in TARGETS:
        buf = bytearray(_PATTERNS[name])
        s = stride or w
        out[name] = (fb.FrameBuffer(buf, w, h, fmt, s), buf, (buf, w, h, fmt, s))
    return out


def _source(targets, name):
    if name is None:
        return None
    if name[0] == "@":
        return targets[name[1:]][2]
    return targets[name][0]


def run_op(fb, targets, op):
    """Apply one operation; return its result."""
    name = op[0]
    if name == "make":
        args = op[2:]
        fb.FrameBuffer(bytearray(op[1]), *args)
        return "ok"
    target = targets[op[1]][0]
    args = op[2:]
    if name == "blit":
        rest = list(args[3:])
        if len(rest) > 1:
            rest[1] = _source(targets, rest[1])
        return target.blit(_source(targets, args[0]), args[1], args[2], *rest)
    if name == "poly":
        coords = array(args[2], args[3])
        return target.poly(args[0], args[1], coords, *args[4:])
    return getattr(target, name)(*args)


def run_case(fb, index, ops, write):
    """Run one case and write its result lines."""
    targets = make_targets(fb)
    for k in range(len(ops)):
        try:
            r = run_op(fb, targets, ops[k])
            if r is not None:
                write("%d r %d %s" % (index, k, r))
        except Exception as e:  # noqa: BLE001 - the exception type is the result
            write("%d e %d %s" % (index, k, type(e).__name__))
    for t in TARGETS:
        write("%d %s %s" % (index, t[0], hexlify(targets[t[0]][1]).decode()))


def run_lines(fb, lines, write):
    """Run every non-blank line of ``lines`` as one case."""
    index = 0
    for line in lines:
        line = line.strip()
        if line:
            run_case(fb, index, json.loads(line), write)
            index += 1


def main():
    """Entry point: cases file from argv[1], results on stdout."""
    if len(sys.argv) < 2:
        print("usage: fb_dump.py CASES")
        sys.exit(2)
    with open(sys.argv[1]) as f:
        run_lines(framebuf, f, print)


if __name__ == "__main__":
    main()
