"""What a host says and keeps when its app fails: the log and the message.

firmware.supervisor decides what happens (let go of the app, wait for a
press, restart, stop after a failure that comes back at once); this
module, loaded only once a step has failed, does the two things it asks
for:

- `log(fs, error, now)` appends the traceback to `error.log` beside the
  saves (past LOG_LIMIT bytes the file becomes `error.log.1`: the two stay
  bounded);
- `show(display, width, lang, again)` puts a short message in the
  player's language on the screen, in the app's font: go on from the last
  save with a press, or (`again`) switch the device off and on.
"""

import sys

LOG = "error.log"
LOG_LIMIT = 2048  # bytes of error.log before it moves to error.log.1


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
