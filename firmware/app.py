"""The app: one `step(now_ms, held_bits)` for every host.

A host (the device loop, the simulator, a test) creates
`App(canvas, width, height, store, dice, tables)` and calls `step` with the
time and the raw held-button bits (firmware.buttons bit values) as often as
it likes; `step` returns True when the canvas changed, and the host then
pushes it to the screen.

- `canvas`: a framebuf.FrameBuffer-compatible object of width x height.
- `store`: a firmware.store.Store for games, names and settings.
- `dice`: a callable n -> list of faces (engine.dice.ByteDice over the
  hardware source, or a seeded source in tests).
- `tables`: an object with `read(name) -> bytes` for the shipped strategy
  tables (OSError when missing), or None.

Screens are small objects on a stack (`push`, `pop`, `replace`); the top
screen gets the button events and draws. Navigation is uniform: A
confirms, B goes back, UP/DOWN move in lists. Idle steps (no button change,
no timer due) draw nothing and allocate nothing.
"""

import sys

from firmware import buttons, strings
from firmware.clock import ticks_diff
from firmware.session import Session

# On MicroPython every imported module's code lives on the heap: going home
# forgets the screen modules (and the score pad's engine) that no screen
# on the stack needs; they load again when next used. CPython keeps them.
# CircuitPython is MicroPython's VM under another name: its heap holds the
# bytecode too.
RELEASE = sys.implementation.name in ("micropython", "circuitpython")
# The Screen and Menu bases live in firmware.screen, outside this prefix:
# every screen needs them, so they stay loaded and never load again. The
# game's lifecycle (firmware.flow) is needed only for a step between screens,
# the first names (firmware.first_names) only by the letter grid.
RELEASED = ("firmware.screens.", "engine.scorepad", "firmware.flow", "firmware.first_names")
# Warmed up one a step after boot (App.warm_up): the names of these modules,
# and of the engine and firmware modules they import, are interned while
# the heap is still in one piece (firmware.qstr_warmup says why). They take
# MicroPython's qstr table past 1270 names on the chip (to about 1300: a
# module added to the game may need its name here, and
# tests/cpython/test_warm_up.py checks that every import is listed).
WARM = ("engine.scoring", "engine.game", "engine.levels", "engine.rules", "firmware.players",
        "firmware.screens.names", "firmware.screens.setup", "firmware.flow",
        "firmware.tips_store", "firmware.tips", "firmware.screens.play",
        "firmware.screens.lines", "firmware.screens.turns", "firmware.screens.standings",
        "firmware.stats", "firmware.screens.pager", "firmware.screens.wrap",
        "firmware.screens.help", "engine.odds",
        "engine.turnplan", "engine.plan_solver", "engine.bots", "engine.master", "engine.view",
        "engine.coach", "firmware.tip_words", "firmware.coach_view", "firmware.screens.rules_edit")
# The room the warm-up keeps from its start for the qstr pool its names ask
# for (1280 entries, about 9 KB on the chip: firmware.qstr_warmup). Taken
# in one block while the heap is still whole, it is let go of only when a
# warm step finds no longer run (the first presses have cut the heap up
# meanwhile), so that step's retry gets it: the warm-up's allocations do
# not depend on what the presses did. Released when the warm-up ends.
POOL_ROOM = 10240
# With the game frozen into the firmware, or imported from a ROMFS
# partition (tools/romfs.py: `make uf2`), a module's bytecode stays in
# flash: forgetting it frees only its globals (and, from ROMFS, its
# constants) while loading it again takes milliseconds on the chip (1 to 9
# frozen in, more from ROMFS, which builds its constants again). Such a
# firmware keeps every module it loaded, and its warm-up loads these (the
# WARM modules and the rest of what the title's entries open: about 37 KB
# of heap in all when frozen in) instead of interning names, so that a
# screen change finds its code loaded: first what the title's entries
# open, then the rest of WARM.
_TITLE_OPENS = ("engine.rules", "engine.game", "firmware.screens.setup",
                "firmware.screens.help", "firmware.screens.settings",
                "firmware.screens.stats_menu", "firmware.screens.pad", "engine.scorepad")


