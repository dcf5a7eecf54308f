"""SSD1306 and SH1106 OLED drivers over I2C or SPI, as framebuf.FrameBuffers.

The project's own small drivers (one file, nothing fetched by mip, SH1106
included), in the shape of micropython-lib's `ssd1306`: a driver *is* a
`framebuf.FrameBuffer` over its own MONO_VLSB buffer, registers are `const`,
commands go out through one preallocated buffer, and `show()` sends the
frame without copying it.

- `I2CBus(i2c, addr, res)` / `SPIBus(spi, dc, cs, res)`: the transports
  (`res`: the reset pin or None). An I2C
  transaction starts with a control byte (0x00: commands, 0x40: data);
  `writevto` would copy a two-part message into a new heap block on rp2,
  so the hot path sends buffers that carry their control byte in front
  (`I2CBus.send`). SPI toggles DC and CS around `spi.write`.
- `SSD1306(bus, width, height, col_offset=0)`: horizontal addressing.
- `SH1106(bus, width, height, col_offset=2)`: 132-column RAM, page
  addressing only.

Partial updates (I2C): a 1 KB frame takes 25 ms at 400 kHz, so `show()`
compares the frame with a copy of what the panel shows
(firmware.native.diff_pages: native code on the chip, the same in Python
elsewhere) and sends, for each page that changed, only the columns from the
first to the last change, rounded up to a multiple of _GRAIN (4) columns
(about 25 us a byte on the wire, 0.3 ms a window). On an SSD1306
(horizontal addressing) neighbouring changed pages share one window of
their joint columns when that costs fewer bytes than a window each (a die's
three pages go as one); its bytes go in as few transfers as the page-sized
scratch takes, the controller going on where the last ended. The window's
bytes are copied (firmware.native.copy) behind the 0x40 control byte of one
page-sized scratch buffer, and one of its prepared memoryviews, as long as
what it holds, goes out in a single `writeto`: no allocation. (Windows of
whole 32-column quarters, each a premade view of the frame, sent a quarter
more bytes for a die pick in the chip bench's course, and 80 views took
more heap than the scratch and its 32 views.) When the windows would cost
as much as the whole frame, the SSD1306 sends it in one transfer instead.
SPI (10 MHz: a whole frame in under 1 ms) always sends the whole frame.
`refresh()` makes the next `show()` send everything (after waking, or when
the panel's RAM is unknown).

Both have `contrast(0..255)` (scaled to the board's CONTRAST_MAX),
`poweroff()`, `poweron()` and `invert(flag)`.
"""

import framebuf

from firmware.shims import const

try:
    from time import sleep_ms, sleep_us
except ImportError:  # CPython
    from time import sleep as _sleep

    def _sleep_ms(ms):
        """Sleep `ms` milliseconds (CPython stand-in for time.sleep_ms)."""
        _sleep(ms / 1000)

    def _sleep_us(us):
        """Sleep `us` microseconds (CPython stand-in for time.sleep_us)."""
        _sleep(us / 1000000)

    sleep_ms = _sleep_ms
    sleep_us = _sleep_us


_CONTRAST = const(0x81)
_ENTIRE_ON = const(0xA4)
_NORM_INV = const(0xA6)
_DISP_OFF = const(0xAE)
_DISP_ON = const(0xAF)
_MEM_MODE = const(0x20)
_COL_ADDR = const(0x21)
_PAGE_ADDR = const(0x22)
_START_LINE = const(0x40)
_SEG_REMAP = const(0xA1)
_MUX_RATIO = const(0xA8)
_COM_DIR = const(0xC8)
_DISP_OFFSET = const(0xD3)
_COM_PINS = const(0xDA)
_CLK_DIV = const(0xD5)
_PRECHARGE = const(0xD9)
_VCOM_DESEL = const(0xDB)
_CHARGE_PUMP = const(0x8D)
_SH_DCDC = const(0xAD)
_SH_PAGE = const(0xB0)
_GRAIN = const(4)  # a window's width is a multiple of this many columns
_WINDOW_COST = const(10)  # bytes on the wire a window costs beyond its data

try:  # native on the chip; the Python versions below give the same result
    from firmware.native import copy, diff_pages
