"""Board setup and the device loop: display, buttons, entropy, flash, power.

`run(board)` is what `main.py` calls on the handheld. In order:

1. the display (first, so its frame buffer gets one contiguous block),
2. the six buttons (inputs with pull-ups, active low),
3. the entropy self-test: 64 bytes of `os.urandom`; a stuck source
   (engine.dice.source_looks_stuck) is refused with a message on the
   screen and the app is not started,
4. the store on the littlefs root (`/data`, created when missing, never
   formatted) and the shipped tables (`/tables`),
5. the app, then the loop: read the buttons, `app.step(now, bits)`, push
   the frame only when it changed, sleep until the next poll (POLL_MS;
   a press caught by its pin interrupt ends the sleep within 1 ms, and
   counts on its first edge).

Power: after `DIM_MS` without a button change the contrast goes down; after
`SLEEP_MS` the display goes off and the loop sleeps in `machine.lightsleep`
slices of `SLICE_MS`, reading the buttons after each. A new press wakes it:
display on, full contrast, the frame sent again. The app is not stepped
while asleep, so it resumes exactly where it was, and the waking press is
swallowed (it never reaches the app; the screen was dark). A press on a
dimmed screen brightens it and does count (the screen was readable).

The hardware watchdog (firmware.watchdog) is fed every pass: a loop that
stops stepping ends in a reset, Ctrl-C stops it for the REPL.

Everything the loop touches is passed in (`machine`, `clock`, the entropy
source, the store), so tests run it on `tools/fakes/machine.py` with a
virtual clock, under CPython and the MicroPython Unix port.

The buzzer (firmware/sound.py, which never blocks the loop) loads only on
boards that have one: a boot carries no code it does not need.
"""

import gc
import os

from firmware import recovery
from firmware.buttons import NAMES
from firmware.clock import ticks_diff
from firmware.files import CONTRAST
from firmware.shims import const
from firmware.supervisor import Supervisor

POLL_MS = const(5)  # one loop pass (button read, app step) this often
DIM_MS = const(30000)  # idle this long: contrast down
SLEEP_MS = const(120000)  # idle this long: display off, light sleep
SLICE_MS = const(50)  # one light sleep between two button reads
DIM_CONTRAST = const(0x08)  # dimmed brightness
ENTROPY_SAMPLE = const(64)  # bytes read by the start-up self-test
DATA_DIR = "/data"
TABLES_DIR = "/tables"
STUCK_LINES = ("Fehler:", "Zufall", "defekt.", "(RNG", "stuck)")
BENCH_FILE = "bench.json"


class Keys:
    """The six buttons of `board.BUTTONS` as inputs with pull-ups (a pressed
    button reads 0); `read()` returns the held bits (firmware.buttons).

    A falling edge also sets the button's bit in `caught` (a pin interrupt,
    where the port has them), and `read()` reports it once even when the
    button was let go again: a tap shorter than a loop pass that is busy
    with slow work (a save, a solver step) is never lost."""

    def __init__(self, machine, pins):
        Pin = machine.Pin
        self.pins = [Pin(pins[name], Pin.IN, Pin.PULL_UP) for name in NAMES]
        self.caught = 0
        falling = getattr(Pin, "IRQ_FALLING", None)
        if falling is not None:
            bit = 1
            for pin in self.pins:
                pin.irq(self._catcher(bit), falling)
                bit <<= 1

    def _catcher(self, bit):
        """The interrupt handler of one button (made once; allocates nothing)."""

        def caught(pin):
            self.caught |= bit

        return caught

    def read(self):
        """The bits of the buttons held now, and those pressed since the
        last read (raw; the app debounces)."""
        bits = 0
        bit = 1
        for pin in self.pins:
            if not pin.value():
                bits |= bit
            bit <<= 1
        caught = self.caught
        if caught:
            self.caught ^= caught  # (a press caught meanwhile stays for the next read)
            bits |= caught
        return bits


def show_message(display, lines):
    """Clear the screen and draw `lines` in the built-in 8x8 font."""
    display.fill(0)
    y = 0
    for line in lines:
        display.text(line, 0, y, 1)
        y += 8
    display.show()


def entropy_ok(read):
    """The start-up self-test: False when `read(64)` looks stuck (all bytes
    equal, or only two values) or returns too few bytes."""
    from engine.dice import source_looks_stuck

    sample = read(ENTROPY_SAMPLE)
    return len(sample) >= ENTROPY_SAMPLE and not source_looks_stuck(sample)


