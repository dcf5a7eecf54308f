"""The pure-Python framebuf stand-in (simulator/framebuf.py) against the real one.

Random operation sequences run through tools/mp/fb_dump.py twice: under the
MicroPython Unix port from .venv (real ``framebuf``, one process per batch) and
in this process with the stand-in; the dumped buffers must match byte for byte.
FB_STANDIN_SEED=n picks another seed base, FB_STANDIN_CASES=n the batch size.
"""

import json
import os
import random
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from simulator import framebuf
from tools.mp import fb_dump

ROOT = Path(__file__).resolve().parents[2]
FB_DUMP = ROOT / "tools" / "mp" / "fb_dump.py"
MICROPYTHON = Path(sys.executable).parent / "micropython"
SEED = int(os.environ.get("FB_STANDIN_SEED", "0"))
CASES = int(os.environ.get("FB_STANDIN_CASES", "250"))

needs_mp = pytest.mark.skipif(
    not MICROPYTHON.exists(),
    reason="MicroPython Unix port not found at %s (run `make lint` to install it)" % MICROPYTHON,
)

SIZES = {t[0]: (t[1], t[2], t[3]) for t in fb_dump.TARGETS}
MONO = {0, 3, 4}
FEW_COLOURS = {0, 2, 3, 4, 5}  # at most 16 colours: safe with a 16-wide palette


# -- random operations --------------------------------------------------------


def _coord(r, limit, huge=2**29):
    """A coordinate: mostly near the frame, sometimes far out or huge.

    Values stay within +-2**29 so that x + w cannot overflow the C int of
    fill_rect(); line() walks every step in C, so it gets huge=10**5.
    """
    k = r.random()
    if k < 0.7:
        return r.randint(-10, limit + 10)
    if k < 0.9:
        return r.randint(-3 * limit - 20, 3 * limit + 20)
    return r.choice([-huge, -100000, -1, 0, 100000, huge - 1, r.randint(-huge, huge)])


def _size(r, limit):
    """A width/height/length: often small, zero or negative."""
    k = r.random()
    if k < 0.6:
        return r.randint(0, limit + 4)
    if k < 0.85:
        return r.randint(-6, 3)
    if k < 0.95:
        return r.randint(-3 * limit, 3 * limit)
    return r.choice([-(2**28), 2**28, 10**6])


def _colour(r, fmt):
    k = r.random()
    if k < 0.6:
        return r.choice([0, 1] if fmt in MONO else [0, 1, 2, 3, 5, 7, 15, 0xFF, 0xFFFF])
    if k < 0.85:
        return r.randint(0, 0xFFFF)
    return r.choice([-1, -2, 2**16 + 3, 2**31, 2**32, 2**32 + 1, r.randint(-(2**40), 2**40)])


def _text(r):
    k = r.random()
    if k < 0.5:
        n = r.randint(0, 12)
        return "".join(chr(r.randint(32, 126)) for _ in range(n))
    pool = [0, 1, 9, 10, 31, 127, 128, 200, 0xE9, 0x20AC, 0x1F600]
    n = r.randint(0, 8)
    return "".join(
        chr(r.choice(pool) if r.random() < 0.4 else r.randint(32, 127)) for _ in range(n)
    )


