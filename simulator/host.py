"""The PC host: runs the app on a pure-Python canvas with virtual time.

`Sim(board, data_dir, seed)` builds the same `firmware.app.App` the device
runs, with the framebuf stand-in, a folder store and seeded or OS dice.
`press("A")` holds a button for a moment and lets it go, `wait(ms)` lets
time pass (computer turns, animations); `png(path)` writes a screenshot and
`state()` returns the current screen's name and the engine state.
"""

import json
import os
import struct
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

try:  # CPython has no framebuf: the stand-in takes its name for the app
    import framebuf  # noqa: F401
except ImportError:
    from simulator import framebuf as _standin

    sys.modules["framebuf"] = _standin

import framebuf  # noqa: E402

from engine.dice import ByteDice, SeededDice  # noqa: E402
from firmware import buttons  # noqa: E402
from firmware.app import make_app  # noqa: E402
from firmware.board import DEFAULT_BOARD, load_board  # noqa: E402
from firmware.canvas import Canvas, Hosted  # noqa: E402
from firmware.store import DirFS, Store  # noqa: E402
from simulator.boards import board_names  # noqa: E402

HOLD_MS = 60
GAP_MS = 60
FRAME_MS = 20


def unknown_board(name):
    """The message for a board name with no boards/NAME.py, or None when it has one."""
    names = board_names()
    if name in names:
        return None
    return "unknown board %r; the boards (boards/*.py) are: %s" % (name, ", ".join(names))


def board_profile(name):
    """The board module `boards/NAME.py`, loaded and checked as the device
    does (its WIDTH and HEIGHT matter here); SystemExit naming the boards
    when there is no such file."""
    problem = unknown_board(name)
    if problem:
        raise SystemExit(problem)
    return load_board(name)


def default_data_dir():
    """The per-user data folder for saves."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return os.path.join(base, "zehntausend")


class Sim(Hosted):
    """One simulated handheld (see the module docstring). With `guard` a
    failure of the app goes the device's way (firmware.supervisor: the
    message, a press plays on), as in the window; without it (tests,
    scripts) the error is raised."""

    def __init__(self, board=DEFAULT_BOARD, data_dir=None, seed=None, guard=False):
        profile = board_profile(board)
        self.board = board
        self.height = profile.HEIGHT
        self.buf = bytearray(profile.WIDTH * profile.HEIGHT // 8)
        canvas = Canvas(self.buf, profile.WIDTH, profile.HEIGHT, framebuf.MONO_VLSB)
        self.canvas = canvas
        data_dir = data_dir or default_data_dir()
        os.makedirs(data_dir, exist_ok=True)
        self.data_dir = data_dir
        dice = SeededDice(seed) if seed is not None else ByteDice(os.urandom)
        tables = DirFS(str(ROOT / "tables"))
        fs = DirFS(data_dir)
        self.now = 0
        self.held = 0
        self.frames = 0
        self.guard = guard

        def new_app(now):
            return make_app(profile, canvas, Store(fs), dice, tables, now)

        Hosted.__init__(self, new_app(self.now), canvas, profile.WIDTH, new_app, fs)
        self.step()

    def step(self, ms=0):
        """Advance virtual time by `ms` and step the app once."""
        self.now += ms
        if self.step_at(self.now, self.held):
            self.frames += 1
            return True
        return False

    def step_at(self, now, held):
        """One step of the app at `now` with `held` (see `guard`); True when
        the canvas changed."""
        if self.guard:
            return self.guarded_step(now, held)
        return self.app.step(now, held)

    def report(self, error, recovery):
        """The traceback on the console (the window's terminal)."""
        sys.stderr.write(recovery.traceback_text(error))

    def run(self, ms):
        """Let `ms` of virtual time pass in frame-sized steps."""
        end = self.now + ms
        while self.now < end:
            self.step(min(FRAME_MS, end - self.now))

    def press(self, key, hold_ms=HOLD_MS):
        """Press and release one button by name (UP, DOWN, LEFT, RIGHT, A, B)."""
        bit = buttons.BITS[key]
        self.held |= bit
        self.run(hold_ms)
        self.held &= ~bit
        self.run(GAP_MS)

    def keys(self, script):
        """Run a script such as "A,RIGHT,A,WAIT:2000,LONG:B"."""
        for token in script.split(","):
            token = token.strip().upper()
            if not token:
                continue
            if token.startswith("WAIT:"):
                self.run(int(token[5:]))
            elif token.startswith("LONG:"):
                self.press(token[5:], 800)
            else:
                if token not in buttons.BITS:
                    raise ValueError("unknown key %r (keys: UP DOWN LEFT RIGHT A B, WAIT:ms,"
                                     " LONG:key)" % token)
                self.press(token)

    def pixel(self, x, y):
        """The pixel at (x, y): 1 lit, 0 dark."""
        return (self.buf[(y >> 3) * self.width + x] >> (y & 7)) & 1

    def rows(self):
        """The canvas as text rows of '#' and '.' (for tests and debugging)."""
        return ["".join("#" if self.pixel(x, y) else "." for x in range(self.width))
                for y in range(self.height)]

    def state(self):
        """The app's state: screen name, engine state, board."""
        if self.app is None:  # a failure message is on the screen
            return {"screen": "failed", "board": self.board}
        out = self.app.state()
        out["board"] = self.board
        return out

    def png(self, path, scale=4):
        """Write the canvas as a PNG, `scale` pixels per OLED pixel."""
        write_png(path, self.rows(), scale)

    def save_state(self, path):
        """Write `state()` as JSON."""
        with open(path, "w") as f:
            json.dump(self.state(), f, indent=1, ensure_ascii=False)


def write_png(path, rows, scale=4, on=(200, 230, 255), off=(8, 10, 20)):
    """A minimal PNG writer (RGB, no pygame needed) for screenshots."""
    width = len(rows[0]) * scale
    raw = bytearray()
    for row in rows:
        line = bytearray([0])
        for ch in row:
            line.extend(bytes(on if ch == "#" else off) * scale)
        for _ in range(scale):
            raw.extend(line)
    height = len(rows) * scale

    def chunk(tag, data):
        body = tag + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2,
                                                            0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