def bench_options(path=BENCH_FILE):
    """The benchmark switches of `path` (written only by tools/chipbench
    into a staged tree), a dict, or None when the file is absent or bad:
    "seed" (int: seeded dice, so a run can be replayed in the simulator),
    "profile" (print an `@prof` line per frame) and "heap" (collect and
    print an `@heap` line per frame)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return None
    import json

    try:
        options = json.loads(text)
    except ValueError:
        return None
    return options if type(options) is dict else None


def make_store(root=DATA_DIR):
    """The app's Store on folder `root` of the mounted filesystem; the
    folder is made when missing (the filesystem is never formatted)."""
    from firmware.store import DirFS, Store

    try:
        os.stat(root)
    except OSError:
        os.mkdir(root)
    return Store(DirFS(root))


# ------------------------------------------------------------ the loop


def _nothing():
    """The feed of no watchdog."""


class Device(Supervisor):
    """The running handheld: steps the app, pushes frames, dims and sleeps;
    a failure of the app goes firmware.supervisor's way.

    `dim_after` and `sleep_after` (ms, sleep None for never) start as
    DIM_MS and SLEEP_MS;
    `apply_settings` sets them, the contrast and the sound from the app's
    settings ("contrast", "sleep" in seconds with 0 for never, "sound"),
    at the start and whenever the app bumps `app.settings_version` (the settings
    screen does). Counters: `steps`, `shows`, `wakes`. `make_app(now)`
    makes a fresh App for a restart after a failure; `buzzer` is the
    board's firmware.sound.Buzzer or None; `fs` the store's files (the
    failure log goes there).
    """

    def __init__(self, app, display, keys, clock, machine, make_app=None, buzzer=None, fs=None):
        Supervisor.__init__(self, app, display, getattr(app, "width", 128), make_app, fs)
        self.keys = keys
        self.clock = clock
        self.machine = machine
        self.dim_after = DIM_MS
        self.sleep_after = SLEEP_MS
        self.contrast = CONTRAST
        self.buzzer = buzzer
        self.bits = 0  # the raw bits of the last read (`swallow`: also a waking press)
        self.active_at = clock.ticks_ms()
        self.dimmed = False
        self.asleep = False
        self.steps = self.shows = self.wakes = 0
        self.splash = None  # the file keeping the first frame for the next boot
        self.booting = True  # until the first frame is on the panel
        self.profile = False  # print an @prof line per frame (bench.json)
        self.heap = False  # collect and print an @heap line per frame (bench.json)
        self.settings_version = getattr(app, "settings_version", 0)  # the app's, applied
        self.watchdog = None  # firmware.watchdog.Watchdog once started (`watch`)
        self.feed = _nothing  # its feed: every pass, every frame sent mid-step
        app.show_now = self.show_now  # feedback frames in the middle of a step

    def apply_settings(self):
        """Contrast, sleep and dim times and sound from the app's settings."""
        app = self.app
        if app is None:  # failed: the supervisor's message is on the screen
            return
        self.settings_version = app.settings_version
        settings = app.session.settings  # (valid values: firmware.session)
        contrast = settings["contrast"]
        if contrast != self.contrast:
            self.contrast = contrast
            if not self.dimmed and not self.asleep:
                self.display.contrast(contrast)
        sleep = settings["sleep"]
        self.sleep_after = sleep * 1000 if sleep else None  # None: never
        self.dim_after = min(DIM_MS, sleep * 500) if sleep else DIM_MS
        if self.buzzer is not None:
            self.buzzer.on = settings["sound"]

    def watch(self, watchdog):
        """Feed `watchdog` (firmware.watchdog.Watchdog, or None) from now on."""
        self.watchdog = watchdog
        self.feed = _nothing if watchdog is None else watchdog.feed

    def step(self):
        """One loop pass while awake, one light-sleep slice while asleep
        (each feeds the watchdog)."""
        self.steps += 1
        self.feed()
        if self.fault is not None or self.app is None:
            self.wait_after_fault()
            return
        if self.profile or self.heap:
            from firmware.profiling import profiled_step

            profiled_step(self)
            return
        if self.asleep:
            self.doze()
            return
        now = self.clock.ticks_ms()
        if self.app.step(now, self.read(now)):
            self.push()
        self.settle(now)

    def push(self):
        """Send the app's new frame to the panel. After the first one (the
        title) the boot finishes: the frame is kept for the next boot's
        splash, and the app warms up (App.warm_up)."""
        self.display.show()
        self.shows += 1
        if self.booting:
            self.booting = False
            if self.splash is not None:
                from firmware.splash import remember

                remember(self.display, self.splash)
                self.splash = None
            if self.app is not None:
                self.app.warm_up()

    def show_now(self):
        """Send the canvas to the panel at once (App.flush and App.busy:
        long work shows it is alive, so the watchdog is fed too)."""
        self.feed()
        self.display.show()
        self.shows += 1

    def read(self, now):
        """The button bits for the app at `now` (a change counts as activity,
        brightens a dimmed screen; a waking press is swallowed)."""
        bits = self.keys.read()
        if bits != self.bits:
            self.bits = bits
            self.active_at = now
            if self.dimmed:
                self.brighten()
        self.swallow &= bits
        return bits & ~self.swallow

    def settle(self, now):
        """After the app's step at `now`: sound, settings, dimming and sleep,
        then wait for the next poll."""
        app = self.app
        if app is None:  # failed: the supervisor's message is on the screen
            return
        buzzer = self.buzzer
        if buzzer is not None:
            cue = app.cue
            if cue is not None:
                self.play(cue, now)
            buzzer.tick(now)
        if app.settings_version != self.settings_version:
            self.apply_settings()
        idle = ticks_diff(now, self.active_at)
        if self.recrash.reached(now):  # cleared once passed (see firmware.clock.Due)
            self.recrash.clear()
        if self.sleep_after is not None and idle >= self.sleep_after:
            self.sleep()
        elif idle >= self.dim_after and not self.dimmed:
            self.dimmed = True
            self.display.contrast(DIM_CONTRAST)
        if app.warming is not None and not self.keys.caught:
            app.warm_step()  # (about 27 ms on the chip: a press waits at most that)
        # Wait for the next poll in 1 ms slices, and not at all once a press
        # was caught (the pin interrupt sets keys.caught): the press then
        # reaches the app within a millisecond instead of 2.5 on average.
        clock = self.clock
        keys = self.keys
        left = POLL_MS - ticks_diff(clock.ticks_ms(), now)
        while left > 0 and not keys.caught:
            clock.sleep_ms(1)
            left -= 1

    def adopt(self, app):
        """A restarted app gets the device's feedback frames (App.flush)."""
        app.show_now = self.show_now

    def read_held(self):
        """The buttons held now (firmware.supervisor, after a failure)."""
        return self.keys.read()

    def wait_after_fault(self):
        """One pass while a failure message shows: a new press restarts the
        app (firmware.supervisor), unless the failure came back at once."""
        bits = self.keys.read()
        if self.after_fault(self.clock.ticks_ms(), bits):
            self.bits = bits
            return
        self.clock.sleep_ms(POLL_MS)

    def doze(self):
        """One light-sleep slice; a new press wakes the device."""
        self.machine.lightsleep(SLICE_MS)
        bits = self.keys.read()
        if bits & ~self.bits:
            self.wake(bits)
        self.bits = bits

    def play(self, cue, now=None):
        """The sound of a cue: a click on a roll, a falling phrase on a
        farkle, a rising one on a win (silent when sound is off). It plays
        on while the loop goes on (firmware.sound)."""
        from firmware.sound import FARKLE_NOTES, WIN_NOTES

        buzzer = self.buzzer
        if buzzer is None:
            return
        if now is None:
            now = self.clock.ticks_ms()
        if cue == "roll":
            buzzer.click(now)
        else:
            buzzer.play(FARKLE_NOTES if cue == "farkle" else WIN_NOTES, now)

    def brighten(self):
        """Back to full contrast."""
        self.dimmed = False
        self.display.contrast(self.contrast)

    def sleep(self):
        """Display off; the next steps are light-sleep slices. A failure
        after a sleep is no crash loop: the re-crash time ends here, as
        no pass clears it while asleep (firmware.clock.Due)."""
        self.display.poweroff()
        self.asleep = True
        self.recrash.clear()

    def wake(self, bits):
        """Display on at full contrast, the frame sent again; the held
        `bits` are kept from the app until they are released."""
        display = self.display
        display.poweron()
        self.brighten()
        display.refresh()
        display.show()
        self.asleep = False
        self.swallow = bits
        self.active_at = self.clock.ticks_ms()
        self.wakes += 1

    def last_resort(self, error):
        """Handling a failure failed too (`error`): let go of everything,
        log what the heap allows (firmware.recovery.log_reset: a "reset"
        entry, so it is counted, never silent) and reset the chip. The
        next boot resumes the saved game as after a power cut (every
        decision is saved). Never the REPL: a player cannot reach it."""
        self.app = None
        self.spare = None
        gc.collect()
        if self.fs is not None:
            try:
                recovery.log_reset(self.fs, error, self.clock.ticks_ms())
            except Exception:  # a broken flash: reset all the same
                pass
        self.machine.reset()

    def loop(self, max_steps=None, hook=None, guard=False):
        """Step until `max_steps` steps (None: for ever) or until `hook(self)`,
        called before each step, returns True; returns the steps taken.
        With `guard` an error out of a step goes to firmware.supervisor (an
        error of the hook still ends the loop), and an error while that
        handles it to `last_resort`. A KeyboardInterrupt (Ctrl-C) stops the
        watchdog and ends the loop (firmware.watchdog)."""
        n = 0
        try:
            while max_steps is None or n < max_steps:
                if hook is not None and hook(self):
                    break
                if guard:
                    try:
                        self.step()
                    except Exception as e:  # (KeyboardInterrupt is no Exception: Ctrl-C stops)
                        try:
                            self.failed(e, self.clock.ticks_ms())
                        except Exception as again:
                            self.last_resort(again)
                            break  # (the chip restarts; a fake machine returns)
                else:
                    self.step()
                n += 1
        except KeyboardInterrupt:  # Ctrl-C (mpremote, make repl): the REPL must stay up
            if self.watchdog is not None:
                self.watchdog.stop()
            raise
        return n


