"""The Thumby board against its hardware, on the fakes: the hardware id on
GPIO 15, 14, 13 and 12 picks the display's bus, the display is reset on its
reset pin before the first command, and the controller gets the settings
TinyCircuits' Thumby library gives it (72 columns from RAM column 28,
charge pump, VCOMH 0x20, internal current reference, contrast up to 0x7F).
Runs under CPython and MicroPython.
"""

# isort: off
from tests.both import helpers  # noqa: F401  (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
import oled  # (tools/fakes/oled.py)
# isort: on

import framebuf  # noqa: E402, F401  (CPython: the stand-in from tests/conftest.py)

from firmware import board as board_mod  # noqa: E402

ID_PINS = (15, 14, 13, 12)


class _Recorder(oled.Oled):
    """The controller model, also listing every command with its arguments
    and noting it in the fake's pin log (so the order against the reset
    pin shows)."""

    def __init__(self):
        super().__init__("ssd1306", 72, 40, 28)
        self.log = []

    def _command(self, c):
        self.log.append(tuple(c))
        machine.pin_log.append(("cmd", c[0]))
        super()._command(c)


def _unit(id_bits):
    """Fresh fakes with the ID pins reading `id_bits` (bit i low on pin i)."""
    machine.reset_fakes()
    for i, pin in enumerate(ID_PINS):
        machine.level(pin, 0 if id_bits & (1 << i) else 1)
    return board_mod.load_board("thumby")


def test_the_id_pins_are_the_thumby_librarys_and_read_as_its_bits():
    board = _unit(0)
    assert tuple(board.ID_PINS) == ID_PINS
    for bits in range(16):
        board = _unit(bits)
        assert board_mod.hardware_id(board, machine) == bits
        for pin in ID_PINS:  # left pulled down: no current into a pin tied low
            assert machine.pin_pull(pin) == machine.Pin.PULL_DOWN


def _rig(bits):
    """The Thumby of hardware id `bits` with the recording model on the bus
    that id means; (model, display)."""
    board = _unit(bits)
    model = _Recorder()
    if bits:
        model.attach(machine, "spi", board.SPI_ID, dc=board.DC, cs=board.CS)
    else:
        model.attach(machine, "i2c", board.I2C_ID, board.ADDR)
    machine.log_pins(True)
    return board, model, board_mod.make_display(board, machine)


def test_id_zero_means_i2c_any_other_id_spi():
    for bits in (0, 1, 2, 4, 8, 15):
        board, model, disp = _rig(bits)
        disp.fill(0)
        disp.fill_rect(0, 0, 72, 40, 1)
        disp.show()
        assert model.on and model.frame() == bytes(disp.buffer), bits
        assert type(disp.bus).__name__ == ("SPIBus" if bits else "I2CBus")
        if not bits:
            # the Thumby library's I2C clock, 1 MHz, as the chip really makes it
            assert board.FREQ == 1000000
            assert disp.bus.i2c.freq == board_mod.i2c_request(1000000, machine.freq())


def test_the_display_is_reset_on_its_pin_before_the_first_command():
    for bits, res in ((1, 20), (0, 18)):
        board, model, disp = _rig(bits)
        log = machine.pin_log
        first = log.index(("cmd", 0xAE))
        levels = [lvl for pin, lvl in log[:first] if pin == res]
        assert levels[-3:] == [1, 0, 1], (bits, levels)
        assert machine.pin_level(res) == 1


def _settings(log):
    """The last arguments sent for each command (single-byte ones: ())."""
    out = {}
    for c in log:
        out[c[0]] = c[1:]
    return out


def test_the_controller_gets_the_thumby_librarys_settings():
    for bits in (1, 0):
        board, model, disp = _rig(bits)
        got = _settings(model.log)
        expect = {0x20: (0x00,), 0xA8: (39,), 0xD3: (0,), 0xDA: (0x12,), 0xD5: (0x80,),
                  0xD9: (0xF1,), 0xDB: (0x20,), 0x8D: (0x14,), 0xAD: (0x30,)}
        for op, args in expect.items():
            assert got.get(op) == args, (bits, hex(op), got.get(op))
        for op in (0x40, 0xA1, 0xC8, 0xA4, 0xA6):
            assert op in got, hex(op)
        disp.show()
        assert (model.col_start, model.col_end) == (28, 99)  # the library's window
        assert (model.page_start, model.page_end) == (0, 4)


def test_brightness_is_scaled_to_the_thumbys_contrast_range():
    board, model, disp = _rig(1)
    assert board.CONTRAST_MAX == 0x7F
    assert model.contrast == board_mod.CONTRAST * 0x7F // 255
    for value, sent in ((255, 0x7F), (0, 0), (0x80, 0x3F), (0x08, 0x03)):
        disp.contrast(value)
        assert model.contrast == sent, value
    # Other boards keep the whole range.
    machine.reset_fakes()
    pico = board_mod.load_board("pico_ssd1306_spi")
    m2 = oled.Oled("ssd1306", 128, 64)
    m2.attach(machine, "spi", pico.SPI_ID, dc=pico.DC, cs=pico.CS)
    d2 = board_mod.make_display(pico, machine)
    d2.contrast(255)
    assert m2.contrast == 255

