"""The handheld's hardware watchdog: a hang (a loop that stops stepping)
ends in a reset, and the boot after it says so in the error log.

- `start(machine, fs)` enables `machine.WDT` with TIMEOUT_MS, unless the
  flash holds the file OPT_OUT (a boot-time opt-out for development) or
  the port has no WDT; it returns the Watchdog (None without one). Before
  that it looks at why the chip started (`hang_reset`): after a reset by
  the watchdog's timer it appends a WATCHDOG entry to the error log
  (firmware.recovery's), so a watchdog reset is counted, never silent.
- The device loop feeds it every pass and whenever a step sends a frame
  in its middle (App.flush, App.busy: the long work, e.g. a solver row);
  the plan solver runs a row per pass (firmware.screens.solving), and no
  step of the game takes more than about half a second on the chip.
- Ctrl-C (`mpremote`, `make flash`, `make repl`) raises KeyboardInterrupt
  out of the loop; firmware.main then calls `stop()`: MicroPython cannot
  stop a WDT once started, the RP2040 can (clearing its CTRL register's
  ENABLE bit, as the Pico SDK's watchdog_disable does), so the REPL and
  mpremote keep working for as long as they need; a soft reset runs
  main.py again, which enables it again.
"""

TIMEOUT_MS = 8000  # the RP2040's longest is 8388 ms; the slowest step is ~0.5 s
OPT_OUT = "/nowdt"  # a file of this name on the flash: no watchdog at boot
# The RP2040's watchdog (datasheet 4.7): CTRL's bit 30 enables it; REASON
# is non-zero after a reset it caused; SCRATCH4 holds the Pico SDK's
# "enabled, no reboot asked" magic while a started watchdog runs (a
# machine.reset() writes 0 there), so a timer reset is told apart from a
# machine.reset().
CTRL = 0x40058000
REASON = 0x40058008
SCRATCH4 = 0x4005801C
ENABLE = 1 << 30
NON_REBOOT_MAGIC = 0x6AB73121
WATCHDOG = "watchdog"  # the error log's kind for a watchdog reset
WATCHDOG_ENTRY = b"--- 0 ms watchdog\n(the loop stopped stepping; the watchdog reset the chip)\n"


class Watchdog:
    """A started hardware watchdog: `feed()` within TIMEOUT_MS, `stop()`
    before leaving the game for the REPL."""

    def __init__(self, machine, wdt):
        self.machine = machine
        self.wdt = wdt
        self.feed = wdt.feed  # (bound once: the loop's feed allocates nothing)

    def stop(self):
        """Stop the watchdog (RP2040: CTRL's ENABLE bit cleared)."""
        mem32 = getattr(self.machine, "mem32", None)
        if mem32 is not None:
            mem32[CTRL] = mem32[CTRL] & ~ENABLE


def hang_reset(machine):
    """True when the watchdog's timer reset the chip (not a power-on, not
    a machine.reset()): the RP2040's REASON and SCRATCH4 registers."""
    mem32 = getattr(machine, "mem32", None)
    if mem32 is None:
        return False
    return bool(mem32[REASON]) and mem32[SCRATCH4] == NON_REBOOT_MAGIC


def opted_out(path=OPT_OUT):
    """True when the flash holds the opt-out file."""
    import os

    try:
        os.stat(path)
    except OSError:
        return False
    return True


def start(machine, fs=None, opt_out=OPT_OUT):
    """Log a watchdog reset of the last run to `fs` (the store's files,
    firmware.recovery.LOG), then start the watchdog; None when `opt_out`
    is on the flash or the port has no WDT."""
    if fs is not None and hang_reset(machine):
        from firmware.recovery import LOG

        try:
            fs.append(LOG, WATCHDOG_ENTRY)
        except Exception:  # a full or broken flash: the game still starts
            pass
    wdt_class = getattr(machine, "WDT", None)
    if wdt_class is None or opted_out(opt_out):
        return None
    return Watchdog(machine, wdt_class(timeout=TIMEOUT_MS))
