"""The few loops that must run at machine speed on the chip, as viper code.

Bytecode on a 125 MHz Cortex-M0+ spends tens of microseconds per glyph and
about a millisecond per 128-byte page compare; these routines do the same
work in native code and allocate nothing. They run under MicroPython ports
with a native emitter (rp2, the Unix port); elsewhere (CPython, the
WebAssembly port) importing this module fails and callers keep their
plain-Python versions, which must give identical pixels and results
(tests/both/test_native.py checks that).

- `text(...)`: draw a string of a one-page font (height <= 8) into a
  MONO_VLSB buffer, clipped to the canvas; returns the end x. On a canvas
  0 px wide it draws nothing and its end x from 0 is the string's width
  (one loop for both: a viper call to a helper would cost 15 us a glyph).
- `diff_pages(...)`: compare a frame with the copy last sent, page by page,
  note the changed column span of each page and update the copy.
- `find_text(...)`: find a text key's number by its hash (firmware.strings).
- `copy(dst, at, src, start, n)`: copy n bytes (firmware.display: a
  window of the frame behind its control byte).
- `die(...)`: a die's face (square, pips or none) into a MONO_VLSB buffer,
  as firmware.ui.Ui.draw_die's framebuf calls draw it (about 0.25 ms a
  die on the chip in eight calls; here one).
- `fill(buf, n, value)`: set the first `n` bytes of `buf` to `value`
  (firmware.ui.Ui.clear: framebuf's own fill sets the frame pixel by
  pixel, 0.8 ms for 128x64 on the chip).

Strings arrive as `str` (their UTF-8 bytes are read in place); a character
outside ASCII is looked up in `extra`, the font's extra code points as two
bytes each (big endian).
"""

import micropython


@micropython.viper
def text(buf: ptr8, width: int, pages: int, s, x: int, y: int, color: int, bits: ptr8,
         index: ptr8, extra: ptr8, n_extra: int, unknown: int) -> int:
    """Draw `s` at (x, y) in `color` (0 or 1) into the MONO_VLSB `buf`
    (`width` px wide, `pages` pages high); only ink pixels change. Returns
    the x after the last glyph (as firmware.font.Font.draw)."""
    n = int(len(s))
    src = ptr8(s)
    shift = y & 7
    page = y >> 3
    start = x
    k = 0
    i = 0
    while k < n:
        b = src[i]
        if b < 0x80:
            cp = b
            i += 1
        elif b < 0xE0:
            cp = (b & 0x1F) << 6 | (src[i + 1] & 0x3F)
            i += 2
        elif b < 0xF0:
            cp = (b & 0x0F) << 12 | (src[i + 1] & 0x3F) << 6 | (src[i + 2] & 0x3F)
            i += 3
        else:
            cp = 0x110000  # outside the fonts: the placeholder
            i += 4
        k += 1
        if cp >= 32 and cp < 127:  # the glyph number (inline: a call costs 15 us)
            g = cp - 32
        else:
            g = unknown
            e = 0
            while e < n_extra:
                if (extra[2 * e] << 8 | extra[2 * e + 1]) == cp:
                    g = 95 + e
                    break
                e += 1
        g *= 3
        off = index[g] | index[g + 1] << 8
        w = index[g + 2]
        c = 0
        while c < w:
            col = x + c
            if col >= 0 and col < width:
                v = bits[off + c] << shift
                if page >= 0 and page < pages:
                    j = page * width + col
                    if color:
                        buf[j] = buf[j] | (v & 0xFF)
                    else:
                        buf[j] = buf[j] & (0xFF ^ (v & 0xFF))
                if shift and page + 1 >= 0 and page + 1 < pages:
                    j = (page + 1) * width + col
                    if color:
                        buf[j] = buf[j] | (v >> 8)
                    else:
                        buf[j] = buf[j] & (0xFF ^ (v >> 8))
            c += 1
        x += w + 1
    if x != start:
        return x - 1
    return x


@micropython.viper
def diff_pages(frame: ptr8, shadow: ptr8, width: int, pages: int, spans: ptr8) -> int:
    """Compare `frame` with `shadow` (both `pages` x `width` bytes) page by
    page. For each page p, spans[2p], spans[2p+1] get the first and last
    changed column (255, 0 when none changed), and the changed bytes are
    copied into `shadow`. Returns a bit mask of the changed pages.

    Where the two buffers lie equally far from a word boundary (the display
    driver makes its shadow so), equal bytes are passed over a word at a
    time: byte by byte the whole frame took 0.58 ms on the chip."""
    fa = int(frame)
    sa = int(shadow)
    words = ((fa - sa) & 3) == 0
    mask = 0
    p = 0
    base = 0
    while p < pages:
        first = 255
        last = 0
        c = 0
        while c < width:
            j = base + c
            end = c + 1
            if words and ((fa + j) & 3) == 0:  # pass over the equal words
                n4 = (width - c) >> 2
                wf = ptr32(fa + j)
                ws = ptr32(sa + j)
                k = 0
                while k < n4 and wf[k] == ws[k]:
                    k += 1
                c += k << 2
                if c >= width:
                    break
                end = c + 4 if k < n4 else width  # the word that differs, or the last bytes
            while c < end:
                j = base + c
                v = frame[j]
                if v != shadow[j]:
                    shadow[j] = v
                    if first == 255:
                        first = c
                    last = c
                c += 1
        spans[2 * p] = first
        spans[2 * p + 1] = last
        if first != 255:
            mask |= 1 << p
        base += width
        p += 1
    return mask