def random_op(r, names):
    """One random operation on a random target."""
    t = r.choice(names)
    w, h, fmt = SIZES[t]
    kind = r.choice(
        [
            "fill", "pixel", "getpixel", "hline", "vline", "line", "line", "rect", "rect",
            "fill_rect", "ellipse", "ellipse", "poly", "poly", "text", "text", "scroll",
            "blit", "blit", "blit",
        ]
    )  # fmt: skip
    c = _colour(r, fmt)
    if kind == "fill":
        return ["fill", t, c]
    if kind == "pixel":
        return ["pixel", t, _coord(r, w), _coord(r, h), c]
    if kind == "getpixel":
        return ["pixel", t, r.randint(-2, w + 1), r.randint(-2, h + 1)]
    if kind == "hline":
        return ["hline", t, _coord(r, w), _coord(r, h), _size(r, w), c]
    if kind == "vline":
        return ["vline", t, _coord(r, w), _coord(r, h), _size(r, h), c]
    if kind == "line":
        if r.random() < 0.1:  # far away end points; the real line() walks every step
            return ["line", t] + [r.randint(-(10**5), 10**5) for _ in range(4)] + [c]
        far = 10**5
        return [
            "line",
            t,
            _coord(r, w, far),
            _coord(r, h, far),
            _coord(r, w, far),
            _coord(r, h, far),
            c,
        ]
    if kind in ("rect", "fill_rect"):
        op = [kind, t, _coord(r, w), _coord(r, h), _size(r, w), _size(r, h), c]
        if kind == "rect" and r.random() < 0.6:
            op.append(r.choice([True, False, 0, 1]))
        return op
    if kind == "ellipse":
        big = r.random() < 0.1
        rad = (lambda: r.randint(-400, 400)) if big else (lambda: r.randint(-4, max(w, h)))
        op = ["ellipse", t, _coord(r, w), _coord(r, h), rad(), rad(), c]
        if r.random() < 0.7:
            op.append(r.choice([True, False]))
            if r.random() < 0.7:
                op.append(r.randint(-3, 40))
        return op
    if kind == "poly":
        tc = r.choice(["h", "h", "b", "B", "i"])
        lo, hi = {"h": (-40, 140), "b": (-128, 127), "B": (0, 255), "i": (-300, 300)}[tc]
        n = r.choice([0, 1, 1, 2, 3, 3, 4, 5, 6, 8, 12])
        if r.random() < 0.5:  # compact shapes near the frame
            cx, cy = r.randint(0, w), r.randint(0, h)
            coords = []
            for _ in range(n):
                coords.append(max(lo, min(hi, cx + r.randint(-12, 12))))
                coords.append(max(lo, min(hi, cy + r.randint(-12, 12))))
        else:
            coords = [r.randint(lo, hi) for _ in range(2 * n)]
        if r.random() < 0.1:
            coords.append(r.randint(0, 9))  # odd count: the last value is ignored
        if tc == "i" and r.random() < 0.2:
            coords = [v * 3000 for v in coords]
        op = ["poly", t, _coord(r, w), _coord(r, h), tc, coords, c]
        if r.random() < 0.7:
            op.append(r.choice([True, False]))
        return op
    if kind == "text":
        op = ["text", t, _text(r), r.randint(-20, w + 4), r.randint(-12, h + 4)]
        if r.random() < 0.7:
            op.append(c)
        return op
    if kind == "scroll":
        return ["scroll", t, r.randint(-w - 2, w + 2), r.randint(-h - 2, h + 2)]
    # blit
    src = r.choice(names)
    sw, sh, sfmt = SIZES[src]
    op = ["blit", t, ("@" if r.random() < 0.2 else "") + src]
    op += [r.randint(-sw - 3, w + 3), r.randint(-sh - 3, h + 3)]
    if r.random() < 0.7:
        op.append(r.choice([-1, 0, 1, 2, 5, 0xFF, 0xFFFF, 2**32 - 1, r.randint(0, 0xFFFF)]))
        if sfmt in FEW_COLOURS and r.random() < 0.5:
            op.append(r.choice(["P", "Q", "@P", "@Q"]))
    return op


def random_case(r):
    """A short sequence of operations on one to three targets."""
    names = r.sample(sorted(SIZES), r.randint(1, 3))
    return [random_op(r, names) for _ in range(r.randint(1, 8))]


# -- running both sides -------------------------------------------------------


