"""Fakes of CircuitPython's hardware modules for the CircuitPython host's tests.

`FakeI2C(oled)` stands for a `busio.I2C` with one panel on it: every
`writeto` goes to the OLED model of tools/fakes/oled.py, which decodes
the bytes as the controller would (and refuses what it would not take).
"""


class FakeI2C:
    """A `busio.I2C` with the OLED model `oled` at `addr`; a write to any
    other address raises OSError as a missing device does (no ACK)."""

    def __init__(self, oled, addr=0x3C):
        self.oled = oled
        self.addr = addr
        self.locked = False
        self.writes = 0

    def try_lock(self):
        """Take the bus (False when it is taken)."""
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        """Release the bus."""
        self.locked = False

    def deinit(self):
        """Give the bus up (displayio.release_displays does)."""
        self.locked = False

    def writeto(self, address, buffer, *, start=0, end=None):
        """One I2C transaction to `address`."""
        if not self.locked:
            raise RuntimeError("writeto without try_lock")
        if address != self.addr:
            raise OSError(19, "no device at 0x%02x" % address)
        self.writes += 1
        self.oled.i2c_write(bytes(buffer[start:end]))


class Wires:
    """The levels of the GPIOs the fakes drive (`pin_level(n)`, as the OLED
    model asks the fake `machine` for its DC and CS pins)."""

    def __init__(self):
        self.levels = {}

    def pin_level(self, n):
        """1 or 0 (a pin never driven reads high: pulled up)."""
        return self.levels.get(n, 1)

    def attach_spi(self, device, bus_id):
        """(The OLED model's `attach` hook: the FakeSPI holds the model.)"""


def fake_digitalio(wires):
    """A stand-in for the `digitalio` module whose pins are GPIO numbers
    (tests make circuitpy.pins.pin return the number): outputs set
    `wires.levels`."""

    class Direction:
        INPUT = "in"
        OUTPUT = "out"

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.direction = Direction.INPUT

        def switch_to_output(self, value=False, drive_mode=None):
            self.direction = Direction.OUTPUT
            self.value = value

        @property
        def value(self):
            return bool(wires.pin_level(self.pin))

        @value.setter
        def value(self, v):
            wires.levels[self.pin] = 1 if v else 0

        def deinit(self):
            pass

    class Module:
        pass

    module = Module()
    module.Direction = Direction
    module.DigitalInOut = DigitalInOut
    return module


class FakeSPI:
    """A `busio.SPI` with the OLED model `oled` on it: every `write` goes to
    the model, which reads its DC and CS pins from `wires`."""

    def __init__(self, oled, wires, dc, cs):
        self.oled = oled.attach(wires, bus="spi", dc=dc, cs=cs)
        self.locked = False
        self.writes = 0

    def try_lock(self):
        """Take the bus (False when it is taken)."""
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        """Release the bus."""
        self.locked = False

    def configure(self, baudrate=100000, polarity=0, phase=0, bits=8):
        """(The bus speed: nothing to do for the model.)"""

    def deinit(self):
        """Give the bus up."""
        self.locked = False

    def write(self, buffer, *, start=0, end=None):
        """One SPI write."""
        if not self.locked:
            raise RuntimeError("write without try_lock")
        self.writes += 1
        self.oled.spi_write(bytes(buffer[start:end]))


def spi_panel(board, monkeypatch):
    """(oled model, FakeSPI, wires) for an SPI board, with digitalio and
    circuitpy.pins.pin patched for the fakes (pins are GPIO numbers)."""
    import sys

    import fourwire

    import circuitpy.pins
    from tools.fakes.oled import Oled

    wires = Wires()
    dio = fake_digitalio(wires)
    monkeypatch.setitem(sys.modules, "digitalio", dio)
    monkeypatch.setattr(fourwire, "digitalio", dio)
    monkeypatch.setattr(circuitpy.pins, "pin", lambda n: n)
    offset = getattr(board, "COLUMN_OFFSET", None)
    oled = Oled(board.DISPLAY, board.WIDTH, board.HEIGHT, offset)
    return oled, FakeSPI(oled, wires, board.DC, board.CS), wires


def frame_of(canvas):
    """The canvas's bitmap as MONO_VLSB bytes (the OLED model's layout)."""
    out = bytearray(canvas.width * canvas.height // 8)
    bmp = canvas.bitmap
    for y in range(canvas.height):
        for x in range(canvas.width):
            if bmp[x, y]:
                out[(y >> 3) * canvas.width + x] |= 1 << (y & 7)
    return out