def preload():
    """The modules a firmware with the game frozen in loads after boot and
    keeps (see above). Made when asked: stock firmware never needs the list."""
    return list(_TITLE_OPENS) + [name for name in WARM if name not in _TITLE_OPENS]


MEMO = 32  # texts `App.t` keeps for the current screens


class App:
    """The handheld game; see the module docstring."""

    def __init__(self, canvas, width, height, store, dice, tables=None, now_ms=0, profile=None):
        self.canvas = canvas
        self.width = width
        self.height = height
        self.big = width >= 128
        self.dice = dice
        self.tables = tables
        self.buttons = buttons.Buttons()
        self.session = Session(store)
        self.settings_version = 0  # bumped when the settings change: the device loop applies them
        self.has_sound = False  # the host has a buzzer (set by make_app; the settings offer sound)
        self.has_panel = True  # the host drives a panel: contrast and sleep mean something
        self.online = None  # a host with a network: callable(app), the title's "Online"
        self.cue = None  # a sound this step asks for: "roll", "farkle" or "win"
        self.now = now_ms
        self.show_now = None  # the host's "send the canvas to the panel now" (see flush)
        self.profile = profile  # a microsecond clock: time each draw into draw_us (benchmarks)
        self.draw_us = 0
        self.stack = []
        # Bumped by every change of the screen stack and of the settings:
        # whatever a screen keeps of its texts is stale when it moved on
        # (firmware.screen.Kept; `t` keeps its texts by the same rule).
        self.version = 0
        # Draws of the canvas so far (a screen's draw, `busy`): a menu that
        # drew the last one may draw only what a cursor move changed (Menu.draw).
        self.draws = 0
        self._memo = {}  # key: text, for the screens on the stack now (see `t`)
        self._memo_at = -1  # `version` when the memo was started
        self.warming = None  # the WARM modules still to warm up (warm_step)
        # The code in flash (frozen in or in ROMFS): keeps its modules (preload())
        self.in_flash = RELEASE and (frozen() or in_rom())
        self.pool_room = None  # the block kept for the warm-up's qstr pool (POOL_ROOM)
        self.dirty = True
        from firmware.ui import Ui

        self.ui = Ui(self)
        from firmware.screens.title import Title

        self.push(Title())

    # ------------------------------------------------------------ strings

    @property
    def lang(self):
        """The language ("de" or "en"): the "lang" setting, held only there."""
        return self.session.settings["lang"]

    @lang.setter
    def lang(self, lang):
        self.session.settings["lang"] = lang
        self.settings_changed()

    def settings_changed(self, texts=True):
        """Say that the settings changed (the settings screen does): the
        device loop applies them, and every kept text is stale (`version`).
        `texts` False: a setting no text depends on (contrast, sleep, dice,
        ...), so the kept texts stay: looking them all up again made a
        contrast change miss the frame on the chip."""
        self.settings_version += 1
        if texts:
            self.version += 1
        self.dirty = True

    def t(self, key):
        """The text of `key` in the app's language. The texts asked for
        are kept (at most MEMO of them) until `version` moves on (the
        screen stack or the settings change): on the chip a lookup takes
        about 0.3 ms and makes a new str, and a screen asks for the same
        dozen at every redraw."""
        memo = self._memo
        if self._memo_at != self.version:
            memo.clear()  # (frees the table: a new screen starts small)
            self._memo_at = self.version
        text = memo.get(key)
        if text is None:
            text = strings.text(self.session.settings["lang"], key)
            if len(memo) < MEMO:
                memo[key] = text
        return text

    def tf(self, key, values=()):
        """The text of `key` filled with as many of `values` as it has
        placeholders: an engine refusal (a reason key and its values,
        e.g. "why_" + IllegalAction.key) in the player's language. A
        language may leave out trailing values it does not say."""
        text = self.t(key)
        n = text.count("%")
        return text % tuple(values[:n]) if n else text

    # ------------------------------------------------------------ screens

    def top(self):
        """The screen on top of the stack."""
        return self.stack[-1]

    def find(self, name):
        """The screen called `name` nearest the top of the stack (the play
        screen below its standings), or None."""
        for screen in reversed(self.stack):
            if screen.name == name:
                return screen
        return None

    @property
    def flow(self):
        """The game's lifecycle (firmware.flow: start, resume, rematch, the
        pad's resume and new evening), loaded on first use. Screens reach it
        here, not by an import: the play screen's own screens (the winner,
        the solving screen) start and resume games, and an import of the
        module that makes play screens would close a circle."""
        from firmware import flow

        return flow

    def push(self, screen):
        """Show `screen` above the current one."""
        self.stack.append(screen)
        self.version += 1
        self.dirty = True

    def pop(self):
        """Close the top screen (the title screen is never closed)."""
        if len(self.stack) > 1:
            self.stack.pop()
        self.version += 1
        self.dirty = True

    def replace(self, screen):
        """Swap the top screen for `screen`."""
        if self.stack:
            self.stack.pop()
        self.push(screen)

    def discard(self, name):
        """Take the screens called `name` off the stack wherever they are
        (a screen below the top that no longer fits the game)."""
        self.stack[1:] = [s for s in self.stack[1:] if s.name != name]
        self.version += 1
        self.dirty = True

    def home(self, screen=None):
        """Back to the title screen, then push `screen` if given (on
        MicroPython the screen modules nobody needs now are released)."""
        del self.stack[1:]
        self.version += 1
        self.dirty = True
        if screen is not None:
            self.push(screen)
        self.trim()

    def trim(self):
        """On MicroPython, what going home does to the heap without going
        home: forget the modules of RELEASED that no screen on the stack
        needs (`release_modules`; CPython keeps its modules)."""
        if RELEASE and not self.in_flash:
            self.release_modules()

    def warm_up(self):
        """Start the warm-up (MicroPython only; see WARM): from now on
        `warm_step` takes one module a call. A firmware with the game
        frozen in has its names in flash: its warm-up loads the preload()
        modules instead."""
        if not RELEASE:
            return
        if self.in_flash:
            self.warming = preload()
            return
        import gc

        gc.collect()  # the first frame's garbage goes before a qstr pool is asked for
        self.warming = list(WARM)
        try:
            self.pool_room = bytearray(POOL_ROOM)  # (see POOL_ROOM)
        except MemoryError:
            self.pool_room = None

    def warm_step(self):
        """Warm up the next WARM module (`warm_module`). When it finds no
        run long enough for a new qstr pool, the room kept for that since
        `warm_up` is let go of and the module goes again (a name already
        in costs a lookup): a MemoryError of the retry is a real failure.
        The device calls this between polls while no press waits, until
        `warming` is None. With the game frozen in: load the next preload()
        module and keep it."""
        warming = self.warming
        if warming is None:
            return
        name = warming.pop(0)
        if self.in_flash:  # loaded to stay; a module that does not fit waits for its screen
            try:
                __import__(name)
            except MemoryError:
                warming.clear()
            if not warming:
                self.warming = None
            return
        try:
            warm_module(name)
        except MemoryError:
            if self.pool_room is None:
                raise
            self.pool_room = None
            import gc

            gc.collect()
            warm_module(name)
        if not warming:
            self.warming = None
            self.pool_room = None
            if "firmware.qstr_warmup" in sys.modules:
                _forget("firmware.qstr_warmup")

    def release_modules(self):
        """Forget the modules of RELEASED that no screen on the stack comes
        from, so their code leaves the heap (see RELEASE), and the texts'
        help book (firmware.strings: the screens that show it are gone or
        load it again)."""
        strings.release()
        keep = [type(s).__module__ for s in self.stack]
        for name in [k for k in sys.modules]:
            if name in keep:
                continue
            for prefix in RELEASED:
                if name.startswith(prefix):
                    break
            else:
                continue
            _forget(name)

    def forget(self, names):
        """Forget the modules `names` that are loaded (MicroPython only),
        so that their code leaves the heap at the next collection; they
        load again when next imported; a firmware with the game frozen in
        keeps them (see preload())."""
        if RELEASE and not self.in_flash:
            for name in names:
                if name in sys.modules:
                    _forget(name)

    def redraw(self):
        """Ask for a redraw at the end of this step."""
        self.dirty = True

    def flush(self):
        """Draw the top screen and put it on the panel now, in the middle of
        a step, before slow work (a save, an import, a solve) that follows:
        the press is answered at once. The step still ends with its own
        redraw. Does nothing on a host without `show_now`."""
        if self.show_now is not None:
            self.draws += 1
            self.top().draw(self, self.canvas)
            self.show_now()
            self.dirty = True

    def busy(self):
        """Put a "working" mark (an hourglass) in the bottom right corner
        of the screen as it is and show it now, before slow work that will
        change the screen; see `flush`. The corner is the key hint's line,
        which says nothing while the press is being worked on; the top
        right holds the play screen's turn points (issue 34)."""
        if self.show_now is None:
            return
        self.draws += 1  # drawn over: the next draw is a whole one
        c = self.canvas
        s = self.ui.font.height + 1  # the hint line and the row above it: 9 px, 7 on 72x40
        x = self.width - s
        y = self.height - s
        c.fill_rect(x, y, s, s, 0)
        c.rect(x, y, s, s, 1)
        m = s >> 1  # the middle row and column
        for d in range(m - 1):  # the glass narrows to the middle, then widens
            w = s - 4 - 2 * d
            c.hline(x + 2 + d, y + 2 + d, w, 1)
            c.hline(x + 2 + d, y + s - 3 - d, w, 1)
        c.pixel(x + m, y + m, 1)
        self.show_now()
        self.dirty = True

    # ------------------------------------------------------------ stepping

    def step(self, now_ms, held_bits):
        """Advance the app to `now_ms` with these buttons held; True when the
        canvas changed."""
        self.now = now_ms
        self.cue = None
        b = self.buttons
        b.update(now_ms, held_bits)
        events = b.events
        if events or b.long:
            bit = 1
            while bit <= buttons.B:
                if b.long & bit:
                    self.top().on_key(self, bit, "long")
                elif events & bit:
                    kind = "press" if b.pressed & bit else "repeat"
                    self.top().on_key(self, bit, kind)
                bit <<= 1
        if self.top().tick(self, now_ms):
            self.dirty = True
        if not self.dirty:
            return False
        self.dirty = False
        self.draws += 1
        if self.profile:  # firmware.profiling reads how long drawing took
            # (the clock comes from the host: an `import time` here would
            # search the flash for a time.py on every frame, 4 ms on the chip)
            t0 = self.profile()
            self.top().draw(self, self.canvas)
            self.draw_us = ticks_diff(self.profile(), t0)
        else:
            self.top().draw(self, self.canvas)
        return True

    def state(self):
        """The current screen's name and facts, for the simulator."""
        screen = self.top()
        out = {"screen": screen.name}
        extra = screen.state()
        for key in extra:
            out[key] = extra[key]
        return out


