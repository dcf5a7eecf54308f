"""One supervisor for every host: the app it runs, and what happens when a
step of the app fails.

The device loop (firmware.device.Device), the browser page
(web/webhost.Host) and the simulator (simulator.host.Sim) each are a
`Supervisor`. An exception out of the app's step must not leave a host
dead:

1. `failed(error, now)` lets go of the app (its screens and the game in
   memory) and collects the garbage, so that even after a MemoryError
   there is room to work; then firmware.recovery logs the traceback
   beside the saves and shows a short message in the player's language;
2. while the message shows, `after_fault(now, held)` waits for a new
   press (the buttons held when it appeared do not count) and then
   restarts: a fresh app from the host's `make_app(now)`, a saved game
   resumed at its last save (every decision is saved, so nothing is lost
   but the one that failed); the restarting press is kept from the new
   app until it is released (`swallow`);
3. a second failure within RECRASH_MS of a restart stays on a message that
   asks to switch off and on: a fault that comes back at once would
   otherwise loop. The window is a firmware.clock.Due that its host
   clears once passed (the device loop does, and a sleep ends it).

A host that hands in the held buttons each step (the page, the
simulator's window) runs the whole path with
firmware.canvas.Hosted.guarded_step; the device loop reads its own
buttons and calls the parts.

The failure path must work on the heap a failure leaves: a MemoryError
comes when no free run is long enough, and loading a module then (its
code, its new names) asks for more of the same. So firmware.recovery is
loaded with this module (its code and names are on the heap before the
first press), and each Supervisor keeps recovery.RESERVE bytes in one block that
`failed` lets go of first: after a collection the log and the message
have that run even when the heap held no free kilobyte. If handling the
failure fails all the same, the device's last resort logs what it can
and resets the chip (firmware.device.Device.last_resort).
"""

import gc

from firmware import recovery
from firmware.clock import Due


class Supervisor:
    """Runs the app of a host (see the module docstring). `make_app(now)`
    makes a fresh App (firmware.app.make_app for the host's board);
    `display` is the canvas the failure message goes on (with `refresh`
    and `show`), `width` its width in pixels; `fs` the store's files,
    where the log goes (None: no log). What happens after a failure is in
    firmware.recovery; `spare` is the block kept for it (recovery.RESERVE bytes,
    made again at each restart)."""

    def __init__(self, app, display, width, make_app, fs=None):
        self.app = app
        self.display = display
        self.width = width
        self.make_app = make_app
        self.fs = fs
        self.fault = None  # recovery.RESTART or STOP while a failure message is on the screen
        self.fault_bits = 0  # the buttons held since it appeared (only a new press counts)
        self.swallow = 0  # bits kept from the app until released (a restarting press)
        self.recrash = Due()  # armed after a restart: a failure now stops for good
        self.spare = recovery.reserve()  # let go of first by `failed`

    def failed(self, error, now, held=None):
        """Let go of the app (and collect, so that even after a MemoryError
        there is room), then log `error` and show the message
        (firmware.recovery.fail); `held` are the buttons held now (None:
        the host's `read_held()` once the log is written)."""
        lang = getattr(self.app, "lang", "de")  # (no app: it failed while being made)
        self.app = None
        self.spare = None
        gc.collect()
        recovery.fail(self, error, now, lang, held)

    def after_fault(self, now, held):
        """One look at the buttons while the failure message shows: True
        when a new press restarted the app (firmware.recovery.after_fault)."""
        return recovery.after_fault(self, now, held)

    def adopt(self, app):
        """The host's own settings on a new app (the device: its feedback frames)."""

    def report(self, error, recovery):
        """Tell the host's developer about `error` (the page writes the
        traceback to the browser's console; the device has nobody to tell)."""

    def read_held(self):
        """The buttons held now (the device reads its keys)."""
        return 0
