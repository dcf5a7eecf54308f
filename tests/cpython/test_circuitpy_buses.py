"""The CircuitPython host keeps the display's bus objects alive.

On the chip an `i2cdisplaybus.I2CDisplayBus` (or `fourwire.FourWire`)
holds its `busio` bus where the garbage collector does not look: a
`busio.I2C` that only the display bus refers to is freed by the next
collection, and the display driver then waits for the bus forever (the
staged game hung so before its first frame). Here the display bus holds
its bus by a weak reference, as the chip's does in effect, and the
`busio` bus is made by the host from the board's pins (a fake `busio`);
under CPython a bus nobody else holds goes at once, so a host that keeps
only the display bus fails the first time the panel is sent to.
"""

import gc
import sys
import weakref

import busdisplay  # noqa: F401 (before the stand-ins: it binds the bus classes on import)
import displayio
import fourwire
import i2cdisplaybus
import pytest

from circuitpy import pins
from circuitpy.host import make_display
from firmware.board import load_board
from tests.cpython.circuitpy_fakes import FakeI2C, FakeSPI, Wires, fake_digitalio, frame_of
from tools.fakes.oled import Oled


class WeakBus:
    """A bus seen through a weak reference: every use of a freed bus fails."""

    def __init__(self, bus):
        self.ref = weakref.ref(bus)

    def __getattr__(self, name):
        bus = self.ref()
        if bus is None:
            raise AssertionError("the busio bus was freed while the display uses it")
        return getattr(bus, name)


class Module:
    """A stand-in module (attributes set by the test)."""


def _weak_display_buses(monkeypatch):
    """i2cdisplaybus and fourwire whose display buses hold their busio bus weakly."""

    class WeakI2CDisplayBus(i2cdisplaybus.I2CDisplayBus):
        def __init__(self, i2c, **kw):
            i2cdisplaybus.I2CDisplayBus.__init__(self, WeakBus(i2c), **kw)

    class WeakFourWire(fourwire.FourWire):
        def __init__(self, spi, **kw):
            fourwire.FourWire.__init__(self, WeakBus(spi), **kw)

    weak_i2c = Module()
    weak_i2c.I2CDisplayBus = WeakI2CDisplayBus
    weak_spi = Module()
    weak_spi.FourWire = WeakFourWire
    monkeypatch.setitem(sys.modules, "i2cdisplaybus", weak_i2c)
    monkeypatch.setitem(sys.modules, "fourwire", weak_spi)
    monkeypatch.setattr(pins, "pin", lambda n: n)


def test_the_i2c_made_from_the_boards_pins_lives_as_long_as_the_display(monkeypatch):
    board = load_board("pico_ssd1306_i2c")
    oled = Oled(board.DISPLAY, board.WIDTH, board.HEIGHT)
    made = []

    def i2c(scl, sda, frequency):
        made.append((scl, sda, frequency))
        return FakeI2C(oled, board.ADDR)

    busio = Module()
    busio.I2C = i2c
    monkeypatch.setitem(sys.modules, "busio", busio)
    _weak_display_buses(monkeypatch)
    canvas = make_display(board)
    gc.collect()
    assert made == [(board.SCL, board.SDA, getattr(board, "FREQ", 400000))]
    canvas.fill(0)
    canvas.fill_rect(3, 4, 20, 10, 1)
    canvas.show()
    assert oled.on and oled.shows(frame_of(canvas))
    displayio.release_displays()  # while the bus lives (the next test's make_display would)


def test_the_spi_made_from_the_boards_pins_lives_as_long_as_the_display(monkeypatch):
    board = load_board("pico_ssd1306_spi")
    wires = Wires()
    dio = fake_digitalio(wires)
    monkeypatch.setitem(sys.modules, "digitalio", dio)
    monkeypatch.setattr(fourwire, "digitalio", dio)
    oled = Oled(board.DISPLAY, board.WIDTH, board.HEIGHT)
    busio = Module()
    busio.SPI = lambda sck, MOSI: FakeSPI(oled, wires, board.DC, board.CS)  # noqa: N803
    monkeypatch.setitem(sys.modules, "busio", busio)
    _weak_display_buses(monkeypatch)
    canvas = make_display(board)
    gc.collect()
    canvas.fill(0)
    canvas.line(0, 0, 40, 30, 1)
    canvas.show()
    assert oled.on and oled.shows(frame_of(canvas))
    displayio.release_displays()  # while the bus lives (the next test's make_display would)


def test_a_freed_bus_is_seen_by_the_weak_display_bus():
    """The fake itself: a bus nobody keeps fails at its next use."""
    bus = WeakBus(FakeI2C(Oled("ssd1306", 128, 64)))
    gc.collect()
    with pytest.raises(AssertionError, match="freed"):
        bus.try_lock()