def make_app(board, canvas, store, dice, tables=None, now=0, sound=True):
    """The App every host runs: on `canvas` of the size of `board` (a
    boards/ module), with sound offered in the settings when the board has
    a buzzer and the host can play it (`sound`: the page cannot)."""
    app = App(canvas, board.WIDTH, board.HEIGHT, store, dice, tables, now)
    app.has_sound = sound and getattr(board, "BUZZER", None) is not None
    return app


def warm_module(name):
    """Intern the names of module `name` from its .mpy file
    (firmware.qstr_warmup), or, where it is a source, import it and forget
    it again with whatever it loaded (its code leaves the heap at the next
    collection)."""
    from firmware.qstr_warmup import intern_module

    if not intern_module(name):
        before = [k for k in sys.modules]
        __import__(name)
        for loaded in [k for k in sys.modules if k not in before]:
            _forget(loaded)


def frozen(path=None):
    """True when this module (or the file `path`) is not on the file system:
    the game is frozen into the firmware (manifest.py), where a frozen
    module's __file__ names no file."""
    import os

    try:
        os.stat(__file__ if path is None else path)
    except OSError:
        return True
    return False


ROM = "/rom/"  # where MicroPython mounts a ROMFS partition


def in_rom(path=None):
    """True when this module (or the file `path`) was imported from a ROMFS
    partition, whose .mpy code runs in place from flash."""
    return (__file__ if path is None else path).startswith(ROM)


def _forget(name):
    """Drop module `name` from sys.modules and from its package."""
    del sys.modules[name]
    dot = name.rfind(".")
    package = sys.modules.get(name[:dot])
    if package is not None and hasattr(package, name[dot + 1:]):
        delattr(package, name[dot + 1:])
