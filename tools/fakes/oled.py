"""A test model of the SSD1306 and SH1106 OLED controllers.

`Oled(kind, width, height, col_offset)` takes the byte stream a driver sends
(I2C transactions with their control bytes, or SPI writes with the DC pin)
and decodes it as the controller would: commands with their arguments,
the address pointers, and the data into display RAM (SSD1306: 128 columns,
horizontal or page addressing; SH1106: 132 columns, page addressing only).
`frame()` returns the visible `width` x `height` window of the RAM in
MONO_VLSB order (the layout of the driver's frame buffer), `pixel(x, y)`
one pixel. A command the controller does not know raises ValueError, so a
driver that sends an SSD1306-only command to an SH1106 fails its test,
with one exception the real SH1106 shows: 0x20 (the SSD1306's "memory
addressing mode") is no SH1106 command, and the chip passes over it, and
over its argument byte, without effect (the SH1106 datasheet lists no
0x20..0x2F command; the panel has page addressing only). The MacroPad's
CircuitPython firmware and adafruit_displayio_sh1106 both send 0x20 0x20
at init; the model counts such bytes in `ignored` instead of refusing them.

Counters: `data_bytes` and `cmd_bytes` (all time), `shows` is not known to
the model; tests take differences of the counters around a `show()`.
State: `on`, `contrast`, `inverted`, `mode` (0 horizontal, 2 page), `mux`,
`remap`, `com_flip`, `start_line`, `offset`.

Attach it with `attach(machine, bus="i2c", ...)` to the fake `machine`.
"""

# SSD1306 commands with their argument counts (single-byte ones are 0).
_SSD_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0xA8: 1, 0xD3: 1, 0xDA: 1, 0xD5: 1,
             0xD9: 1, 0xDB: 1, 0x8D: 1, 0xAD: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
             0xA3: 2}