except Exception:  # CPython, WebAssembly, or a .mpy of another architecture

    def copy(dst, at, src, start, n):
        """Python version of firmware.native.copy (see there)."""
        dst[at:at + n] = src[start:start + n]

    def diff_pages(frame, shadow, width, pages, spans):
        """Python version of firmware.native.diff_pages (see there)."""
        mask = 0
        base = 0
        for p in range(pages):
            first = 255
            last = 0
            for c in range(width):
                v = frame[base + c]
                if v != shadow[base + c]:
                    shadow[base + c] = v
                    if first == 255:
                        first = c
                    last = c
            spans[2 * p] = first
            spans[2 * p + 1] = last
            if first != 255:
                mask |= 1 << p
            base += width
        return mask


def _pulse_reset(res):
    """Pulse the reset pin `res` (None: no pin): high, low, high again, and
    wait before the first command, as the Thumby's library does (the
    controller's registers return to their defaults). The low phase is held
    10 ms, not the 3 us the SSD1306 needs: some panel modules filter their
    reset line with a capacitor."""
    if res is not None:
        res(1)
        sleep_us(10)
        res(0)
        sleep_ms(10)
        res(1)
        sleep_us(20)


class I2CBus:
    """Commands and data to an OLED on a `machine.I2C` at `addr`."""

    partial = True  # the frame goes out in windows (see the module docstring)

    def __init__(self, i2c, addr=0x3C, res=None):
        self.i2c = i2c
        self.addr = addr
        self._cmd = [b"\x00", None]  # control byte 0x00: a stream of commands
        self.res = res  # the reset pin (the Thumby's I2C units have one), or None
        if res is not None:
            res.init(res.OUT, value=1)

    def reset(self):
        """Pulse the reset line, if there is one (see `_pulse_reset`)."""
        _pulse_reset(self.res)

    def cmd(self, buf):
        """Send the command bytes of `buf` in one transaction (rare commands:
        `writevto` joins the control byte and `buf` in a new block)."""
        self._cmd[1] = buf
        self.i2c.writevto(self.addr, self._cmd)

    def send(self, buf):
        """Send `buf` as one transaction; its first byte is the control byte
        (frame data goes this way: see the module docstring)."""
        self.i2c.writeto(self.addr, buf)


class SPIBus:
    """Commands and data to an OLED on a `machine.SPI` with DC, CS and reset pins."""

    partial = False  # a whole frame takes under a millisecond

    def __init__(self, spi, dc, cs, res=None):
        self.spi = spi
        self.dc = dc
        self.cs = cs
        self.res = res
        cs.init(cs.OUT, value=1)
        dc.init(dc.OUT, value=0)
        if res is not None:
            res.init(res.OUT, value=1)

    def reset(self):
        """Pulse the reset line, if there is one (see `_pulse_reset`)."""
        _pulse_reset(self.res)

    def cmd(self, buf):
        """Send the command bytes of `buf` with DC low."""
        self.cs(1)
        self.dc(0)
        self.cs(0)
        self.spi.write(buf)
        self.cs(1)

    def data(self, buf):
        """Send `buf` as display data with DC high, without a copy."""
        self.cs(1)
        self.dc(1)
        self.cs(0)
        self.spi.write(buf)
        self.cs(1)


