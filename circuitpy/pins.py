"""GPIO numbers as CircuitPython pin objects.

Boards stay data: boards/NAME.py names GPIO numbers, as a MicroPython
device reads them; on CircuitPython GPIO `n` is `board.GP<n>`. Its own
module so that the host and the modules it imports (keys, lights, taps,
power, boot.py) all take it from here, and none imports the host back.
Tests put `lambda n: n` in its place (`monkeypatch.setattr(pins, "pin",
...)`): callers look `pins.pin` up when they call it.
"""


def pin(n):
    """The CircuitPython pin object of GPIO `n` (`board.GP<n>`)."""
    import board as cpboard  # (CircuitPython's board module, not the game's boards/)

    return getattr(cpboard, "GP%d" % n)