_SH_ARGS = {0x81: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class Oled:
    """See the module docstring."""

    def __init__(self, kind="ssd1306", width=128, height=64, col_offset=None):
        if kind not in ("ssd1306", "sh1106"):
            raise ValueError(kind)
        self.kind = kind
        self.width = width
        self.height = height
        sh = kind == "sh1106"
        self.columns = 132 if sh else 128
        self.col_offset = (2 if sh else 0) if col_offset is None else col_offset
        self.ram = bytearray(self.columns * 8)
        self.on = False
        self.contrast = 0x7F if not sh else 0x80
        self.inverted = False
        self.mode = 2  # both start in page addressing after a reset
        self.mux = 63
        self.remap = False
        self.com_flip = False
        self.start_line = 0
        self.offset = 0
        self.col = 0
        self.page = 0
        self.col_start = 0
        self.col_end = self.columns - 1
        self.page_start = 0
        self.page_end = 7
        self.data_bytes = 0
        self.cmd_bytes = 0
        self.commands = 0
        self.ignored = []  # command bytes the SH1106 passes over (0x20: see the docstring)
        self._pending = []  # the command and the arguments received so far
        self._need = 0
        self.dc_pin = None
        self.cs_pin = None
        self._machine = None

    # ------------------------------------------------------------ wiring

    def attach(self, machine, bus="i2c", bus_id=0, addr=0x3C, dc=None, cs=None):
        """Put the model on a fake `machine` bus (SPI needs the DC and CS pin ids)."""
        self._machine = machine
        if bus == "i2c":
            machine.attach_i2c(self, bus_id, addr)
        else:
            self.dc_pin = dc
            self.cs_pin = cs
            machine.attach_spi(self, bus_id)
        return self

    def i2c_write(self, data):
        """One I2C transaction (after the address): control bytes, then payload."""
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            if ctrl & 0x3F:
                raise ValueError("bad control byte 0x%02x" % ctrl)
            is_data = ctrl & 0x40
            if ctrl & 0x80:  # Co=1: one byte, then another control byte
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
                continue
            while i < n:  # Co=0: the rest of the transaction
                self._byte(data[i], is_data)
                i += 1

    def spi_write(self, data):
        """One SPI write; DC high means data. Ignored while CS is high."""
        m = self._machine
        if self.cs_pin is not None and m.pin_level(self.cs_pin):
            return
        is_data = m.pin_level(self.dc_pin)
        for b in data:
            self._byte(b, is_data)

    # ------------------------------------------------------------ decoding

    def _byte(self, b, is_data):
        if is_data:
            if self._need:
                raise ValueError("data while a command waits for arguments")
            self._data(b)
            return
        self.cmd_bytes += 1
        if self._need:
            self._pending.append(b)
            self._need -= 1
            if not self._need:
                self._command(self._pending)
            return
        args = (_SH_ARGS if self.kind == "sh1106" else _SSD_ARGS).get(b, 0)
        if args:
            self._pending = [b]
            self._need = args
        else:
            self._command([b])

    def _data(self, b):
        self.data_bytes += 1
        if self.col < self.columns and self.page < 8:
            self.ram[self.page * self.columns + self.col] = b
        if self.kind == "sh1106" or self.mode == 2:
            if self.col < self.columns - 1:
                self.col += 1
            elif self.kind == "ssd1306":
                self.col = 0  # page mode wraps to column 0 of the same page
            return
        if self.mode == 0:  # horizontal: across the window, then the next page
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        else:  # vertical
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1

    def _command(self, c):
        self.commands += 1
        op = c[0]
        sh = self.kind == "sh1106"
        if op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif sh and 0x30 <= op <= 0x33:
            pass  # charge pump voltage
        elif sh and op == 0x20:
            self.ignored.append(op)  # no SH1106 command (see the module docstring)
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op == 0x81:
            self.contrast = c[1]
        elif op in (0xA0, 0xA1):
            self.remap = op == 0xA1
        elif op in (0xA4, 0xA5):
            if op == 0xA5:
                raise ValueError("entire display on: the RAM would not be shown")
        elif op in (0xA6, 0xA7):
            self.inverted = op == 0xA7
        elif op == 0xA8:
            self.mux = c[1] & 0x3F
        elif op in (0xAE, 0xAF):
            self.on = op == 0xAF
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op in (0xC0, 0xC8):
            self.com_flip = op == 0xC8
        elif op == 0xD3:
            self.offset = c[1] & 0x3F
        elif op in (0xD5, 0xD9, 0xDA, 0xDB, 0xE3):
            pass  # clock, pre-charge, COM pins, VCOMH, no-op
        elif op == 0xAD:
            pass  # SH1106: DC-DC control; SSD1306 (Thumby): IREF selection
        elif sh and op in (0xE0, 0xEE):
            pass  # read-modify-write start and end
        elif sh and 0xB8 <= op <= 0xBF:
            raise ValueError("SH1106 page %d does not exist on a 64-row panel" % (op & 0x0F))
        elif sh:
            raise ValueError("not an SH1106 command: 0x%02x" % op)
        elif op == 0x20:
            self.mode = c[1] & 0x03
        elif op == 0x21:
            self.col_start = c[1] & 0x7F
            self.col_end = c[2] & 0x7F
            self.col = self.col_start
        elif op == 0x22:
            self.page_start = c[1] & 0x07
            self.page_end = c[2] & 0x07
            self.page = self.page_start
        elif op in (0x8D, 0x2E, 0x2F, 0x26, 0x27, 0x29, 0x2A, 0xA3):
            pass  # charge pump, scrolling
        else:
            raise ValueError("not an SSD1306 command: 0x%02x" % op)

    # ------------------------------------------------------------ the picture

    def frame(self):
        """The visible window of the RAM as MONO_VLSB bytes (width x height)."""
        out = bytearray()
        for page in range(self.height // 8):
            base = page * self.columns + self.col_offset
            out.extend(self.ram[base:base + self.width])
        return bytes(out)

    def shows(self, buf):
        """True when the visible window equals the MONO_VLSB frame `buf`
        (compared in place: no 1 KB copy on a nearly full test heap)."""
        ram = self.ram
        i = 0
        for page in range(self.height // 8):
            base = page * self.columns + self.col_offset
            for c in range(self.width):
                if ram[base + c] != buf[i]:
                    return False
                i += 1
        return True

    def pixel(self, x, y):
        """The pixel at (x, y) of the visible window: 1 lit, 0 dark."""
        b = self.ram[(y >> 3) * self.columns + self.col_offset + x]
        return (b >> (y & 7)) & 1

    def rows(self):
        """The visible window as text rows of '#' and '.'."""
        return ["".join("#" if self.pixel(x, y) else "." for x in range(self.width))
                for y in range(self.height)]

    def upright(self):
        """True when the set-up shows RAM page 0 at the top and the window's
        column 0 at the left with the whole panel height multiplexed."""
        return (self.remap and self.com_flip and self.start_line == 0 and self.offset == 0
                and self.mux == self.height - 1)
