"""The browser host: the app on the MicroPython WebAssembly port.

web/host.js loads MicroPython, writes the game's files into its memory file
system and calls `start(...)` here; from then on it calls `Host.step(now,
held)` on every animation frame and key change, exactly as the device loop
and simulator/host.py call `App.step`, and copies the frame buffer at
`Host.address()` into a canvas when a step returns True.

Saves go through firmware.store.Store onto `KeyFS`, a file adapter over the
browser's localStorage (the wasm port's own file system lives in memory
and forgets everything on reload). Each file is one localStorage item, and
setting an item replaces it whole, so every adapter operation is as atomic
as a littlefs write or rename and the store's write, read back, rename
sequence keeps its promise across a reload at any moment.

Dice: `ByteDice` over `crypto.getRandomValues` (the JS side hands in
`random(n) -> bytes`), or `SeededDice(seed)` when the page was opened
with `?seed=N` (the browser tests compare it with the simulator).

Online: when the page is served by the room server (host.js reads
online.json, which the room server answers with true), `online=True`
gives the app a `Link` (web/online.py), and the title offers "Online";
web/online.js carries messages both ways through `online_take` and
`online_event`.
"""

import binascii
import sys

import framebuf

from engine.dice import ByteDice, SeededDice
from firmware import font
from firmware.app import make_app as new_app
from firmware.canvas import Canvas, Hosted
from firmware.store import ENOENT, ENOSPC, DirFS, Store

PREFIX = "zt/"  # localStorage keys of the game's files: "zt/game", "zt/game.bak", ...
TABLES_DIR = "/tables"  # where host.js puts the shipped tables (memory file system)
LAYOUTS = {"pico_ssd1306_i2c": "128x64", "thumby": "72x40"}  # the boards the page offers


class KeyFS:
    """The Store's file adapter on a key-value storage with `getItem`,
    `setItem`, `removeItem`, `key(i)` and `length` (the browser's
    localStorage, or a stand-in in tests). A file is one item under
    `prefix + name`, its bytes in hex (the port's binascii does hex
    natively, base64 in slow Python: 2 s for a 10 KB plan)."""

    def __init__(self, storage, prefix=PREFIX):
        self.storage = storage
        self.prefix = prefix

    def _get(self, name):
        text = self.storage.getItem(self.prefix + name)
        if text is None:
            raise OSError(ENOENT, "no file " + name)
        return text

    def _set(self, name, text):
        # host.js's storage (web/storage.js) answers a failed write with an
        # errno (a JavaScript exception must not cross into the port); a
        # stand-in may raise instead.
        try:
            failed = self.storage.setItem(self.prefix + name, text)
        except Exception:  # QuotaExceededError from the browser: nothing was stored
            failed = ENOSPC
        if failed == ENOSPC:
            raise OSError(ENOSPC, "browser storage full")
        if failed:
            raise OSError(failed, "this tab may not write (the game is open in another tab)")

    def read(self, name):
        """The bytes of file `name`; OSError(ENOENT) when it does not exist."""
        return binascii.unhexlify(self._get(name))

    def write(self, name, data):
        """Store `data` as file `name`, replacing it whole."""
        self._set(name, binascii.hexlify(data).decode())

    def rename(self, old, new):
        """Move file `old` to `new`, replacing `new`. The copy lands before the
        old name goes, so no moment lacks the data."""
        self._set(new, self._get(old))
        self.storage.removeItem(self.prefix + old)

    def remove(self, name):
        """Delete file `name`; OSError(ENOENT) when it does not exist."""
        self._get(name)
        self.storage.removeItem(self.prefix + name)

    def exists(self, name):
        """True when file `name` exists."""
        return self.storage.getItem(self.prefix + name) is not None

    def append(self, name, data):
        """Add `data` at the end of file `name` (made when missing); returns
        its new size (firmware.recovery writes its log with it)."""
        try:
            old = self.read(name)
        except OSError:
            old = b""
        self.write(name, old + data)
        return len(old) + len(data)

    def names(self):
        """The names of the stored files."""
        out = []
        storage = self.storage
        n = len(self.prefix)
        for i in range(storage.length):
            key = storage.key(i)
            if key is not None and key.startswith(self.prefix):
                out.append(key[n:])
        return out


class TextCanvas(Canvas):
    """The page's frame buffer: a `firmware.canvas.Canvas` whose blanking
    also starts a new frame of the text layer (every screen's draw, and the
    failure message, begins with a fill)."""

    def fill(self, c):
        """The whole frame in one colour; the text layer starts afresh."""
        rec = font.recorder
        if rec is not None:
            rec.clear()
        super().fill(c)


