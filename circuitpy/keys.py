"""The six buttons on CircuitPython: `keypad.Keys`, read as firmware.buttons bits.

`keypad.Keys` scans the pins in the background, debounces them and keeps
an event queue; `Keys.read()` drains it into the held bits the app
wants (bit i is firmware.buttons.NAMES[i]). A press that was let go
again before the loop read it still counts once (as the pin interrupts of
firmware.device.Keys make sure on MicroPython), and `caught` is true
while an event waits, so the device loop stops waiting for its next poll
(firmware.device.Device.settle).
"""

from firmware.buttons import NAMES


def make_keys(board, keypad=None, pin=None):
    """`keypad.Keys` on the board's six BUTTONS (to ground: pressed reads
    low, pull-ups on), in firmware.buttons.NAMES order."""
    if keypad is None:
        import keypad
    if pin is None:
        from circuitpy.host import pin
    pins = tuple(pin(board.BUTTONS[name]) for name in NAMES)
    return keypad.Keys(pins, value_when_pressed=False, pull=True)


class Keys:
    """firmware.device.Device's keys (`read()`, `caught`) over a
    `keypad.Keys`-like `scanner` (its `events` queue); `event` is the one
    keypad.Event read into, so reading allocates nothing."""

    def __init__(self, scanner, event):
        self.events = scanner.events
        self.scanner = scanner
        self.event = event
        self.held = 0

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
            bit = 1 << event.key_number
            if event.pressed:
                held |= bit
                pressed |= bit
            else:
                held &= ~bit
        self.held = held
        if events.overflowed:  # events were lost: start again from what is held now
            events.clear()
            self.held = 0
            self.scanner.reset()  # (the next scan reports every held key as pressed)
        return held | pressed
