"""Pure-Python stand-in for MicroPython's ``framebuf`` module (CPython only).

The simulator and the CPython tests import this module in place of the
built-in ``framebuf`` so that the app code runs unchanged. It follows
MicroPython's ``extmod/modframebuf.c`` behaviour pixel for pixel, including
its quirks: clipping rules, ``rect`` with zero or negative sizes, Bresenham
line end points, ellipse quadrant masks, the polygon fill rule (with C integer
division), ``blit`` with a colour key and a palette, ``scroll`` leaving the
uncovered area untouched, and ``text`` with the built-in 8x8 font (bytes of
the UTF-8 text, stopping at NUL, characters outside 32..127 drawn as 127).
``tests/cpython/test_framebuf_standin.py`` checks it against the real module.

Differences that remain (all outside what a correct program relies on):

* integers beyond 64 bits are masked instead of raising OverflowError;
* a palette narrower than the source's colours reads out of bounds in C;
  here it raises IndexError or reads other palette bytes;
* ``memoryview(fb)`` needs Python 3.12 (``__buffer__``); ``bytes(fb)`` works.
"""

from operator import index as _index

MONO_VLSB = 0
MVLSB = 0
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

# Font of MicroPython's text() (font_petme128_8x8): characters 32..127, eight
# bytes each, one byte per column, least significant bit at the top. Produced
# by rendering every character with the real framebuf module.
_FONT = bytes.fromhex(
    "00000000000000000000004f4f0000000007070000070700147f7f14147f7f14"
    "00242e6b6b3a1200006333180c66630000327f4d4d7772500000000406030100"
    "00001c3e63410000000041633e1c0000082a3e1c1c3e2a080008083e3e080800"
    "000080e0600000000008080808080800000000606000000000406030180c0602"
    "003e7f49457f3e000040447f7f40400000627351494f460000226349497f3600"
    "00181814167f7f1000276745457d3900003e7f49497b3200000303797d070300"
    "00367f49497f360000266f49497f3e000000002424000000000080e464000000"
    "00081c3663414100001414141414140000414163361c080000020351590f0600"
    "003e7f414d4f2e00007c7e0b0b7e7c00007f7f49497f3600003e7f4141632200"
    "007f7f41633e1c00007f7f4949414100007f7f0909010100003e7f41497b3a00"
    "007f7f08087f7f000000417f7f410000002060417f3f0100007f7f1c36634100"
    "007f7f4040404000007f7f060c067f7f007f7f0e1c7f7f00003e7f41417f3e00"
    "007f7f09090f0600001e3f21617f5e00007f7f19396f460000266f49497b3200"
    "0001017f7f010100003f7f40407f3f00001f3f60603f1f00007f7f3018307f7f"
    "0063771c1c77630000070f78780f0700006171594d47430000007f7f41410000"
    "0002060c18306040000041417f7f000000080c06060c0800c0c0c0c0c0c0c0c0"
    "000001030604000000207454547c7800007f7f44447c380000387c44446c2800"
    "00387c44447f7f0000387c54545c580000087e7f090302000098bca4a4fc7c00"
    "007f7f04047c78000000007d7d0000000040c08080fd7d00007f7f30386c4400"
    "0000417f7f400000007c7c1830187c7c007c7c04047c780000387c44447c3800"
    "00fcfc24243c180000183c2424fcfc00007c7c04040c080000485c5454742000"
    "04043f7f44642000003c7c40407c3c00001c3c60603c1c00001c7c3018307c1c"
    "00446c38386c4400009cbca0a0fc7c00004464745c4c44000008083e77414100"
    "000000ffff000000004141773e0808000002030103020301aa55aa55aa55aa55"
)

# Colour masks: the C code keeps colours as uint32_t; mono formats test != 0.
_CMASK = {
    MONO_VLSB: 0xFFFFFFFF,
    MONO_HLSB: 0xFFFFFFFF,
    MONO_HMSB: 0xFFFFFFFF,
    RGB565: 0xFFFF,
    GS8: 0xFF,
    GS4_HMSB: 0x0F,
    GS2_HMSB: 0x03,
}

