"""The part of MicroPython's `machine` that firmware.device uses on
CircuitPython: `lightsleep(ms)` while the display is off, and `Pin`/`PWM`
for firmware.sound's buzzer (on `pwmio.PWMOut`)."""

import time


class PWM:
    """machine.PWM's `freq(hz)` and `duty_u16(v)` on a `pwmio.PWMOut` of GPIO
    `gpio` (variable frequency: each note sets its own), made at the first
    sound as firmware.sound makes it."""

    def __init__(self, gpio, pwmio=None, pin=None):
        if pwmio is None:
            import pwmio
        if pin is None:
            from circuitpy import pins

            pin = pins.pin
        self.out = pwmio.PWMOut(pin(gpio), frequency=440, duty_cycle=0, variable_frequency=True)

    def freq(self, hz):
        """The tone's pitch in Hz."""
        self.out.frequency = hz

    def duty_u16(self, value):
        """0 for silence, 32768 for a square wave."""
        self.out.duty_cycle = value


class Machine:
    """`lightsleep(ms)` as a plain wait, and `Pin(n)`/`PWM(pin)` for the
    buzzer (`Pin` is the GPIO number itself; `PWM` see above). CircuitPython's
    own light sleep (`alarm.light_sleep_until_alarms`) needs a pin alarm per
    button and gives the pins up to it meanwhile (keypad must be stopped
    first): not wired up yet, so an idle CircuitPython device saves only the
    panel's power, not the chip's."""

    PWM = PWM
    amp: object = None  # the speaker's enable pin, if any (kept here by circuitpy.host)

    @staticmethod
    def Pin(gpio):  # noqa: N802 (machine.Pin's name)
        """The GPIO number, which PWM takes."""
        return gpio

    def lightsleep(self, ms):
        """Wait `ms` milliseconds (see the class docstring)."""
        time.sleep(ms / 1000)
