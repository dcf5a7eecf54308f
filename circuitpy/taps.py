"""The MacroPad's extra inputs: the encoder and a key per die (boards/ ENCODER, DIE_KEYS).

`TapKeys` is circuitpy.keys.Keys with them: the scanner has the encoder's
push switch after the six buttons (it holds A), then the die keys. A die
key, on the play screen while the person picks dice, puts the cursor on
its die and presses A (the die is picked or dropped as A does); elsewhere
it does nothing. A turn of the encoder (`rotaryio.IncrementalEncoder`,
one count a detent) is a press of UP (counter-clockwise) or DOWN
(clockwise). Die keys and detents are taps: held for TAP_MS and let go
for TAP_MS (firmware.buttons debounces every change for 20 ms: a shorter
tap would be lost), one at a time (those that come quicker wait in
`taps`), so three detents are three presses and two die keys hit
together pick two dice.
"""

import time

from circuitpy.keys import Keys
from firmware.buttons import BITS, NAMES
from firmware.clock import Due

SWITCH = BITS["A"]  # the encoder's push switch
TURN = (BITS["UP"], BITS["DOWN"])  # a count down, a count up
TAP_MS = 30  # a tap is held this long, then let go this long


def make_encoder(board, pin=None):
    """`rotaryio.IncrementalEncoder` on the board's ENCODER, or None."""
    encoder = getattr(board, "ENCODER", None)
    if encoder is None:
        return None
    if pin is None:
        from circuitpy import pins

        pin = pins.pin
    import rotaryio

    return rotaryio.IncrementalEncoder(pin(encoder[0]), pin(encoder[1]))


class TapKeys(Keys):
    """See the module docstring. `switch`: the scanner has the encoder's
    switch after the six buttons; `dice`: that many die keys after it;
    `encoder`: an object with `position` (rotaryio) or None; `ticks_ms`
    the clock that times the taps (the device's; `time.monotonic` when
    None). `app` is asked for the screen a die key acts on: a callable
    returning the App (the host sets it to the device's)."""

    def __init__(self, scanner, event, switch=False, dice=0, encoder=None, ticks_ms=None,
                 lights=None, app=None):
        Keys.__init__(self, scanner, event, lights)
        self.switch = len(NAMES) if switch else -1
        self.first_die = len(NAMES) + (1 if switch else 0)
        self.dice = dice
        self.encoder = encoder
        self.turned = encoder.position if encoder is not None else 0
        self.taps = []  # waiting taps: a bit, plus (die + 1) << 8 for a die key
        self.tap = 0  # the tap held now (its bit), 0 when none
        self.due = Due()  # when the tap held is let go, or the next may start
        self.ticks_ms = ticks_ms if ticks_ms is not None else _monotonic_ms
        self.app = app

    @property
    def caught(self):
        """True while an event waits, the encoder has turned, or a tap is
        due to be let go or to start (the device loop then stops waiting)."""
        encoder = self.encoder
        return bool(self.events) or (encoder is not None and encoder.position != self.turned) \
            or self._tap_due()

    def _tap_due(self):
        """True when the tap held is to be let go or a waiting one may start."""
        if not self.tap and not self.taps:
            return False
        due = self.due
        return not due.armed or due.reached(self.ticks_ms())

    def other(self, n, pressed):
        """The switch holds A; a die key's press waits as a tap."""
        if n == self.switch:
            return SWITCH
        die = n - self.first_die
        if pressed and 0 <= die < self.dice:
            self.taps.append(SWITCH | (die + 1) << 8)
        return 0

    def read(self):
        """Keys.read, then the encoder's detents and the taps."""
        bits = Keys.read(self)
        encoder = self.encoder
        if encoder is not None:
            position = encoder.position
            while position != self.turned and len(self.taps) < 8:
                step = 1 if position > self.turned else -1
                self.turned += step
                self.taps.append(TURN[step > 0])
            self.turned = position  # (a spin beyond 8 waiting taps is dropped)
        if self._tap_due():
            now = self.ticks_ms()
            if self.tap:
                self.tap = 0  # let go, and kept so for TAP_MS
                self.due.set(now, TAP_MS)
            else:
                self.due.clear()
                tap = self.taps.pop(0)
                if tap < 256 or self.point_at((tap >> 8) - 1):
                    self.tap = tap & 255
                    self.due.set(now, TAP_MS)
        return bits | self.tap

    def point_at(self, die):
        """Put the play screen's cursor on die `die` when the person is
        picking dice and there is such a die; True when it did (A then picks
        or drops it)."""
        app = self.app() if self.app is not None else None
        if app is None or not 0 <= die < self.dice:
            return False
        play = app.top()
        if play.name != "play" or play.game.phase != "keep" or not play.person_to_move():
            return False
        if die >= len(play.sel):
            return False
        play.cursor = die
        return True


def _monotonic_ms():
    """Milliseconds from `time.monotonic()` (a clock for taps when none is given)."""
    return int(time.monotonic() * 1000)