@micropython.viper
def copy(dst: ptr8, at: int, src: ptr8, start: int, n: int):
    """Copy `src[start:start + n]` to `dst[at:at + n]` (no overlap)."""
    i = 0
    while i < n:
        dst[at + i] = src[start + i]
        i += 1


@micropython.viper
def die(buf: ptr8, width: int, pages: int, x: int, y: int, size: int, inverted: int,
        pips: ptr8, n: int, grid: ptr8, pip: int):
    """Draw a die of `size` px (at most 25) at (x, y), clipped to the
    buffer (`pages` x `width`): the square cleared, then a light rim
    (`inverted` 0) or a light inside within a dark rim (1), then `n` pips
    of `pip` px, light on dark or dark on light. Pip i sits at column
    grid[pips[2i]], row grid[pips[2i + 1]] of the die."""
    full = (1 << size) - 1
    rim = 1 | (1 << (size - 1))
    square = (1 << pip) - 1
    top = y >> 3  # (arithmetic: a die above the top edge starts at page -1 or -2)
    shift = y - (top << 3)
    # The pips of each of the grid's three columns as one column mask, made
    # once (per die column the pip loop took most of a die's 0.2 ms).
    pm0 = 0
    pm1 = 0
    pm2 = 0
    i = 0
    while i < n:
        bits = square << grid[pips[2 * i + 1]]
        col = pips[2 * i]
        if col == 0:
            pm0 = pm0 | bits
        elif col == 1:
            pm1 = pm1 | bits
        else:
            pm2 = pm2 | bits
        i += 1
    g0 = grid[0]
    g1 = grid[1]
    g2 = grid[2]
    c = 0
    while c < size:
        xx = x + c
        if xx >= 0 and xx < width:
            if c == 0 or c == size - 1:
                m = 0 if inverted else full
            else:
                m = (full ^ rim) if inverted else rim
            bits = 0  # (the grid's pip columns never overlap)
            if c >= g0 and c < g0 + pip:
                bits = pm0
            elif c >= g1 and c < g1 + pip:
                bits = pm1
            elif c >= g2 and c < g2 + pip:
                bits = pm2
            if bits:
                if inverted:
                    m = m & (full ^ bits)
                else:
                    m = m | bits
            keep = full << shift
            ink = m << shift
            p = top
            while keep:
                if p >= 0 and p < pages:
                    j = p * width + xx
                    buf[j] = (buf[j] & (0xFF ^ (keep & 0xFF))) | (ink & 0xFF)
                keep = keep >> 8
                ink = ink >> 8
                p += 1
        c += 1


@micropython.viper
def fill(buf: ptr8, n: int, value: int):
    """Set the first `n` bytes of `buf` to `value`: bytes up to a word
    boundary, then whole words (a byte loop took 0.27 ms for a 128x64
    frame on the chip; the display's frame starts one byte past a word,
    behind its control byte), then the last bytes."""
    i = 0
    while i < n and (int(buf) + i) & 3:
        buf[i] = value
        i += 1
    v = value & 0xFF
    v = v | (v << 8)
    v = v | (v << 16)
    words = ptr32(int(buf) + i)
    k = 0
    last = (n - i) >> 2
    while k < last:
        words[k] = v
        k += 1
    i += last << 2
    while i < n:
        buf[i] = value
        i += 1


@micropython.viper
def find_text(key, hashes: ptr8, count: int) -> int:
    """The number of `key` among `count` sorted 24-bit key hashes (3 bytes
    each, big endian; firmware.strings.key_hash), or -1; -2 for a key that
    is not ASCII (the caller's Python version handles it)."""
    n = int(len(key))
    src = ptr8(key)
    h = 0x9DC5
    # 0xFFFFFF made at run time: a constant wider than 16 bits (not a byte
    # shifted) is an armv6m literal load that assumes code on a 4-byte
    # boundary, which frozen native code need not be (it read a wrong mask:
    # the search missed every key in a firmware with the game frozen in).
    mask = 0xFFFF
    mask = mask | mask << 8
    i = 0
    while i < n:
        b = src[i]
        if b >= 0x80:
            return -2
        h = ((h ^ b) * 37 + 0x1B3) & mask
        i += 1
    lo = 0
    hi = count - 1
    while lo <= hi:
        mid = (lo + hi) >> 1
        found = hashes[3 * mid] << 16 | hashes[3 * mid + 1] << 8 | hashes[3 * mid + 2]
        if found == h:
            return mid
        if found < h:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1
