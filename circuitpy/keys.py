"""The buttons on CircuitPython: `keypad.Keys`, read as firmware.buttons bits.

`keypad.Keys` scans the pins in the background, debounces them and keeps
an event queue; `Keys.read()` drains it into the held bits the app
wants (bit i is firmware.buttons.NAMES[i]). A press that was let go
again before the loop read it still counts once (as the pin interrupts of
firmware.device.Keys make sure on MicroPython), and `caught` is true
while an event waits, so the device loop stops waiting for its next poll
(firmware.device.Device.settle).

A board with more than the six buttons (the MacroPad: boards/ ENCODER and
DIE_KEYS) scans them in the same `keypad.Keys`, after the six; their
events go to `other`, which circuitpy.taps.TapKeys (loaded only for such
a board: its code stays off a Pico's heap) turns into presses.
"""

from firmware.buttons import NAMES


def make_keys(board, keypad=None, pin=None):
    """`keypad.Keys` on the board's six BUTTONS in firmware.buttons.NAMES
    order, then its encoder switch and its DIE_KEYS if it has them (to
    ground: pressed reads low, pull-ups on)."""
    if keypad is None:
        import keypad
    if pin is None:
        from circuitpy import pins

        pin = pins.pin
    pins = [pin(board.BUTTONS[name]) for name in NAMES]
    encoder = getattr(board, "ENCODER", None)
    if encoder is not None:
        pins.append(pin(encoder[2]))
    pins.extend(pin(n) for n in getattr(board, "DIE_KEYS", ()))
    return keypad.Keys(tuple(pins), value_when_pressed=False, pull=True)


class Keys:
    """firmware.device.Device's keys (`read()`, `caught`) over a
    `keypad.Keys`-like `scanner` (its `events` queue); `event` is the one
    keypad.Event read into, so reading allocates nothing. `lights`: the
    board's key lights (circuitpy.lights), kept here for the host's loop."""

    def __init__(self, scanner, event, lights=None):
        self.events = scanner.events
        self.scanner = scanner
        self.event = event
        self.held = 0
        self.lights = lights

    @property
    def caught(self):
        """True while an event waits in the queue."""
        return bool(self.events)

    def read(self):
        """The bits held now, and those pressed since the last read."""
        events = self.events
        event = self.event
        held = self.held
        pressed = 0
        while events.get_into(event):
            n = event.key_number
            if n < len(NAMES):
                bit = 1 << n
                if event.pressed:
                    held |= bit
                    pressed |= bit
                else:
                    held &= ~bit
            else:
                bit = self.other(n, event.pressed)
                if bit and event.pressed:
                    held |= bit
                    pressed |= bit
                elif bit:
                    held &= ~bit
        self.held = held
        if events.overflowed:  # events were lost: start again from what is held now
            events.clear()
            self.held = 0
            self.scanner.reset()  # (the next scan reports every held key as pressed)
        return held | pressed

    def other(self, n, pressed):
        """A key after the six (key number `n`): the button bit it holds, or
        0 (this board has none: ignored)."""
        return 0
