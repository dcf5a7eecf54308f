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
