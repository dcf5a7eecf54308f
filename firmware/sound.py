"""The buzzer: clicks and short phrases on a piezo, without blocking.

A sound is started and left to run; the device loop calls `tick(now)` each
pass, which ends a tone or starts the next note when its time is due. So
a phrase of half a second never holds up the buttons or the screen (a
blocking `sleep_ms` per note did). Loaded only on boards with a `BUZZER`.
"""

from firmware.clock import Due

FARKLE_NOTES = ((523, 90), (392, 90), (262, 180))  # C5 G4 C4
WIN_NOTES = ((523, 80), (659, 80), (784, 80), (1047, 200))  # C5 E5 G5 C6
CLICK = ((2000, 4),)  # Hz, ms: a short tick for a key press or a roll


class Buzzer:
    """A piezo on `pin` driven by PWM; nothing sounds while `on` is False.
    The PWM is made at the first sound, so a silent device never drives it.
    `playing` is True while notes are left."""

    def __init__(self, machine, pin, on=True):
        self.machine = machine
        self.pin = pin
        self.on = on
        self.pwm = None
        self.notes = ()
        self.next = 0  # the note to start when `due` is reached
        self.due = Due()

    @property
    def playing(self):
        """True while a phrase is sounding."""
        return self.due.armed

    def _out(self):
        if self.pwm is None:
            self.pwm = self.machine.PWM(self.machine.Pin(self.pin))
        return self.pwm

    def play(self, notes, now):
        """Start `notes`, a sequence of (Hz, ms) with 0 Hz for a rest, at
        `now` (a new sound replaces one still playing)."""
        if not self.on or not notes:
            return
        if self.due.armed:
            self._out().duty_u16(0)
        self.notes = notes
        self.next = 0
        self._start(now)

    def click(self, now):
        """A short tick."""
        self.play(CLICK, now)

    def tick(self, now):
        """End the note that is due and start the next one (each pass)."""
        if self.due.reached(now):
            self._out().duty_u16(0)
            if self.next < len(self.notes):
                self._start(now)
            else:
                self.due.clear()

    def _start(self, now):
        hz, ms = self.notes[self.next]
        self.next += 1
        if hz:
            pwm = self._out()
            pwm.freq(hz)
            pwm.duty_u16(32768)
        self.due.set(now, ms)
