"""The input layer shared by the device and the simulator.

A host reads its six buttons as one bit mask (`held_bits`, a set bit is a
button held down) and hands it, with the time in milliseconds, to
`Buttons.update` once per loop. `Buttons` turns the raw bits into what the
app needs:

- `held`: the debounced bits held down now,
- `pressed` / `released`: bits that went down / up in this step,
- `long`: bits held for `LONG_MS`, reported once per press,
- `short`: bits released before their long press was reported (taps),
- `repeat`: auto-repeat of the arrows while held,
- `events`: `pressed | repeat`, the bits a menu acts on.

Debounce is a lockout: the first edge of a press or release counts at once
(the player waits for no settling time), and the same button's further
changes are ignored for `DEBOUNCE_MS` while its contacts bounce. A change
still pending when the lockout ends counts at the next `update`, so a host
that calls `update` only when the bits change (a scripted test, the
simulator) gets every press; `Buttons(debounce_ms=0)` takes every change at
once. The price: a spike on an idle line shorter than the lockout counts as
a tap (buttons to ground with pull-ups do not make them).

Times may come from `time.ticks_ms()` (they wrap around), so every
difference goes through `ticks_diff`. `update` allocates nothing.
"""

from firmware.clock import ticks_diff
from firmware.shims import const

UP = const(1)
DOWN = const(2)
LEFT = const(4)
RIGHT = const(8)
A = const(16)
B = const(32)
ARROWS = const(15)  # UP | DOWN | LEFT | RIGHT
ALL = const(63)

# Button names in bit order: NAMES[i] is the button of bit 1 << i.
NAMES = ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")

# Button name -> bit.
BITS = {"UP": UP, "DOWN": DOWN, "LEFT": LEFT, "RIGHT": RIGHT, "A": A, "B": B}

_COUNT = const(6)


class Buttons:
    """Debounced edges, long presses and auto-repeat from raw button bits.

    Call `update(now_ms, held_bits)` once per loop, then read the attributes
    `pressed`, `released`, `long`, `short`, `repeat`, `events` (bits of this
    step) and `held` (bits held now). `last_activity_ms` is the time of the
    last press, release, long press or repeat, for sleep timers.

    The timings are class attributes; a subclass or an instance may change
    them. `debounce_ms` overrides DEBOUNCE_MS for this instance (0 for
    scripted input that never bounces).
    """

    DEBOUNCE_MS = 20  # after a counted change a button ignores changes this long
    LONG_MS = 600  # held this long: `long`, once per press
    REPEAT_DELAY_MS = 400  # first auto-repeat this long after the press
    REPEAT_MS = 120  # then one every this many ms while held
    REPEAT_MASK = ARROWS  # the buttons that repeat; A and B never do

    def __init__(self, debounce_ms=None):
        if debounce_ms is not None:
            self.DEBOUNCE_MS = debounce_ms
        self.held = 0
        self.pressed = 0
        self.released = 0
        self.long = 0
        self.short = 0
        self.repeat = 0
        self.events = 0
        self.last_activity_ms = 0
        self._started = False
        self._locked = 0  # bits in their lockout after a counted change
        self._changed_at = [0] * _COUNT  # when each locked bit's change counted
        self._long_done = 0  # held bits whose long press was reported
        self._down_at = [0] * _COUNT  # press time of each held button
        self._reps = [0] * _COUNT  # repeats reported in the current press

    def update(self, now_ms, held_bits):
        """Take the raw bits held at `now_ms` and compute this step's events."""
        held_bits &= ALL
        self.pressed = self.released = self.long = self.short = self.repeat = 0
        if not self._started:
            self._started = True
            self.last_activity_ms = now_ms
        locked = self._locked
        if locked:  # only locked bits look at their time: no stale tick is ever compared
            debounce = self.DEBOUNCE_MS
            bit = 1
            i = 0
            while bit <= locked:
                if locked & bit and ticks_diff(now_ms, self._changed_at[i]) >= debounce:
                    locked &= ~bit
                bit <<= 1
                i += 1
        change = (held_bits ^ self.held) & ~locked
        if change:
            locked |= change
            bit = 1
            i = 0
            while bit <= change:
                if change & bit:
                    self._changed_at[i] = now_ms
                bit <<= 1
                i += 1
            self._accept(self.held ^ change, now_ms)
        self._locked = locked
        held = self.held
        if held:
            self._timers(now_ms, held)
        self.events = self.pressed | self.repeat
        if self.events or self.released or self.long:
            self.last_activity_ms = now_ms

    def idle_ms(self, now_ms):
        """Milliseconds since the last press, release, long press or repeat."""
        return ticks_diff(now_ms, self.last_activity_ms)

    def _accept(self, bits, since):
        """Make `bits` the held bits; new presses start at `since`."""
        old = self.held
        down = bits & ~old
        up = old & ~bits
        self.held = bits
        self.pressed |= down
        self.released |= up
        self.short |= up & ~self._long_done
        self._long_done &= ~up
        i = 0
        while down:
            if down & 1:
                self._down_at[i] = since
                self._reps[i] = 0
            down >>= 1
            i += 1

    def _timers(self, now_ms, held):
        """Report long presses and auto-repeats of the held buttons."""
        long_ms = self.LONG_MS
        delay = self.REPEAT_DELAY_MS
        every = self.REPEAT_MS
        mask = self.REPEAT_MASK
        bit = 1
        i = 0
        while bit <= held:
            if held & bit:
                age = ticks_diff(now_ms, self._down_at[i])
                if age >= long_ms and not self._long_done & bit:
                    self._long_done |= bit
                    self.long |= bit
                if bit & mask and age >= delay:
                    due = (age - delay) // every + 1  # repeats due by now
                    if due > self._reps[i]:
                        self._reps[i] = due  # missed ones are skipped, not queued
                        self.repeat |= bit
            bit <<= 1
            i += 1
