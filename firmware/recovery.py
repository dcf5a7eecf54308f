"""What the handheld does when the app fails: tell, log, and play on.

An exception out of the app's step must not leave the device dead at the
REPL. `fail(dev, error)`, called by firmware.device.run:

1. the device has dropped the app (its screens and the game in memory)
   and collected the garbage (Device.failed), so that even after a
   MemoryError there is room to work;
2. appends the traceback to `error.log` beside the saves (past LOG_LIMIT
   bytes the file becomes `error.log.1`: the two stay bounded);
3. shows a short message in the player's language, and the device waits
   for a press (Device.step while `dev.fault` is set);
4. on that press `restart(dev)` makes a fresh app; a saved game is
   resumed at its last save (every decision is saved, so nothing is lost
   but the one that failed).

A second failure within RECRASH_MS of a restart stays on a message that
asks to switch the device off and on: a fault that comes back at once
would otherwise loop.
"""

import gc
import sys

LOG = "error.log"
LOG_LIMIT = 2048  # bytes of error.log before it moves to error.log.1
RECRASH_MS = 10000  # a failure this soon after a restart stops the device
RESTART = "restart"  # dev.fault: a press starts the app again
STOP = "stop"  # dev.fault: the message stays


def fail(dev, error):
    """Handle `error` from the app of Device `dev`, which has already let go
    of the app (Device.failed keeps its `fault_lang` and `fault_fs`)."""
    lang = dev.fault_lang
    fs = dev.fault_fs
    now = dev.clock.ticks_ms()
    again = dev.recrash.waiting(now)
    if fs is not None:
        try:
            log(fs, error, now)
        except Exception:  # a full or broken flash: the message still shows
            pass
    dev.fault = STOP if again else RESTART
    dev.fault_bits = dev.keys.read()  # held now: only a new press counts
    show(dev.display, dev.width, lang, again)


def log(fs, error, now):
    """Append a report of `error` (time, type, traceback) to LOG on `fs`.
    A log past LOG_LIMIT bytes becomes LOG + ".1" (replacing the one
    before), so the two together stay under twice the limit; nothing is
    read back, so a short heap does not stop the report."""
    entry = ("--- %d ms %s\n%s" % (now, type(error).__name__, traceback_text(error))).encode()
    if fs.append(LOG, entry[-LOG_LIMIT:]) > LOG_LIMIT:
        fs.rename(LOG, LOG + ".1")


def traceback_text(error):
    """The traceback of `error` as text (MicroPython or CPython)."""
    print_exception = getattr(sys, "print_exception", None)
    if print_exception is not None:  # MicroPython
        import io

        out = io.StringIO()
        print_exception(error, out)
        # MicroPython's io.StringIO has getvalue(); the rp2 stubs lack it:
        return out.getvalue()  # pyright: ignore[reportAttributeAccessIssue]
    # CPython only (MicroPython has sys.print_exception, above; its stubs no traceback):
    import traceback  # pyright: ignore[reportMissingImports]

    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


# The message, per language: the app's texts may be what failed, so these
# few lines live here (tests/both/test_recovery.py fits them to both
# screens).
LINES = {
    "de": (("Ein Fehler ist", "aufgetreten. Eine", "Taste: weiter beim", "letzten Stand."),
           ("Wieder ein Fehler.", "Bitte aus- und", "wieder einschalten.")),
    "en": (("Something went", "wrong. Press a key", "to go on from the", "last save."),
           ("It failed again.", "Please switch off", "and on again.")),
}


def lines(lang, again):
    """The message lines for `lang` ("de" unless "en")."""
    return LINES["en" if lang == "en" else "de"][1 if again else 0]


def show(display, width, lang, again):
    """Draw the message with the app's font for the screen size."""
    from firmware import font

    f = font.REGULAR if width >= 128 else font.SMALL
    step = f.height + (2 if width >= 128 else 1)
    display.fill(0)
    y = 1
    for line in lines(lang, again):
        f.draw(display, line, 0, y, 1)
        y += step
    display.refresh()
    display.show()


def restart(dev):
    """A fresh app on the device; a saved game is resumed at its last save."""
    gc.collect()
    app = dev.make_app()
    dev.app = app
    app.show_now = dev.show_now
    if app.session.has_game():
        from firmware.screens.title import resume

        resume(app)
    dev.fault = None
    dev.recrash.set(dev.clock.ticks_ms(), RECRASH_MS)
    dev.display.refresh()