def start(board, machine=None, clock=None, entropy=None, dice=None, store=None, tables=None,
          display=None, splash=None, watchdog=True, keys=None):
    """Set the device up (see the module docstring); returns the Device, or
    None when the entropy self-test failed (the message is on the screen).

    Tests pass the fake `machine`, a virtual `clock`, an `entropy` source
    (`read(n) -> bytes`, default os.urandom), `dice` (a callable n -> faces,
    default ByteDice(entropy)), a `store` and `tables`. `splash` is the
    file that keeps the title's picture for the next boot (firmware.splash;
    None: not kept). `watchdog`: start the hardware watchdog
    (firmware.watchdog; a port without machine.WDT has none). `keys`
    (default `Keys` on the board's pins) is any object with `read()` and
    `caught` (circuitpy.keys on CircuitPython).
    """
    if machine is None:
        import machine
    if clock is None:
        import time as clock
    if display is None:
        from firmware.board import make_display

        display = make_display(board, machine)  # first: one contiguous block
    if keys is None:
        keys = Keys(machine, board.BUTTONS)
    if entropy is None:
        entropy = os.urandom
    if not entropy_ok(entropy):
        show_message(display, STUCK_LINES)
        return None
    bench = bench_options()
    if dice is None:
        if bench and "seed" in bench:
            from engine.dice import SeededDice

            dice = SeededDice(bench["seed"])
        else:
            from engine.dice import ByteDice

            dice = ByteDice(entropy)
    if store is None:
        store = make_store()
    if tables is None:
        from firmware.store import DirFS

        tables = DirFS(TABLES_DIR)
    from firmware.app import make_app as new_app

    def make_app(now):
        return new_app(board, display, store, dice, tables, now)

    # A tick is an int on MicroPython; the stubs' opaque _TicksMs is not:
    app = make_app(clock.ticks_ms())  # pyright: ignore[reportArgumentType]
    buzzer = None
    if app.has_sound:
        from firmware.sound import Buzzer

        buzzer = Buzzer(machine, board.BUZZER, app.session.settings["sound"])
    dev = Device(app, display, keys, clock, machine, make_app, buzzer, store.fs)
    dev.splash = splash
    dev.apply_settings()
    if watchdog:
        from firmware import watchdog as wd

        dev.watch(wd.start(machine, store.fs))
    if bench:
        dev.profile = bool(bench.get("profile"))
        dev.heap = bool(bench.get("heap"))
        if dev.profile:
            app.profile = clock.ticks_us
    return dev


def run(board, machine=None, clock=None, max_steps=None, hook=None, **options):
    """`start` the device and `loop` it; returns the Device (None when the
    entropy self-test failed). An error in the app does not end the loop:
    firmware.supervisor has it logged, says so on the screen and starts
    the app again on a press."""
    dev = start(board, machine, clock, **options)
    if dev is None:
        return None
    dev.loop(max_steps, hook, guard=True)
    return dev
