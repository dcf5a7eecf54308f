"""The part of MicroPython's `machine` that firmware.device.Device uses on
CircuitPython: `lightsleep(ms)` while the display is off."""

import time


class Machine:
    """`lightsleep(ms)` as a plain wait. CircuitPython's own light sleep
    (`alarm.light_sleep_until_alarms`) needs a pin alarm per button and
    gives the pins up to it meanwhile (keypad must be stopped first): not
    wired up yet, so an idle CircuitPython device saves only the panel's
    power, not the chip's."""

    def lightsleep(self, ms):
        """Wait `ms` milliseconds (see the class docstring)."""
        time.sleep(ms / 1000)