_TABLES = {}


def _table(clear, setbits):
    """Translation table mapping byte b to (b & ~clear) | setbits."""
    key = (clear, setbits)
    t = _TABLES.get(key)
    if t is None:
        keep = ~clear & 0xFF
        t = _TABLES[key] = bytes((b & keep) | setbits for b in range(256))
    return t


def _int32(v):
    """Wrap like a C ``int`` parameter (fill_rect takes int arguments)."""
    return ((v + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def _cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class FrameBuffer:
    """FrameBuffer(buffer, width, height, format, stride=width) over a writable buffer."""

    __slots__ = ("_fb_obj", "_fb_buf", "_fb_w", "_fb_h", "_fb_fmt", "_fb_stride", "_fb_cmask")

    def __init__(self, buffer, width, height, format, stride=None):
        self._fb_setup(buffer, width, height, format, stride, True)

    # -- construction -------------------------------------------------------

    def _fb_setup(self, buffer, width, height, fmt, stride, writable):
        width = _index(width)
        height = _index(height)
        fmt = _index(fmt)
        stride = width if stride is None else _index(stride)
        if width < 1 or height < 1 or width > 0xFFFF or height > 0xFFFF:
            raise ValueError()
        if stride > 0xFFFF or stride < width:
            raise ValueError()
        bpp = 1
        height_req = height
        width_req = width
        strides_req = height - 1
        if fmt == MONO_VLSB:
            height_req = (height + 7) & ~7
            strides_req = height_req - 8
        elif fmt in (MONO_HLSB, MONO_HMSB):
            stride = (stride + 7) & ~7
            width_req = (width + 7) & ~7
        elif fmt == GS2_HMSB:
            stride = (stride + 3) & ~3
            width_req = (width + 3) & ~3
            bpp = 2
        elif fmt == GS4_HMSB:
            stride = (stride + 1) & ~1
            width_req = (width + 1) & ~1
            bpp = 4
        elif fmt == GS8:
            bpp = 8
        elif fmt == RGB565:
            bpp = 16
        else:
            raise ValueError("invalid format")
        if isinstance(buffer, bytearray):
            buf = buffer
        else:
            try:
                buf = memoryview(buffer)
            except TypeError:
                raise TypeError("object with buffer protocol required")
            if writable and buf.readonly:
                raise TypeError("object with buffer protocol required")
            if buf.format != "B" or buf.ndim != 1:
                buf = buf.cast("B")
        need = (strides_req * stride + (height_req - strides_req) * width_req) * bpp // 8
        if need > len(buf):
            raise ValueError()
        self._fb_obj = buffer
        self._fb_buf = buf
        self._fb_w = width
        self._fb_h = height
        self._fb_fmt = fmt
        self._fb_stride = stride & 0xFFFF
        self._fb_cmask = _CMASK[fmt]

    @classmethod
    def _fb_source(cls, arg):
        """A FrameBuffer, or one built read-only from (buffer, w, h, format[, stride])."""
        if isinstance(arg, FrameBuffer):
            return arg
        if not isinstance(arg, (tuple, list)):
            raise TypeError("object '%s' isn't a tuple or list" % type(arg).__name__)
        if len(arg) < 4 or len(arg) > 5:
            raise ValueError()
        fb = object.__new__(FrameBuffer)
        fb._fb_setup(arg[0], arg[1], arg[2], arg[3], arg[4] if len(arg) > 4 else None, False)
        return fb

    def __bytes__(self):
        return bytes(self._fb_obj)

    def __buffer__(self, flags):
        return memoryview(self._fb_obj)

    # -- raw pixel access (coordinates already inside, colour already masked) --

    def _fb_get(self, x, y):
        buf = self._fb_buf
        fmt = self._fb_fmt
        if fmt == MONO_VLSB:
            return (buf[(y >> 3) * self._fb_stride + x] >> (y & 7)) & 1
        i = x + y * self._fb_stride
        if fmt == MONO_HLSB:
            return (buf[i >> 3] >> (7 - (x & 7))) & 1
        if fmt == MONO_HMSB:
            return (buf[i >> 3] >> (x & 7)) & 1
        if fmt == GS8:
            return buf[i]
        if fmt == RGB565:
            return buf[2 * i] | (buf[2 * i + 1] << 8)
        if fmt == GS4_HMSB:
            return buf[i >> 1] & 0x0F if x & 1 else buf[i >> 1] >> 4
        return (buf[i >> 2] >> ((x & 3) << 1)) & 3  # GS2_HMSB

    def _fb_set(self, x, y, c):
        buf = self._fb_buf
        fmt = self._fb_fmt
        if fmt == MONO_VLSB:
            i = (y >> 3) * self._fb_stride + x
            if c:
                buf[i] |= 1 << (y & 7)
            else:
                buf[i] &= ~(1 << (y & 7)) & 0xFF
            return
        i = x + y * self._fb_stride
        if fmt == MONO_HLSB or fmt == MONO_HMSB:
            bit = 1 << ((x & 7) if fmt == MONO_HMSB else (7 - (x & 7)))
            if c:
                buf[i >> 3] |= bit
            else:
                buf[i >> 3] &= ~bit & 0xFF
        elif fmt == GS8:
            buf[i] = c
        elif fmt == RGB565:
            buf[2 * i] = c & 0xFF
            buf[2 * i + 1] = c >> 8
        elif fmt == GS4_HMSB:
            if x & 1:
                buf[i >> 1] = (buf[i >> 1] & 0xF0) | c
            else:
                buf[i >> 1] = (buf[i >> 1] & 0x0F) | (c << 4)
        else:  # GS2_HMSB
            shift = (x & 3) << 1
            buf[i >> 2] = (buf[i >> 2] & ~(3 << shift) & 0xFF) | (c << shift)

    def _fb_set_checked(self, x, y, c):
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            self._fb_set(x, y, c)

    # -- rectangle fill on clipped coordinates (w, h >= 1) --------------------

    def _fb_fill(self, x, y, w, h, c):
        buf = self._fb_buf
        fmt = self._fb_fmt
        stride = self._fb_stride
        if fmt == MONO_VLSB:
            full = (b"\xff" if c else b"\x00") * w
            yend = y + h
            for page in range(y >> 3, ((yend - 1) >> 3) + 1):
                top = page << 3
                lo = y - top if y > top else 0
                hi = yend - top if yend < top + 8 else 8
                mask = ((1 << hi) - 1) & ~((1 << lo) - 1)
                a = page * stride + x
                if mask == 0xFF:
                    buf[a : a + w] = full
                elif w > 4:
                    buf[a : a + w] = bytes(buf[a : a + w]).translate(_table(mask, mask if c else 0))
                elif c:
                    for i in range(a, a + w):
                        buf[i] |= mask
                else:
                    keep = ~mask & 0xFF
                    for i in range(a, a + w):
                        buf[i] &= keep
        elif fmt == MONO_HLSB or fmt == MONO_HMSB:
            xend = x + w
            b0 = x >> 3
            b1 = (xend - 1) >> 3
            if fmt == MONO_HMSB:
                m0 = (0xFF << (x & 7)) & 0xFF
                m1 = 0xFF >> (7 - ((xend - 1) & 7))
            else:
                m0 = 0xFF >> (x & 7)
                m1 = (0xFF << (7 - ((xend - 1) & 7))) & 0xFF
            if b0 == b1:
                m0 &= m1
            fullb = b"\xff" if c else b"\x00"
            advance = stride >> 3
            for row in range(y, y + h):
                base = row * advance
                i = base + b0
                buf[i] = (buf[i] | m0) if c else (buf[i] & ~m0 & 0xFF)
                if b1 > b0:
                    i = base + b1
                    buf[i] = (buf[i] | m1) if c else (buf[i] & ~m1 & 0xFF)
                    if b1 > b0 + 1:
                        buf[base + b0 + 1 : base + b1] = fullb * (b1 - b0 - 1)
        elif fmt == GS8:
            run = bytes((c,)) * w
            for row in range(y, y + h):
                a = row * stride + x
                buf[a : a + w] = run
        elif fmt == RGB565:
            run = bytes((c & 0xFF, c >> 8)) * w
            for row in range(y, y + h):
                a = 2 * (row * stride + x)
                buf[a : a + 2 * w] = run
        else:  # GS4_HMSB, GS2_HMSB: rare, pixel by pixel
            setp = self._fb_set
            for row in range(y, y + h):
                for col in range(x, x + w):
                    setp(col, row, c)

    def _fb_fill_rect(self, x, y, w, h, c):
        """C fill_rect(): int arguments, clip, no-op when empty or outside."""
        x = _int32(x)
        y = _int32(y)
        w = _int32(w)
        h = _int32(h)
        width = self._fb_w
        height = self._fb_h
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= height or x >= width:
            return
        xend = x + w if x + w < width else width
        yend = y + h if y + h < height else height
        if x < 0:
            x = 0
        if y < 0:
            y = 0
        self._fb_fill(x, y, xend - x, yend - y, c)

    # -- public API ---------------------------------------------------------

    def fill(self, c):
        """Fill the whole frame buffer with colour c."""
        self._fb_fill(0, 0, self._fb_w, self._fb_h, _index(c) & self._fb_cmask)

    def fill_rect(self, x, y, w, h, c):
        """Fill the w x h rectangle at (x, y), clipped."""
        self._fb_fill_rect(_index(x), _index(y), _index(w), _index(h), _index(c) & self._fb_cmask)

    def pixel(self, x, y, *c):
        """pixel(x, y) returns the colour (None outside); pixel(x, y, c) sets it."""
        if len(c) > 1:
            raise TypeError("function takes at most 4 positional arguments")
        x = _index(x)
        y = _index(y)
        if 0 <= x < self._fb_w and 0 <= y < self._fb_h:
            if not c:
                return self._fb_get(x, y)
            self._fb_set(x, y, _index(c[0]) & self._fb_cmask)
        return None

    def hline(self, x, y, w, c):
        """Horizontal line of w pixels from (x, y)."""
        self._fb_fill_rect(_index(x), _index(y), _index(w), 1, _index(c) & self._fb_cmask)

    def vline(self, x, y, h, c):
        """Vertical line of h pixels down from (x, y)."""
        self._fb_fill_rect(_index(x), _index(y), 1, _index(h), _index(c) & self._fb_cmask)

    def rect(self, x, y, w, h, c, f=False):
        """Rectangle outline (or filled when f is true), as four clipped lines."""
        x = _index(x)
        y = _index(y)
        w = _index(w)
        h = _index(h)
        c = _index(c) & self._fb_cmask
        fr = self._fb_fill_rect
        if f:
            fr(x, y, w, h, c)
        else:
            fr(x, y, w, 1, c)
            fr(x, y + h - 1, w, 1, c)
            fr(x, y, 1, h, c)
            fr(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
        """Bresenham line from (x1, y1) to (x2, y2), both ends included."""
        self._fb_line(_index(x1), _index(y1), _index(x2), _index(y2), _index(c) & self._fb_cmask)

    def _fb_line(self, x1, y1, x2, y2, c):
        dx = x2 - x1
        sx = 1
        if dx <= 0:
            dx = -dx
            sx = -1
        dy = y2 - y1
        sy = 1
        if dy <= 0:
            dy = -dy
            sy = -1
        # Walk along the major axis u (x, or y when steep); v is the minor one.
        steep = dy > dx
        if steep:
            u, v, du, dv, su, sv = y1, x1, dy, dx, sy, sx
            ulim, vlim = self._fb_h, self._fb_w
        else:
            u, v, du, dv, su, sv = x1, y1, dx, dy, sx, sy
            ulim, vlim = self._fb_w, self._fb_h
        if du > 0:
            # Steps i in [0, du) plot (u + su*i, v + sv*n(i)) where n(i), the
            # number of minor steps taken before step i, has a closed form;
            # only steps whose major coordinate is on screen are visited.
            if su > 0:
                i0 = -u if u < 0 else 0
                i1 = ulim - u if ulim - u < du else du
            else:
                i0 = u - ulim + 1 if u >= ulim else 0
                i1 = u + 1 if u + 1 < du else du
            two_du = 2 * du
            two_dv = 2 * dv
            setp = self._fb_set
            for i in range(i0, i1):
                vi = v + sv * ((two_dv * i - du) // two_du + 1)
                if 0 <= vi < vlim:
                    if steep:
                        setp(vi, u + su * i, c)
                    else:
                        setp(u + su * i, vi, c)
        self._fb_set_checked(x2, y2, c)

    def ellipse(self, x, y, xr, yr, c, f=False, m=0x0F):
        """Ellipse centred at (x, y) with radii xr, yr; f fills; m masks quadrants.

        Quadrant bits: 1 top right, 2 top left, 4 bottom left, 8 bottom right.
        """
        cx = _index(x)
        cy = _index(y)
        a = _index(xr)
        b = _index(yr)
        c = _index(c) & self._fb_cmask
        fill = bool(f)
        m = _index(m) & 0x0F
        if a == 0 and b == 0:
            if m:
                self._fb_set_checked(cx, cy, c)
            return
        two_a2 = 2 * a * a
        two_b2 = 2 * b * b
        pts = self._fb_ellipse_points
        # First region: from (a, 0) while the slope is shallower than -1.
        px = a
        py = 0
        xchange = b * b * (1 - 2 * a)
        ychange = a * a
        err = 0
        stop_x = two_b2 * a
        stop_y = 0
        while stop_x >= stop_y:
            pts(cx, cy, px, py, c, fill, m)
            py += 1
            stop_y += two_a2
            err += ychange
            ychange += two_a2
            if 2 * err + xchange > 0:
                px -= 1
                stop_x -= two_b2
                err += xchange
                xchange += two_b2
        # Second region: from (0, b).
        px = 0
        py = b
        xchange = b * b
        ychange = a * a * (1 - 2 * b)
        err = 0
        stop_x = 0
        stop_y = two_a2 * b
        while stop_x <= stop_y:
            pts(cx, cy, px, py, c, fill, m)
            px += 1
            stop_x += two_b2
            err += xchange
            xchange += two_b2
            if 2 * err + ychange > 0:
                py -= 1
                stop_y -= two_a2
                err += ychange
                ychange += two_a2

    def _fb_ellipse_points(self, cx, cy, px, py, c, fill, m):
        if fill:
            fr = self._fb_fill_rect
            if m & 1:
                fr(cx, cy - py, px + 1, 1, c)
            if m & 2:
                fr(cx - px, cy - py, px + 1, 1, c)
            if m & 4:
                fr(cx - px, cy + py, px + 1, 1, c)
            if m & 8:
                fr(cx, cy + py, px + 1, 1, c)
        else:
            sp = self._fb_set_checked
            if m & 1:
                sp(cx + px, cy - py, c)
            if m & 2:
                sp(cx - px, cy - py, c)
            if m & 4:
                sp(cx - px, cy + py, c)
            if m & 8:
                sp(cx + px, cy + py, c)

    def poly(self, x, y, coords, c, f=False):
        """Polygon with vertices coords (a buffer such as array('h')) offset by (x, y)."""
        x = _index(x)
        y = _index(y)
        try:
            vals = memoryview(coords).tolist()
        except TypeError:
            raise TypeError("object with buffer protocol required")
        n = len(vals) // 2
        if n == 0:
            return
        vals = [_index(v) for v in vals[: 2 * n]]
        c = _index(c) & self._fb_cmask
        xs = vals[0::2]
        ys = vals[1::2]
        # Edges in the order the C code walks them: v0 -> v[n-1] -> ... -> v1 -> v0.
        order = [0] + list(range(n - 1, -1, -1))
        edges = [(xs[order[k]], ys[order[k]], xs[order[k + 1]], ys[order[k + 1]]) for k in range(n)]
        if not f:
            for px1, py1, px2, py2 in edges:
                self._fb_line(x + px1, y + py1, x + px2, y + py2, c)
            return
        # Scan-line fill; rows that land off screen draw nothing, so skip them.
        row0 = max(min(ys), -y)
        row1 = min(max(ys), self._fb_h - 1 - y)
        fr = self._fb_fill_rect
        for row in range(row0, row1 + 1):
            nodes = []
            for px1, py1, px2, py2 in edges:
                if py1 != py2 and ((py1 > row and py2 <= row) or (py1 <= row and py2 > row)):
                    q = _cdiv(32 * (px2 - px1) * (row - py1), py2 - py1)
                    nodes.append(_cdiv(32 * px1 + q + 16, 32))
                elif row == max(py1, py2):
                    # Bottom end of an edge: the crossing rule above skips it.
                    if py1 < py2:
                        self._fb_set_checked(x + px2, y + py2, c)
                    elif py2 < py1:
                        self._fb_set_checked(x + px1, y + py1, c)
                    else:
                        self._fb_line(x + px1, y + py1, x + px2, y + py2, c)
            nodes.sort()
            for k in range(0, len(nodes) - 1, 2):
                fr(x + nodes[k], y + row, nodes[k + 1] - nodes[k] + 1, 1, c)

    def blit(self, fbuf, x, y, key=-1, palette=None):
        """Draw fbuf (a FrameBuffer or (buffer, w, h, format[, stride])) at (x, y).

        Source pixels equal to key are skipped; with a palette (a FrameBuffer
        one pixel high) source colour i is drawn as palette pixel (i, 0); the
        key is compared after the palette lookup.
        """
        src = self._fb_source(fbuf)
        x = _index(x)
        y = _index(y)
        key = _index(key) & 0xFFFFFFFF
        pal = None if palette is None else self._fb_source(palette)
        if x >= self._fb_w or y >= self._fb_h or -x >= src._fb_w or -y >= src._fb_h:
            return
        x0 = x if x > 0 else 0
        y0 = y if y > 0 else 0
        x1 = -x if x < 0 else 0
        y1 = -y if y < 0 else 0
        x0end = min(self._fb_w, x + src._fb_w)
        y0end = min(self._fb_h, y + src._fb_h)
        if x0 >= x0end:
            return
        get = src._fb_get
        setp = self._fb_set
        cmask = self._fb_cmask
        pget = pal._fb_get if pal is not None else None
        for dy in range(y0, y0end):
            sx = x1
            for dx in range(x0, x0end):
                col = get(sx, y1)
                if pget is not None:
                    col = pget(col, 0)
                if col != key:
                    setp(dx, dy, col & cmask)
                sx += 1
            y1 += 1

    def scroll(self, xstep, ystep):
        """Shift the contents by (xstep, ystep); the uncovered area keeps its old pixels."""
        xstep = _index(xstep)
        ystep = _index(ystep)
        w = self._fb_w
        h = self._fb_h
        if xstep <= -w or xstep >= w or ystep <= -h or ystep >= h:
            return
        xs = range(max(0, xstep), min(w, w + xstep))
        ys = range(max(0, ystep), min(h, h + ystep))
        if self._fb_fmt == MONO_VLSB:
            # Each column as one integer (bit y = row y), moved with shifts.
            buf = self._fb_buf
            stride = self._fb_stride
            npages = (h + 7) >> 3
            span = (npages - 1) * stride + 1
            cols = [int.from_bytes(buf[xx : xx + span : stride], "little") for xx in range(w)]
            rows = ((1 << ys.stop) - 1) & ~((1 << ys.start) - 1)
            keep = ~rows
            for xx in xs:
                src = cols[xx - xstep]
                src = src << ystep if ystep >= 0 else src >> -ystep
                new = (cols[xx] & keep) | (src & rows)
                buf[xx : xx + span : stride] = new.to_bytes(npages, "little")
            return
        get = self._fb_get
        snap = [[get(xx - xstep, yy - ystep) for xx in xs] for yy in ys]
        setp = self._fb_set
        for yy, row in zip(ys, snap, strict=True):
            for xx, col in zip(xs, row, strict=True):
                setp(xx, yy, col)

    def text(self, s, x, y, c=1):
        """Draw string s with the 8x8 font, top left at (x, y)."""
        if isinstance(s, str):
            data = s.encode("utf-8", "surrogatepass")
        elif isinstance(s, (bytes, bytearray)):
            data = bytes(s)
        else:
            raise TypeError("can't convert '%s' object to str implicitly" % type(s).__name__)
        nul = data.find(b"\x00")
        if nul >= 0:
            data = data[:nul]
        x0 = _index(x)
        y0 = _index(y)
        c = _index(c) & self._fb_cmask
        w = self._fb_w
        h = self._fb_h
        font = _FONT
        if self._fb_fmt == MONO_VLSB:
            self._fb_text_vlsb(data, x0, y0, c)
            return
        setp = self._fb_set
        for ch in data:
            if ch < 32 or ch > 127:
                ch = 127
            g = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < w:
                    bits = font[g + j]
                    yy = y0
                    while bits:
                        if bits & 1 and 0 <= yy < h:
                            setp(x0, yy, c)
                        bits >>= 1
                        yy += 1
                x0 += 1

    def _fb_text_vlsb(self, data, x0, y0, c):
        # Each glyph column is one byte, LSB on top: shift it onto the (at
        # most two) pages it covers and OR it in (or clear it for colour 0).
        w = self._fb_w
        h = self._fb_h
        if y0 <= -8 or y0 >= h or x0 >= w or x0 + 8 * len(data) <= 0:
            return
        buf = self._fb_buf
        stride = self._fb_stride
        font = _FONT
        page = y0 >> 3
        shift = y0 & 7
        last = (h - 1) >> 3
        rows_last = h - (last << 3)
        m_last = (1 << rows_last) - 1
        spans = []  # (byte offset of the page row, shift, mask of drawable bits)
        for p, sh in ((page, shift), (page + 1, shift - 8)):
            if 0 <= p <= last and (sh < 8 and sh > -8):
                spans.append((p * stride, sh, m_last if p == last else 0xFF))
        for ch in data:
            if x0 >= w:
                break
            if ch < 32 or ch > 127:
                ch = 127
            if x0 <= -8:
                x0 += 8
                continue
            g = (ch - 32) * 8
            for j in range(8):
                if 0 <= x0 < w:
                    bits = font[g + j]
                    if bits:
                        for off, sh, mask in spans:
                            part = ((bits << sh) if sh >= 0 else (bits >> -sh)) & mask
                            if part:
                                i = off + x0
                                if c:
                                    buf[i] |= part
                                else:
                                    buf[i] &= ~part & 0xFF
                x0 += 1


def FrameBuffer1(buffer, width, height, stride=None):  # noqa: N802 (MicroPython name)
    """Legacy constructor: a MONO_VLSB FrameBuffer."""
    return FrameBuffer(buffer, width, height, MONO_VLSB, width if stride is None else stride)
