"""What a host's firmware.supervisor.Supervisor does once its app failed
(loaded with the supervisor, before the first press: a failure must not
need a module it has to load first):

- `fail`: log the traceback to `error.log` beside the saves (`log`: past
  LOG_LIMIT bytes the file becomes `error.log.1`, so the two stay
  bounded) and show a short message in the player's language (`show`):
  go on from the last save with a press, or, when the failure came
  within RECRASH_MS of a restart, switch the device off and on (a fault
  that comes back at once would otherwise loop);
- `after_fault`: a new press (the buttons held when the message appeared
  do not count) `restart`s: a fresh app from the host's `make_app`, a
  saved game resumed at its last save (every decision is saved, so
  nothing is lost but the one that failed); the press is kept from the
  new app until it is released.
"""

import gc
import sys

from firmware import font

LOG = "error.log"
LOG_LIMIT = 2048  # bytes of error.log before it moves to error.log.1
RESERVE = 2048  # bytes a Supervisor keeps in one block for this path (its `spare`)
RECRASH_MS = 10000  # a failure this soon after a restart stops the app for good
RESTART = "restart"  # Supervisor.fault: a new press starts the app again
STOP = "stop"  # Supervisor.fault: the message stays
RESET = "reset"  # the log's kind for a last-resort reset of the chip (log_reset)
RESET_ENTRY = b"--- 0 ms reset\n(no room for the traceback)\n"


def fail(sup, error, now, lang, held):
    """Log `error` and show the message for Supervisor `sup`, which has let
    go of its app (`lang` was its language); `held`: the buttons held now
    (None: `sup.read_held()` once the log is written, so that a press
    during the writing does not count)."""
    again = sup.recrash.waiting(now)
    sup.report(error, sys.modules[__name__])
    if sup.fs is not None:
        try:
            log(sup.fs, error, now)
        except Exception:  # a full or broken flash: the message still shows
            pass
    sup.fault = STOP if again else RESTART
    sup.fault_bits = sup.read_held() if held is None else held
    show(sup.display, sup.width, lang, again)


def after_fault(sup, now, held):
    """One look at the buttons while the message shows: True when a new
    press restarted the app (it is swallowed)."""
    new = held & ~sup.fault_bits
    sup.fault_bits = held
    if not new or sup.fault != RESTART:
        return False
    restart(sup, now)
    sup.swallow = held  # the restarting press is not the app's
    return True


def restart(sup, now):
    """A fresh app for Supervisor `sup`; a saved game is resumed at its
    last save."""
    gc.collect()
    if sup.spare is None:  # the failure path's block again, before the app takes the heap
        sup.spare = reserve()
    app = sup.make_app(now)
    sup.app = app
    sup.adopt(app)
    if app.session.has_game():
        app.flow.resume_game(app)
    sup.fault = None
    sup.recrash.set(now, RECRASH_MS)
    sup.display.refresh()


def reserve():
    """The failure path's block (RESERVE bytes), or None when the heap has
    no run that long (the path then works with what a collection frees)."""
    try:
        return bytearray(RESERVE)
    except MemoryError:
        return None


def log(fs, error, now, kind=None):
    """Append a report of `error` (time, type, traceback) to LOG on `fs`;
    `kind` (RESET) heads the entry instead of the error's type, which then
    starts its text. A log past LOG_LIMIT bytes becomes LOG + ".1"
    (replacing the one before), so the two together stay under twice the
    limit; nothing is read back, so a short heap does not stop the report."""
    name = type(error).__name__
    text = traceback_text(error)
    if kind is None:
        entry = "--- %d ms %s\n%s" % (now, name, text)
    else:
        entry = "--- %d ms %s\n%s while handling a failure\n%s" % (now, kind, name, text)
    entry = entry.encode()
    if fs.append(LOG, entry[-LOG_LIMIT:]) > LOG_LIMIT:
        fs.rename(LOG, LOG + ".1")


def log_reset(fs, error, now):
    """The last resort's entry (firmware.device.Device.last_resort): a
    RESET entry with `error`'s traceback, or, when the heap has no room
    for that, the fixed RESET_ENTRY (made at import: it needs no heap)."""
    try:
        log(fs, error, now, RESET)
    except Exception:
        fs.append(LOG, RESET_ENTRY)


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
    f = font.REGULAR if width >= 128 else font.SMALL
    step = f.height + (2 if width >= 128 else 1)
    display.fill(0)
    y = 1
    for line in lines(lang, again):
        f.draw(display, line, 0, y, 1)
        y += step
    display.refresh()
    display.show()