class SSD1306(framebuf.FrameBuffer):
    """An SSD1306 panel of `width` x `height` whose column 0 is RAM column
    `col_offset`; `extra` holds extra init commands (the Thumby's 0xAD 0x30).

    `buffer` is the frame (MONO_VLSB, a memoryview behind one spare byte);
    `pages` its height in pages."""

    whole_frames = True  # horizontal addressing: the whole frame can go in one transfer
    contrast_max = 255  # see contrast(); the board may set less

    def __init__(self, bus, width=128, height=64, col_offset=0, extra=()):
        self.bus = bus
        self.width = width
        self.height = height
        pages = self.pages = height // 8
        self.col_offset = col_offset
        raw = self._raw = bytearray(1 + pages * width)  # a spare byte, then the frame
        raw[0] = 0x40
        self.buffer = memoryview(raw)[1:]
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._c1 = bytearray(1)
        self._c2 = bytearray(2)
        self.partial = getattr(bus, "partial", False)
        if self.partial:
            win = self._win = bytearray(1 + width)  # 0x40, then a window's bytes
            win[0] = 0x40
            self._lens = [memoryview(win)[:1 + min(n, width)]  # made once: sent as they are
                          for n in range(_GRAIN, width + _GRAIN, _GRAIN)]
            # What the panel shows, one byte in like the frame behind its
            # control byte: native.diff_pages then compares whole words.
            self._shadow = memoryview(bytearray(1 + pages * width))[1:]
            self._spans = bytearray(2 * pages)
            self._window = bytearray(self._window_commands())
        else:
            self._lens = None
            self._window = bytearray((_COL_ADDR, col_offset, col_offset + width - 1,
                                      _PAGE_ADDR, 0, pages - 1))
        self._full = True  # the panel's RAM is unknown: the first show() sends everything
        reset = getattr(bus, "reset", None)
        if reset is not None:
            reset()
        self.init_display(extra)

    def _show_whole(self):
        """Send the whole frame (SPI): one window, the buffer as data."""
        self.bus.cmd(self._window)
        self.bus.data(self.buffer)

    def _window_commands(self):
        """The prefixed command buffer of one window: 0x00, column range, page range."""
        return (0x00, _COL_ADDR, 0, 0, _PAGE_ADDR, 0, 0)

    def _set_window(self, page, c0, c1, end):
        """Point the controller at columns c0..c1 (frame columns) of pages
        `page`..`end`."""
        w = self._window
        off = self.col_offset
        w[2] = c0 + off
        w[3] = c1 + off
        w[5] = page
        w[6] = end
        self.bus.send(w)

    def _init_commands(self):
        return (_DISP_OFF, _MEM_MODE, 0x00, _START_LINE, _SEG_REMAP,
                _MUX_RATIO, self.height - 1, _COM_DIR, _DISP_OFFSET, 0x00,
                _COM_PINS, 0x02 if self.width > 2 * self.height else 0x12,
                _CLK_DIV, 0x80, _PRECHARGE, 0xF1, _VCOM_DESEL, 0x30,
                _CONTRAST, 0xFF, _ENTIRE_ON, _NORM_INV, _CHARGE_PUMP, 0x14)

    def init_display(self, extra=()):
        """Configure the controller and leave the panel dark: the first
        `show()` sends a whole frame over the power-on noise of its RAM and
        then switches it on (a separate clearing frame would cost 26 ms of
        the boot)."""
        self.bus.cmd(bytes(self._init_commands()) + bytes(extra))
        self.fill(0)
        self._dark = True

    def _cmd1(self, a):
        self._c1[0] = a
        self.bus.cmd(self._c1)

    def poweroff(self):
        """Switch the panel off (its RAM and the buffer are kept)."""
        self._cmd1(_DISP_OFF)

    def poweron(self):
        """Switch the panel on."""
        self._dark = False
        self._cmd1(_DISP_ON)

    def contrast(self, value):
        """Set the brightness, 0..255, scaled to 0..`contrast_max` (the
        brightest contrast the panel is driven at: 255 unless the board says
        less, as the Thumby does)."""
        c = self._c2
        c[0] = _CONTRAST
        c[1] = (value & 0xFF) * self.contrast_max // 255
        self.bus.cmd(c)

    def invert(self, flag):
        """Show light pixels dark (True) or normally (False)."""
        self._cmd1(_NORM_INV | (1 if flag else 0))

    def refresh(self):
        """Make the next `show()` send the whole frame."""
        self._full = True

    def show(self):
        """Send the frame: on I2C only the windows that changed since the
        last `show()`, on SPI all of it. Allocates nothing."""
        if not self.partial:
            self._show_whole()
        else:
            self._show_windows()
        if self._dark:  # the first frame is in the panel's RAM: light it
            self.poweron()

    def _show_windows(self):
        """Send the changed windows (see the module docstring)."""
        width = self.width
        pages = self.pages
        spans = self._spans
        mask = diff_pages(self.buffer, self._shadow, width, pages, spans)
        if self._full:
            self._full = False
            mask = (1 << pages) - 1
            for p in range(pages):
                spans[2 * p] = 0
                spans[2 * p + 1] = width - 1
        if not mask:
            return
        raw = self._raw
        lens = self._lens
        assert lens is not None  # made in __init__ for a partial (I2C) bus
        bus = self.bus  # (a bound method kept in a local would be a new object)
        if self.whole_frames:  # most of the screen changed: one transfer beats many windows
            cost = 0
            for p in range(pages):
                if mask & (1 << p):
                    cost += min(width, ((spans[2 * p + 1] - spans[2 * p]) // _GRAIN + 1)
                                * _GRAIN) + _WINDOW_COST
            if cost >= len(raw) + _WINDOW_COST:
                w = self._window
                w[2] = self.col_offset
                w[3] = self.col_offset + width - 1
                w[5] = 0
                w[6] = pages - 1
                bus.send(w)
                bus.send(raw)  # raw[0] is the data control byte
                return
        win = self._win
        merge = self.whole_frames  # horizontal addressing: a window may span pages
        p = 0
        while p < pages:
            if not mask & (1 << p):
                p += 1
                continue
            c0 = spans[2 * p]
            c1 = spans[2 * p + 1]
            end = p  # the window's last page
            if merge:  # take in the next changed pages while one window is cheaper
                cost = ((c1 - c0) // _GRAIN + 1) * _GRAIN + _WINDOW_COST
                q = p + 1
                while q < pages and mask & (1 << q):
                    a = min(c0, spans[2 * q])
                    b = max(c1, spans[2 * q + 1])
                    size = (q - p + 1) * ((b - a) // _GRAIN + 1) * _GRAIN
                    alone = ((spans[2 * q + 1] - spans[2 * q]) // _GRAIN + 1) * _GRAIN
                    if size > cost + alone:
                        break
                    c0 = a
                    c1 = b
                    cost = size + _WINDOW_COST
                    end = q
                    q += 1
            n = min(width, ((c1 - c0) // _GRAIN + 1) * _GRAIN)  # a multiple of _GRAIN
            if c0 + n > width:
                c0 = width - n
            self._set_window(p, c0, c0 + n - 1, end)
            at = 1  # the pages' bytes go out in as few transfers as the scratch allows
            for page in range(p, end + 1):
                if at + n > width + 1:  # full: the controller goes on where this ends
                    bus.send(lens[(at - 1) // _GRAIN - 1])
                    at = 1
                copy(win, at, raw, 1 + page * width + c0, n)
                at += n
            bus.send(lens[(at - 1) // _GRAIN - 1])
            p = end + 1

class SH1106(SSD1306):
    """An SH1106 panel (132-column RAM, page addressing only) showing columns
    `col_offset`.. of its RAM; `show()` sends only the changed windows."""

    whole_frames = False  # page addressing: a transfer ends at its page's edge
    _pages_views = None  # SPI: a view of each page, made at the first show

    def _window_commands(self):
        return (0x00, _SH_PAGE, 0x00, 0x10)

    def _set_window(self, page, c0, c1, end):
        """Point the controller at column c0 of `page` (page addressing: the
        column advances with each data byte; `end` is `page`: an SH1106
        window never spans pages)."""
        w = self._window
        col = c0 + self.col_offset
        w[1] = _SH_PAGE | page
        w[2] = col & 0x0F
        w[3] = 0x10 | (col >> 4)
        self.bus.send(w)

    def _init_commands(self):
        return (_DISP_OFF, _START_LINE, _SEG_REMAP, _MUX_RATIO, self.height - 1,
                _COM_DIR, _DISP_OFFSET, 0x00, _COM_PINS, 0x12, _CLK_DIV, 0x80,
                _PRECHARGE, 0x22, _VCOM_DESEL, 0x35, _SH_DCDC, 0x8B,
                _CONTRAST, 0xFF, _ENTIRE_ON, _NORM_INV)

    def _show_whole(self):
        """Send every page whole (an SH1106 on SPI; no board has one yet).
        (SH1106 does not override `show`: on MicroPython calling a method of
        a second-level subclass of FrameBuffer allocated 64 bytes a call.)"""
        views = self._pages_views
        if views is None:  # made at the first show: later ones allocate nothing
            width = self.width
            col = self.col_offset
            self._page_cmd = bytearray((0, col & 0x0F, 0x10 | (col >> 4)))
            views = self._pages_views = [self.buffer[p * width:(p + 1) * width]
                                         for p in range(self.pages)]
        cmd = self._page_cmd
        for p in range(self.pages):
            cmd[0] = _SH_PAGE | p
            self.bus.cmd(cmd)
            self.bus.data(views[p])
