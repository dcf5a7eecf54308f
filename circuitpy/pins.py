"""GPIO numbers as CircuitPython pin objects.

Boards stay data: boards/NAME.py names GPIO numbers, as a MicroPython
device reads them; on CircuitPython GPIO `n` is `microcontroller.pin.GPIO<n>`,
on every RP2040 board (`board.GP<n>` exists only on the Pico-shaped ones:
CircuitPython's MacroPad names its pins KEY1, ROTA, ... only). Its own
module so that the host and the modules it imports (keys, lights, taps,
power, boot.py) all take it from here, and none imports the host back.
Tests put `lambda n: n` in its place (`monkeypatch.setattr(pins, "pin",
...)`): callers look `pins.pin` up when they call it.
"""


def pin(n):
    """The CircuitPython pin object of GPIO `n` (`microcontroller.pin.GPIO<n>`)."""
    import microcontroller

    gpio = getattr(microcontroller, "pin")  # noqa: B009 (circuitpython-stubs lack `pin`)
    return getattr(gpio, "GPIO%d" % n)