def run_micropython(path):
    proc = subprocess.run(
        [str(MICROPYTHON), "-X", "heapsize=8M", str(FB_DUMP), str(path)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    return proc.stdout.splitlines()


def run_standin(lines):
    out = []
    fb_dump.run_lines(framebuf, lines, out.append)
    return out


def by_case(lines):
    cases = {}
    for line in lines:
        cases.setdefault(int(line.split(" ", 1)[0]), []).append(line)
    return cases


def _diff_pixels(name, real_hex, ours_hex):
    """Describe the first differing pixels of target ``name``."""
    w, h, fmt, stride = next(t[1:] for t in fb_dump.TARGETS if t[0] == name)
    real = framebuf.FrameBuffer(bytearray.fromhex(real_hex), w, h, fmt, stride or w)
    ours = framebuf.FrameBuffer(bytearray.fromhex(ours_hex), w, h, fmt, stride or w)
    bad = [
        (x, y, real.pixel(x, y), ours.pixel(x, y))
        for y in range(h)
        for x in range(w)
        if real.pixel(x, y) != ours.pixel(x, y)
    ]
    if not bad:
        return "pixels equal; bytes outside the frame differ"
    return "%d pixels differ, first (x, y, real, ours): %s" % (len(bad), bad[:6])


def compare(case_lines, tmp_path):
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(case_lines) + "\n", encoding="utf-8")
    real = by_case(run_micropython(path))
    ours = by_case(run_standin(case_lines))
    assert len(real) == len(case_lines), "MicroPython produced %d of %d cases" % (
        len(real),
        len(case_lines),
    )
    failures = []
    for i, text in enumerate(case_lines):
        if real.get(i) != ours.get(i):
            got = dict(zip(real.get(i, []), ours.get(i, []), strict=False))
            detail = []
            for a, b in got.items():
                if a != b:
                    parts_a, parts_b = a.split(" "), b.split(" ")
                    if len(parts_a) == 3 and len(parts_b) == 3 and parts_a[1] == parts_b[1]:
                        detail.append(parts_a[1] + ": " + _diff_pixels(*parts_a[1:], parts_b[2]))
                    else:
                        detail.append("real %r / ours %r" % (a[:120], b[:120]))
            failures.append("case %d %s\n    %s" % (i, text, "\n    ".join(detail)))
    assert not failures, "%d of %d cases differ:\n%s" % (
        len(failures),
        len(case_lines),
        "\n".join(failures[:5]),
    )


@needs_mp
@pytest.mark.parametrize("batch", range(6))
def test_random_sequences_match_micropython(batch, tmp_path):
    r = random.Random(1000 * SEED + batch)
    cases = [json.dumps(random_case(r), ensure_ascii=False) for _ in range(CASES)]
    compare(cases, tmp_path)


EDGE_CASES = [
    # rect with zero / negative sizes: the C code draws its four edges regardless
    [["rect", "A", 5, 5, 0, 0, 1], ["rect", "B", 5, 5, 3, 0, 1], ["rect", "V", 5, 5, 0, 4, 1]],
    [
        ["rect", "A", 5, 5, -3, -4, 1],
        ["rect", "H", -2, -2, 20, 20, 1],
        ["rect", "M", 1, 1, 1, 1, 1],
    ],
    # lines: points, all octants, clipped ends
    [
        ["line", "A", 3, 3, 3, 3, 1],
        ["line", "A", 10, 10, 30, 15, 1],
        ["line", "A", 30, 15, 10, 10, 1],
    ],
    [
        ["line", "B", 10, 10, 15, 30, 1],
        ["line", "B", 15, 30, 10, 10, 1],
        ["line", "B", -5, 50, 80, -9, 1],
    ],
    [
        ["line", "H", 0, 0, 12, 10, 1],
        ["line", "M", 12, 0, 0, 10, 1],
        ["line", "V", 6, -3, 6, 14, 1],
    ],
    # ellipses: every quadrant mask, filled and not, degenerate radii
    [["ellipse", "A", 30, 30, 20, 10, 1, False, m] for m in range(16)],
    [["ellipse", "A", 64, 32, 30, 20, 1, True, 5], ["ellipse", "A", 64, 32, 0, 5, 1]],
    [["ellipse", "B", 3, 3, 5, 0, 1, True], ["ellipse", "B", 30, 20, 0, 0, 1, False, 0]],
    [["ellipse", "B", 30, 20, -4, 6, 1], ["ellipse", "B", 30, 20, 6, -4, 1, True]],
    # polygons: concave, self-intersecting, horizontal edges, single point, odd count
    [["poly", "A", 10, 5, "h", [0, 0, 40, 0, 40, 30, 20, 10, 0, 30], 1, True]],
    [["poly", "A", 60, 10, "h", [0, 0, 30, 30, 0, 30, 30, 0], 1, True]],
    [
        ["poly", "B", 5, 5, "b", [0, 0, 10, 0, 10, 10, 0, 10], 1],
        ["poly", "B", 40, 30, "h", [2, 2], 1],
    ],
    [
        ["poly", "B", 5, 5, "h", [0, 5, 7, 0, 14, 5, 7, 10, 3], 1, True],
        ["poly", "B", 0, 0, "h", [], 1],
    ],
    # blits: key, palette, tuple sources, overlap with itself, out of bounds
    [
        ["fill", "H", 0],
        ["text", "H", "Z", 2, 2],
        ["blit", "A", "H", 3, 4],
        ["blit", "A", "H", -5, -6, 0],
    ],
    [
        ["blit", "G", "F", 1, 1, 3, "P"],
        ["blit", "R", "@T", -2, 1, -1, "@P"],
        ["blit", "Q", "H", 0, 0, 0],
    ],
    [["blit", "A", "A", 3, 2], ["blit", "B", "B", -4, -3, 1], ["blit", "A", "B", 128, 0]],
    # scroll in every direction, by nothing and by more than the frame
    [["scroll", "A", 5, 0], ["scroll", "B", -7, 3], ["scroll", "V", 3, -5], ["scroll", "H", 0, 0]],
    [["scroll", "M", -2, 2], ["scroll", "G", 1, -1], ["scroll", "R", 9, 0], ["scroll", "T", -1, 3]],
    # text: control characters, non-ASCII (UTF-8 bytes), NUL ends the string, colour 0
    [["text", "A", "\x01\x7f\x80\u00e9\u20ac", 0, 0], ["text", "A", "ab\x00cd", 0, 10]],
    [
        ["fill", "B", 1],
        ["text", "B", "Hi!", -3, -2, 0],
        ["text", "B", "Q", 68, 37],
        ["text", "V", "8", 5, 4],
    ],
    # constructor validation
    [["make", 8, 8, 8, 0], ["make", 7, 8, 8, 0], ["make", 16, 8, 8, 9], ["make", 16, 0, 8, 0]],
    [
        ["make", 30, 13, 11, 3],
        ["make", 21, 13, 11, 3],
        ["make", 22, 13, 11, 3, 13],
        ["make", 9, 4, 4, 5],
    ],
    [
        ["make", 8, 4, 2, 1],
        ["make", 16, 8, 2, 0, 7],
        ["make", 16, 8, 2, 0, 8],
        ["make", 70, 10, 7, 6],
    ],
]


@needs_mp
def test_edge_cases_match_micropython(tmp_path):
    compare([json.dumps(case, ensure_ascii=False) for case in EDGE_CASES], tmp_path)


# -- hand-written checks (no MicroPython needed) -----------------------------


def lit(fb, w, h):
    return {(x, y) for y in range(h) for x in range(w) if fb.pixel(x, y)}


@pytest.mark.parametrize("fmt", [framebuf.MONO_VLSB, framebuf.MONO_HLSB, framebuf.MONO_HMSB])
def test_vline_is_vertical_and_hline_horizontal(fmt):
    fb = framebuf.FrameBuffer(bytearray(32), 16, 16, fmt)
    fb.vline(3, 2, 5, 1)
    assert lit(fb, 16, 16) == {(3, y) for y in range(2, 7)}
    fb.fill(0)
    fb.hline(2, 9, 6, 1)
    assert lit(fb, 16, 16) == {(x, 9) for x in range(2, 8)}


def test_rect_outline_and_filled():
    fb = framebuf.FrameBuffer(bytearray(16 * 2), 16, 16, framebuf.MONO_VLSB)
    fb.rect(2, 3, 5, 4, 1)
    expect = {(x, y) for x in range(2, 7) for y in range(3, 7)}
    assert lit(fb, 16, 16) == expect - {(x, y) for x in range(3, 6) for y in range(4, 6)}
    fb.rect(2, 3, 5, 4, 1, True)
    assert lit(fb, 16, 16) == expect


GLYPH_A = [
    "...##...",
    "..####..",
    ".##..##.",
    ".######.",
    ".##..##.",
    ".##..##.",
    ".##..##.",
    "........",
]


def picture(fb, w, h):
    return ["".join("#" if fb.pixel(x, y) else "." for x in range(w)) for y in range(h)]


@pytest.mark.parametrize("fmt", [framebuf.MONO_VLSB, framebuf.MONO_HLSB, framebuf.MONO_HMSB])
def test_text_renders_a(fmt):
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, fmt)
    fb.text("A", 0, 0, 1)
    shape = picture(fb, 8, 8)
    assert shape == GLYPH_A, "\n".join(shape)