class Host(Hosted):
    """One handheld in the page: the app, its canvas and its failure path
    (firmware.supervisor, as on the device).

    `board` is a key of LAYOUTS, `storage` the localStorage, `random` a
    callable n -> bytes, `seed` None or an int for seeded dice."""

    def __init__(self, board, storage, random, seed=None, now=0, online=False):
        if board not in LAYOUTS:
            raise ValueError("unknown board %r" % board)
        __import__("boards." + board)
        profile = sys.modules["boards." + board]
        self.board = board
        self.height = profile.HEIGHT
        self.buf = bytearray(profile.WIDTH * profile.HEIGHT // 8)
        canvas = TextCanvas(self.buf, profile.WIDTH, profile.HEIGHT, framebuf.MONO_VLSB)
        self.canvas = canvas
        fs = self.fs = KeyFS(storage)
        dice = SeededDice(seed) if seed is not None else ByteDice(random)
        tables = DirFS(TABLES_DIR)
        self.link = None
        if online:  # served by the room server: the title offers online play
            from online import Link

            self.link = Link()
        link = self.link

        def make_app(now):  # the page has no buzzer (yet), nor a panel: no contrast, no sleep
            app = new_app(profile, canvas, Store(fs), dice, tables, now, sound=False)
            app.has_panel = False
            app.online = link
            return app

        Hosted.__init__(self, make_app(now), canvas, profile.WIDTH, make_app, fs)

    def address(self):
        """Where the frame buffer lives in the wasm memory (host.js reads it
        from there: no copy through a proxy)."""
        import uctypes

        return uctypes.addressof(self.buf)

    def step(self, now, held):
        """One app step; True when the frame changed. A failure is handled
        as on the device (firmware.supervisor): logged to error.log, a
        message in the player's language, and the next press plays on from
        the last save."""
        return self.guarded_step(now, held)

    def online_take(self):
        """What the online screens ask of web/online.js (web/online.py
        Link.take); "" when nothing, or when the page is not online."""
        return "" if self.link is None else self.link.take(self.app)

    def online_event(self, text):
        """A message for the online screens from web/online.js (a server
        event, the connection's state, this browser's rooms)."""
        if self.link is not None and self.app is not None:
            self.link.receive(self.app, text)

    def report(self, error, recovery):
        """The traceback to the browser's console (host.js: console.error)."""
        sys.stderr.write(recovery.traceback_text(error))

    text_lang = "de"  # the language of the text layer (text_json)

    def text_json(self):
        """The text layer of the frame on the canvas as JSON (web/textlayer.py;
        host.js makes the page's readable copy of the screen from it). The
        first call starts recording and draws the frame again to hear it."""
        import json

        import textlayer

        rec = font.recorder
        if rec is None:
            rec = textlayer.install(self.width >= 128)
            if self.app is not None:
                self.app.redraw()
                self.app.step(self.app.now, 0)
        if self.app is not None:  # (after a failure: the language of the message)
            self.text_lang = self.app.lang
        top = None if self.app is None else self.app.top()  # (its dice tumbling: the table's)
        return json.dumps(rec.snapshot(self.text_lang, top))

    def set_lang(self, lang):
        """The game's language from the page (its switch, or the browser's
        language on a first visit), changed and saved as the settings
        screen does; True when it changed."""
        app = self.app
        if app is None or lang not in ("de", "en") or app.lang == lang:
            return False
        app.lang = lang
        app.settings_changed()  # (every kept text is stale)
        app.session.save_settings()
        app.redraw()
        return True

    def turn_json(self):
        """The local play screen's picks as JSON ("" when no local game is
        on screen): host.js keeps it in sessionStorage as the page goes."""
        import json

        app = self.app
        play = None if app is None else app.find("play")
        if (play is None or getattr(play, "link", None) is not None  # (a room's: the server's)
                or play.game.phase not in ("keep", "decide") or not play.person_to_move()):
            return ""  # no person's dice on the table: a reload shows the title, as the device
        return json.dumps({"roll": list(play.game.roll), "sel": [bool(s) for s in play.sel],
                           "cursor": play.cursor, "asking": play.asking and list(play.asking),
                           "asked": play.asked_total})

    def resume_turn(self, text):
        """After a reload: the saved game again (as the title's Continue),
        with the picks of `text` (turn_json) when its dice are the ones on
        the table."""
        import json

        app = self.app
        if app is None or not app.session.has_game():
            return
        try:
            turn = json.loads(text)
        except ValueError:
            return
        app.flow.resume_game(app)
        play = app.find("play")
        if play is None or list(play.game.roll) != turn.get("roll"):
            return
        sel = turn.get("sel") or []
        if len(sel) == len(play.sel):
            play.sel = [bool(s) for s in sel]
        cursor = turn.get("cursor")
        if type(cursor) is int and 0 <= cursor < len(play.sel):
            play.cursor = cursor
        asking = turn.get("asking")
        if asking in (["roll"], ["bank"]):  # the question on screen ("Weiter mit 150?")
            play.asking = tuple(asking)
            play.asked_total = int(turn.get("asked") or 0)
        app.redraw()

    def state_json(self):
        """The app's state (screen name, engine state) as JSON, for tests."""
        import json

        if self.app is None:
            return json.dumps({"screen": "failed", "board": self.board})
        out = self.app.state()
        out["board"] = self.board  # as simulator.host.Sim.state
        return json.dumps(out)


def start(board, storage, random_hex, seed=None, now=0, online=False, turn=None):
    """Make the page's Host and run its first step (the title).
    `random_hex(n)` gives n random bytes as hex (crypto.getRandomValues in
    host.js; a string crosses from JavaScript without a proxy). `turn`:
    what `Host.turn_json` said as the page went (a reload): the saved game
    is shown again with the same dice picked, not the title."""

    def read(n):
        return binascii.unhexlify(random_hex(n))

    host = Host(board, storage, read, seed, now, online)
    host.step(now, 0)
    if turn:
        host.resume_turn(turn)
        host.step(now, 0)  # (the first frame host.js copies is the turn's)
    return host
