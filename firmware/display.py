"""SSD1306 and SH1106 OLED drivers over I2C or SPI, as framebuf.FrameBuffers.

The project's own small drivers (one file, nothing fetched by mip, SH1106
included), in the shape of micropython-lib's `ssd1306`: a driver *is* a
`framebuf.FrameBuffer` over its own MONO_VLSB buffer, registers are `const`,
commands go out through one preallocated buffer, and `show()` sends the
frame without copying it.

- `I2CBus(i2c, addr)` / `SPIBus(spi, dc, cs, res)`: the transports. I2C
  sends commands as `0x00, cmd...` and data as `0x40, data...` through
  `writevto` (the frame is never copied); SPI toggles DC and CS around
  `spi.write`.
- `SSD1306(bus, width, height, col_offset=0)`: horizontal addressing; each
  `show()` sets the column and page window and sends the whole buffer
  (1024 bytes for 128x64, 360 for the Thumby's 72x40 at column 28).
- `SH1106(bus, width, height, col_offset=2)`: 132-column RAM, page
  addressing; `show()` sends only the pages whose checksum changed since the
  last `show()` (eight small ints are kept, not a second 1 KB frame). The
  checksum is a polynomial hash mod 16777213 (small ints only, no
  allocation); a change that happens to keep a page's checksum (about one
  in 16.7 million) leaves that page stale until it changes again.
  `refresh()` forgets the checksums so the next `show()` sends every page
  (the device does this on waking up).

Both have `contrast(0..255)`, `poweroff()`, `poweron()` and `invert(flag)`.
"""

import framebuf

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        """Return `x` (CPython stand-in for micropython.const)."""
        return x


try:
    from time import sleep_ms
except ImportError:  # CPython
    from time import sleep as _sleep

    def sleep_ms(ms):
        """Sleep `ms` milliseconds (CPython stand-in for time.sleep_ms)."""
        _sleep(ms / 1000)


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
_SH_PRIME = const(16777213)  # the largest prime below 2**24: checksums stay small ints


class I2CBus:
    """Commands and data to an OLED on a `machine.I2C` at `addr`."""

    def __init__(self, i2c, addr=0x3C):
        self.i2c = i2c
        self.addr = addr
        self._cmd = [b"\x00", None]  # control byte 0x00: a stream of commands
        self._data = [b"\x40", None]  # control byte 0x40: a stream of data

    def cmd(self, buf):
        """Send the command bytes of `buf` in one transaction."""
        self._cmd[1] = buf
        self.i2c.writevto(self.addr, self._cmd)

    def data(self, buf):
        """Send `buf` (a buffer or memoryview) as display data, without a copy."""
        self._data[1] = buf
        self.i2c.writevto(self.addr, self._data)
        self._data[1] = None


class SPIBus:
    """Commands and data to an OLED on a `machine.SPI` with DC, CS and reset pins."""

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
        """Pulse the reset line (the controller's registers return to defaults)."""
        res = self.res
        if res is not None:
            res(1)
            sleep_ms(1)
            res(0)
            sleep_ms(10)
            res(1)

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
    `col_offset`; `extra` holds extra init commands (the Thumby's 0xAD 0x30)."""

    def __init__(self, bus, width=128, height=64, col_offset=0, extra=()):
        self.bus = bus
        self.width = width
        self.height = height
        self.pages = height // 8
        self.col_offset = col_offset
        self.buffer = bytearray(self.pages * width)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._c1 = bytearray(1)
        self._c2 = bytearray(2)
        self._window = bytearray((_COL_ADDR, col_offset, col_offset + width - 1,
                                  _PAGE_ADDR, 0, self.pages - 1))
        reset = getattr(bus, "reset", None)
        if reset is not None:
            reset()
        self.init_display(extra)

    def _init_commands(self):
        return (_DISP_OFF, _MEM_MODE, 0x00, _START_LINE, _SEG_REMAP,
                _MUX_RATIO, self.height - 1, _COM_DIR, _DISP_OFFSET, 0x00,
                _COM_PINS, 0x02 if self.width > 2 * self.height else 0x12,
                _CLK_DIV, 0x80, _PRECHARGE, 0xF1, _VCOM_DESEL, 0x30,
                _CONTRAST, 0xFF, _ENTIRE_ON, _NORM_INV, _CHARGE_PUMP, 0x14)

    def init_display(self, extra=()):
        """Configure the controller, clear the screen and switch it on."""
        self.bus.cmd(bytes(self._init_commands()) + bytes(extra))
        self.fill(0)
        self.show()
        self.poweron()

    def _cmd1(self, a):
        self._c1[0] = a
        self.bus.cmd(self._c1)

    def poweroff(self):
        """Switch the panel off (its RAM and the buffer are kept)."""
        self._cmd1(_DISP_OFF)

    def poweron(self):
        """Switch the panel on."""
        self._cmd1(_DISP_ON)

    def contrast(self, value):
        """Set the brightness, 0..255."""
        c = self._c2
        c[0] = _CONTRAST
        c[1] = value & 0xFF
        self.bus.cmd(c)

    def invert(self, flag):
        """Show light pixels dark (True) or normally (False)."""
        self._cmd1(_NORM_INV | (1 if flag else 0))

    def refresh(self):
        """Make the next `show()` send the whole frame (always so here)."""

    def show(self):
        """Send the whole frame: set the window, then the buffer as data."""
        self.bus.cmd(self._window)
        self.bus.data(self.buffer)


class SH1106(SSD1306):
    """An SH1106 panel (132-column RAM, page addressing only) showing columns
    `col_offset`.. of its RAM; `show()` sends only the changed pages."""

    def __init__(self, bus, width=128, height=64, col_offset=2, extra=()):
        self._sums = [-1] * (height // 8)
        self._page = bytearray(3)
        SSD1306.__init__(self, bus, width, height, col_offset, extra)

    def init_display(self, extra=()):
        """Configure the controller, clear the screen and switch it on."""
        view = memoryview(self.buffer)
        w = self.width
        self._views = [view[p * w:(p + 1) * w] for p in range(self.pages)]  # made once
        SSD1306.init_display(self, extra)

    def _init_commands(self):
        return (_DISP_OFF, _START_LINE, _SEG_REMAP, _MUX_RATIO, self.height - 1,
                _COM_DIR, _DISP_OFFSET, 0x00, _COM_PINS, 0x12, _CLK_DIV, 0x80,
                _PRECHARGE, 0x22, _VCOM_DESEL, 0x35, _SH_DCDC, 0x8B,
                _CONTRAST, 0xFF, _ENTIRE_ON, _NORM_INV)

    def refresh(self):
        """Forget the page checksums: the next `show()` sends every page."""
        sums = self._sums
        for i in range(len(sums)):
            sums[i] = -1

    def show(self):
        """Send the pages that changed since the last `show()`."""
        views = self._views
        buf = self.buffer
        width = self.width
        sums = self._sums
        cmd = self._page
        col = self.col_offset
        cmd[1] = col & 0x0F
        cmd[2] = 0x10 | (col >> 4)
        start = 0
        for page in range(self.pages):
            h = width
            for i in range(start, start + width):
                h = (h * 37 + buf[i]) % _SH_PRIME
            if h != sums[page]:
                sums[page] = h
                cmd[0] = _SH_PAGE | page
                self.bus.cmd(cmd)
                self.bus.data(views[page])
            start += width