def test_text_bytes_and_offsets():
    buf = bytearray(8)
    fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
    fb.text("A", 0, 0)
    assert bytes(buf) == bytes.fromhex("007c7e0b0b7e7c00")
    fb.fill(0)
    fb.text("A", 0, 3)  # shifted down by three rows, bottom clipped
    assert bytes(buf) == bytes(((b << 3) & 0xFF) for b in bytes.fromhex("007c7e0b0b7e7c00"))
    fb.fill(1)
    fb.text("A", -1, 0, 0)  # colour 0 clears; one column off the left edge
    assert bytes(buf) == bytes((~b & 0xFF) for b in bytes.fromhex("7c7e0b0b7e7c0000"))


def test_works_in_place_on_memoryview_and_constants():
    raw = bytearray(16)
    fb = framebuf.FrameBuffer(memoryview(raw)[4:12], 8, 8, framebuf.MONO_VLSB)
    fb.pixel(2, 1, 1)
    assert raw[6] == 0b10 and sum(raw) == 2
    assert bytes(fb) == bytes(raw[4:12])
    assert (framebuf.MONO_VLSB, framebuf.MVLSB, framebuf.RGB565, framebuf.GS4_HMSB) == (0, 0, 1, 2)
    assert (framebuf.MONO_HLSB, framebuf.MONO_HMSB, framebuf.GS2_HMSB, framebuf.GS8) == (3, 4, 5, 6)


def test_argument_errors_like_micropython():
    fb = framebuf.FrameBuffer(bytearray(8), 8, 8, framebuf.MONO_VLSB)
    with pytest.raises(TypeError):
        fb.pixel(1.5, 0, 1)
    with pytest.raises(TypeError):
        fb.poly(0, 0, [0, 0, 3, 3], 1)  # needs a buffer such as array('h')
    fb.poly(0, 0, array("h", [0, 0, 3, 3]), 1)
    assert fb.pixel(3, 3) == 1
    with pytest.raises(ValueError):
        framebuf.FrameBuffer(bytearray(7), 8, 8, framebuf.MONO_VLSB)
    with pytest.raises(TypeError):
        framebuf.FrameBuffer(bytes(8), 8, 8, framebuf.MONO_VLSB)


def test_subclass_like_a_display_driver():
    class Display(framebuf.FrameBuffer):
        def __init__(self):
            self.width, self.height = 16, 8
            self.buffer = bytearray(16)
            super().__init__(self.buffer, self.width, self.height, framebuf.MONO_VLSB)

    d = Display()
    d.fill(1)
    assert d.buffer == bytearray(b"\xff" * 16) and d.width == 16
