"""The key lights of a board with a NeoPixel under each key (boards/ PIXELS).

On the MacroPad the twelve NeoPixels sit under the keys, chained in the
order of the keys' GPIOs (KEY1 on GPIO 1 first). While a person picks dice
on the play screen, the key of each die on the table glows dim and the key
of a picked die green; otherwise all are dark. `update(app)`, called by
the device loop before each step, works the colours out and writes them
only when they changed (a write sends 36 bytes; it allocates nothing).
"""

DIM = (4, 4, 4)  # a die on the table, in the pixels' G, R, B order
PICKED = (48, 0, 0)  # a picked die: green


def make_lights(board, pin=None):
    """Lights on the board's PIXELS through `neopixel_write` (core
    CircuitPython: no library to install), or None when it has none."""
    data = getattr(board, "PIXELS", None)
    if data is None:
        return None
    if pin is None:
        from circuitpy import pins

        pin = pins.pin
    import digitalio
    import neopixel_write

    out = digitalio.DigitalInOut(pin(data))
    out.direction = digitalio.Direction.OUTPUT
    return Lights(lambda buf: neopixel_write.neopixel_write(out, buf), pixel_map(board))


def pixel_map(board):
    """The pixel under each die's key: the keys' GPIOs (BUTTONS and
    DIE_KEYS) in rising order are the pixels 0, 1, ... of the chain."""
    keys = sorted(list(board.BUTTONS.values()) + list(board.DIE_KEYS))
    return (len(keys), tuple(keys.index(n) for n in board.DIE_KEYS))


class Lights:
    """See the module docstring. `write(buf)` sends `buf` (3 bytes a pixel,
    G R B) to the chain; `layout` is pixel_map's (count, pixel of each die)."""

    def __init__(self, write, layout):
        count, self.dice = layout
        self.write = write
        self.buf = bytearray(3 * count)
        self.shown = None  # what the chain shows (None: unknown, write at the next update)

    def update(self, app):
        """Light the dice's keys for the screen on top of `app`."""
        buf = self.buf
        for i in range(len(buf)):
            buf[i] = 0
        play = app.top()
        if play.name == "play" and play.game.phase == "keep" and play.person_to_move():
            dice = self.dice
            for die, picked in enumerate(play.sel):
                if die < len(dice):
                    at = 3 * dice[die]
                    buf[at], buf[at + 1], buf[at + 2] = PICKED if picked else DIM
        if self.shown is None or buf != self.shown:
            self.write(buf)
            self.shown = bytes(buf)
