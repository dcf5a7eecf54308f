"""Speed and heap of the game on an emulated Pico (`make chipbench`).

    python -m tools.chipbench [--board NAME] [--freq HZ] [--json] [--keep DIR]
        --firmware firmware.elf --bootrom bootrom.mjs --rp2040js node_modules

What it does:

1. Drives the headless simulator (simulator.host.Sim, seeded dice) through a
   fixed course, deciding key by key from the screen's state: title menu
   moves, rules & help with the odds page, settings, the new-game form
   (preset, the second seat a Master, tips on), a whole game against the
   Master (simple play: take the scoring dice, now and then one by one
   with the cursor, bank from 300; the computer's steps hurried by a
   press), the statistics, and last a game under custom rules from the
   rules editor, whose plan the device solves at the Master's first turn
   with the heap as the course left it; first of all, two cursor moves
   800 ms after power-on, while the game warms up. Every press is recorded
   with its kind (cursor move, die pick, value change, screen change, roll,
   bank, computer step, press in the warm-up) and the screen it was made
   on, and the simulator's screen is kept at chosen points. Made at run
   time, so the course follows the screens as they change.
2. Stages the board's tree as `make stage` does (tools.deploy), adds
   `bench.json` (seeded dice, so the chip plays the same game; the per
   frame `@prof` / `@heap` lines of firmware/profiling.py), optionally
   rewrites the staged board's FREQ, and packs the tree into a littlefs
   image in the RPI_PICO layout.
3. Runs the course on real MicroPython firmware in rp2040js with the
   harness tools/hil/hil.mjs: once for timing (profile on, heap off) and,
   at the same time, once with `gc.collect()` and an `@heap` line after
   every frame (its collections would disturb the timing).
4. Prints one table: boot, press to panel by kind, the slowest press, heap,
   the custom-rules solve, crashes, allocations, stretched frames, where a
   press's time goes, and whether every chip screenshot equals the
   simulator's pixel for pixel (a difference means the course drifted: a
   press landed on another screen, or came while the chip was still busy
   with the one before and was lost): the presses from the last equal shot
   on are left out of the figures, as are those after the app failed (a
   traceback on the serial, which ends the run, or a report in the
   /data/error.log that firmware.recovery writes: the flash is saved at the
   end of the run and the log read from it).

Emulation runs at a quarter to half of real time, so the course is kept to
about two emulated minutes; the two runs go in parallel (one core each), the
heap run over the game against the Master alone (its heap walks make it the
slower one).

A tree without bench.json support (older commits) gets a small root
`boot.py` that seeds the dice instead; it prints nothing, so only the
harness's figures (boot, press to panel, shots) are there.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

HIL = ROOT / "tools" / "hil" / "hil.mjs"
DEFAULT_BOARD = "pico_ssd1306_i2c"
SEED = 7
HOLD_MS = 80  # how long the chip's buttons are held
SCALE = 4  # PNG scale of the harness's shots

# The harness's wiring of each board it can model (see the hil README).
_BUTTONS = "UP=10,DOWN=11,LEFT=12,RIGHT=13,A=14,B=15"
WIRING = {
    "pico_ssd1306_i2c": ["--i2c", "0", "--sda", "4", "--scl", "5", "--addr", "0x3C",
                         "--buttons", _BUTTONS, "--button-pulls", "internal"],
    "pico_ssd1306_spi": ["--spi", "0", "--sck", "18", "--mosi", "19", "--cs", "17", "--dc", "16",
                         "--res", "20", "--panel", "128x64", "--buttons", _BUTTONS,
                         "--button-pulls", "internal"],
    "thumby": ["--spi", "0", "--sck", "18", "--mosi", "19", "--cs", "16", "--dc", "17",
               "--res", "20", "--panel", "72x40", "--pin-level", "15=0",
               "--buttons", "UP=4,DOWN=6,LEFT=3,RIGHT=5,A=27,B=24", "--button-pulls", "internal"],
}
REFUSED = {
    "pico_sh1106_i2c": "the harness models only the SSD1306 controller; the SH1106's 132-column "
                       "RAM (and its page-mode only addressing) is not modelled, so its frames "
                       "and shots would be wrong",
}
I2C_BOARDS = ("pico_ssd1306_i2c",)

# The kinds of press, in table order, with their labels.
KINDS = (
    ("cursor", "cursor move"),
    ("pick", "die pick"),
    ("value", "value change"),
    ("screen", "screen change"),
    ("roll", "roll"),
    ("bank", "bank"),
    ("computer", "computer step"),
    ("warmup", "press in the warm-up"),
)
KIND_LABEL = dict(KINDS)

# Emulated ms to wait after a press is released, by kind. Generous: a press
# that comes while the chip is still busy with the one before can be lost
# (the loop reads the buttons once a pass, as on a real board), and a shot
# must come after the screen settled (the roll animation is 360 ms, then the
# tips are worked out). --slow scales them all.
WAIT_MS = {
    "cursor": 220,
    "pick": 800,  # a pick asks no coach now (it took 0.6 s when the tips valued it)
    "value": 250,
    "screen": 400,
    "roll": 1200,  # the animation (360 ms), then the tips
    "bank": 700,  # the computer's first step comes at its pace (650 ms), the rest hurried
    "computer": 300,  # and no new one before the screen was still QUIET_MS
    "warmup": 300,
}
# Screens that take long to appear on the chip: extra wait when a press opens them.
SLOW_SCREENS = {"text": 1200, "play": 500, "handover": 1000, "stats": 400, "winner": 600,
                "message": 600, "rules_edit": 200, "setup": 300, "stats_name": 200}
BOOT_WAIT_MS = 3000  # power-on to the first press of the menus
TITLE_SHOT_MS = 700  # power-on to the shot of the title
WARMUP_PRESS_MS = 800  # a player's first press, while the game warms up (App.warm_up)
BURST_GAP_MS = 2.0  # frames this close after each other belong to one show()
SETTLE_MS = 700  # no shot this close to a change the play screen makes by time
QUIET_MS = 250  # a computer is hurried only after its screen was still this long
TURN_END_MS = 1200  # after a computer's turn (a hurried step the chip missed catches up)
SOLVE_WAIT_MS = 60000  # the plan for custom rules, without @prof lines to wait for
EXPECT_MS = 150000  # the longest expect-serial wait (the solve, by its @prof lines)
GAME_PRESET = "farkle4000"  # the game against the Master: the preset with the lowest target
BANK_AT = 300  # the person banks from this turn total on
MAX_PRESSES = 600  # a course that does not end is a bug in the course


def due_at(timer):
    """When a screen's timer is due (ms on the simulator's clock), or None:
    an int (negative: not armed) or a firmware.clock.Due-like object."""
    if timer is None or isinstance(timer, bool):
        return None
    if isinstance(timer, int):
        return timer if timer >= 0 else None
    if not getattr(timer, "armed", True):
        return None
    at = getattr(timer, "at", None)
    return at if isinstance(at, int) else None


class CourseError(Exception):
    """The course could not go on (a screen it does not know, a loop)."""


# ---------------------------------------------------------------- the course


class Course:
    """The timeline: what to do on the chip, made by driving the simulator.

    `steps` are dicts: {"op": "press", "key", "kind", "screen", "after", "n"},
    {"op": "wait", "ms"}, {"op": "shot", "name"}, {"op": "expect", "text",
    "fallback_ms"}; `shots` maps a shot's name to the simulator's pixels
    (bytes, one 0/1 byte per pixel, row by row, as the harness hashes them);
    `presses` lists the press steps in order; `marks` names press indices
    (game start and end)."""

    def __init__(self, sim, slow=1.0):
        self.sim = sim
        self.slow = slow
        self.app = sim.app
        self.steps = []
        self.shots = {}
        self.presses = []
        self.marks = {}
        self.picks_done = 0

    # ------------------------------------------------------------ recording

    def screen(self):
        return self.app.top().name

    def run(self, ms):
        """Let `ms` pass in the simulator and on the chip."""
        if ms > 0:
            self.sim.run(ms)
            self.steps.append({"op": "wait", "ms": int(ms)})

    def press(self, key, kind, wait=None):
        """Press `key` for HOLD_MS, then wait (default: by kind, more when a
        slow screen opened); returns the screen now on top."""
        if len(self.presses) >= MAX_PRESSES:
            raise CourseError("more than %d presses: the course does not end" % MAX_PRESSES)
        from firmware import buttons

        before = self.screen()
        sim = self.sim
        bit = buttons.BITS[key]
        sim.held |= bit
        sim.run(HOLD_MS)
        sim.held &= ~bit
        step = {"op": "press", "key": key, "kind": kind, "screen": before,
                "n": len(self.presses)}
        self.steps.append(step)
        self.presses.append(step)
        if wait is None:
            wait = WAIT_MS[kind]
            after = self.screen()
            if after != before:
                wait += SLOW_SCREENS.get(after, 0)
            wait = self.scaled(wait)
        sim.run(wait)
        self.steps.append({"op": "wait", "ms": int(wait)})
        step["after"] = self.screen()
        return step["after"]

    def scaled(self, ms):
        """`ms` times the --slow factor, in whole 10 ms."""
        return int(ms * self.slow + 9) // 10 * 10

    def settle(self):
        """Before a shot: keep away from a change the play screen's tips
        make by time (none today: a tip and its note stay until a press;
        the check stays for any timer they get). The chip is never
        ahead of the simulator but may be behind (it is slower): a shot just
        before a change is safe, one less than SETTLE_MS after it waits until
        SETTLE_MS past it."""
        play = self.play()
        tips = getattr(play, "tips", None)
        if tips is None:
            return
        sim = self.sim
        for timer in ("page_at", "note_until", "page_due", "note_due"):
            at = due_at(getattr(tips, timer, None))
            if at is not None and -SETTLE_MS < at - sim.now < 50:
                self.run(at - sim.now + SETTLE_MS)

    def shot(self, name):
        """Keep what the simulator shows now; the chip takes a shot here too."""
        self.settle()
        name = "%02d_%s" % (len(self.shots) + 1, name)
        sim = self.sim
        self.shots[name] = bytes(sim.pixel(x, y) for y in range(sim.height)
                                 for x in range(sim.width))
        self.steps.append({"op": "shot", "name": name})
        return name

    def total_ms(self):
        """The emulated length of the course (fallback waits included)."""
        ms = 0
        for s in self.steps:
            if s["op"] == "wait":
                ms += s["ms"]
            elif s["op"] == "press":
                ms += HOLD_MS
            elif s["op"] == "expect":
                ms += s["fallback_ms"]
        return ms

    # ------------------------------------------------------------ menus

    def labels(self):
        top = self.app.top()
        if not hasattr(top, "labels"):
            raise CourseError("screen %r is not a list" % top.name)
        return top.labels(self.app)

    def find(self, text_key=None, prefix=None):
        """The index of the row whose label is the text of `text_key` (or
        starts with `prefix`)."""
        labels = self.labels()
        if text_key is not None:
            want = self.app.t(text_key)
            if want in labels:
                return labels.index(want)
            prefix = want
        for i, label in enumerate(labels):
            if label.startswith(prefix):
                return i
        raise CourseError("no row %r/%r on %s: %r" % (text_key, prefix, self.screen(), labels))

    def move_to(self, index):
        """UP/DOWN (the shorter way round) to row `index`."""
        count = len(self.labels())
        for _ in range(2 * count):
            at = self.sim.state()["index"]
            if at == index:
                return
            down = (index - at) % count
            self.press("DOWN" if down <= count - down else "UP", "cursor")
        raise CourseError("cannot reach row %d on %s" % (index, self.screen()))

    def open(self, text_key=None, prefix=None, want=None):
        """Move to a row and press A (a screen change)."""
        self.move_to(self.find(text_key, prefix))
        after = self.press("A", "screen")
        if want is not None and after != want:
            raise CourseError("A on %r gave %r, not %r" % (text_key or prefix, after, want))
        return after

    def back(self, want=None):
        after = self.press("B", "screen")
        if want is not None and after != want:
            raise CourseError("B gave %r, not %r" % (after, want))
        return after

    def form(self, key):
        """A value of the screen's state (the new-game form's "target", ...)."""
        return self.sim.state()[key]

    def value(self, row_prefix, done, limit=30):
        """On the form row starting with `row_prefix`, RIGHT until `done()`
        (giving up after `limit` presses)."""
        self.move_to(self.find(prefix=row_prefix))
        for _ in range(limit):
            if done():
                return
            self.press("RIGHT", "value")
        raise CourseError("row %r never reached the wanted value" % row_prefix)

    # ------------------------------------------------------------ the play screen

    def play(self):
        top = self.app.top()
        return top if top.name == "play" else None

    def bot_to_move(self):
        play = self.play()
        return play is not None and play.game.phase != "over" and play.game.seat().is_bot

    def person_step(self):
        """One decision of the person on the play screen (simple play: take
        the scoring dice, bank from BANK_AT or with fewer than 3 dice left;
        on every other turn the dice are picked one by one with the cursor)."""
        from engine import scoring

        play = self.play()
        game = play.game
        phase = self.sim.state()["phase"]
        if phase == "start":
            self.press("A", "roll")
            self.shot("roll")
            return
        if phase == "farkle":
            self.press("A", "bank")  # passing the dice on ends the turn like a bank
            return
        if phase == "decide":
            self.commit(play, game.turn_total >= BANK_AT)
            return
        if phase != "keep":
            raise CourseError("unknown phase %r" % phase)
        allowed = [k for k, _ in game.valid_keeps()]
        found = scoring.scoring_keep(game.roll, game.rules, game.open_singles)
        keep = found[0] if found and found[0] in allowed else (allowed[0] if allowed else ())
        if self.selected() != tuple(keep):
            if self.picks_done % 2 == 0 and keep:
                self.pick_by_hand(game.roll, keep)
            self.picks_done += 1
            if self.selected() and self.selected() != tuple(keep):
                self.press("B", "pick")  # part of them: drop; UP or DOWN picks all
            self.shot("picked")
        points = scoring.score_keep(tuple(keep), game.rules, game.open_singles) or 0
        left = len(game.roll) - len(keep)
        if left == 0:
            left = game.rules.dice
        if not self.commit(play, game.turn_total + points >= BANK_AT or left < 3):
            self.shot("rolled_on")

    def commit(self, play, bank):
        """Bank (DOWN) or roll on (UP): the key, and again when the screen
        asks; refused (entry hurdle, hot dice must be rolled): the other
        way. True when it banked."""
        game = play.game
        before = game.events_total
        key, kind = ("DOWN", "bank") if bank else ("UP", "roll")
        self.press(key, "pick")
        if self.sim.state().get("asking"):
            self.shot("asked")
            self.press(key, kind)
        elif self.play() is play and game.events_total == before and self.sim.state().get(
                "message"):
            return self.commit(play, not bank)
        return bank

    def selected(self):
        """The picked dice on the play screen (sorted), from its state."""
        return tuple(sorted(self.sim.state().get("selected", ())))

    def pick_by_hand(self, roll, keep):
        """Cursor to the dice of `keep` (LEFT/RIGHT) and A on each, at most two."""
        rest = list(keep)
        wanted = []
        for i, d in enumerate(roll):
            if d in rest:
                rest.remove(d)
                wanted.append(i)
        n = len(roll)
        for i in wanted[:2]:
            for _ in range(n):
                cursor = self.sim.state()["cursor"]
                if cursor == i:
                    break
                right = (i - cursor) % n
                self.press("RIGHT" if right <= n - right else "LEFT", "cursor")
            self.press("A", "pick")

    def computer_turn(self):
        """A computer's turn, every step hurried by a press (DOWN: it does
        nothing on the screens that may follow, hand-over, winner and
        message). When its own step is near, it is let happen instead (a
        press could race it on the chip)."""
        sim = self.sim
        waited = 0
        drawn_at, frames = sim.now, sim.frames
        while self.bot_to_move() or self.screen() == "solving":
            if self.screen() == "solving":
                if waited:
                    self.steps.append({"op": "wait", "ms": waited})
                    waited = 0
                self.solve()
                drawn_at, frames = sim.now, sim.frames
                continue
            due = due_at(getattr(self.play(), "bot_due", None))
            if (due is not None and due - sim.now < 250) or sim.now - drawn_at < QUIET_MS:
                # its own step is near (a press could race it), or the screen
                # is still moving (a roll): the chip may still be busy
                sim.run(20)
                waited += 20
                if sim.frames != frames:
                    drawn_at, frames = sim.now, sim.frames
                continue
            if waited:
                self.steps.append({"op": "wait", "ms": waited})
                waited = 0
            self.press("DOWN", "computer")
            drawn_at, frames = sim.now, sim.frames
        self.run(waited + self.scaled(TURN_END_MS))

    def solve(self):
        """The solving screen: wait until it has gone (on the chip: until the
        @prof line of the next screen, or a fixed wait; see script_text)."""
        sim = self.sim
        elapsed = 0
        while self.screen() == "solving":
            sim.run(20)
            elapsed += 20
            if elapsed > 600000:
                raise CourseError("the solve does not end")
        after = self.screen()
        self.steps.append({"op": "expect", "text": "scr=solving", "fallback_ms": 0})
        self.steps.append({"op": "expect", "text": "scr=" + after,
                           "fallback_ms": self.scaled(SOLVE_WAIT_MS)})

    def play_game(self):
        """From the first screen of a new game to the title after the winner."""
        while True:
            screen = self.screen()
            if screen == "handover":
                self.shot("handover")
                self.press("A", "roll")
                self.shot("roll")
            elif screen == "solving":
                self.solve()
            elif screen == "play":
                if self.bot_to_move():
                    self.computer_turn()
                else:
                    self.person_step()
            elif screen == "message":
                self.shot("message")
                self.press("A", "screen")
            elif screen == "winner":
                self.shot("winner")
                self.marks["game_end"] = len(self.presses)
                self.press("B", "screen")  # to the title (A starts a rematch)
                return
            else:
                raise CourseError("unexpected screen %r in the game" % screen)


    # ------------------------------------------------------------ the parts

    def menus(self):
        """Title moves, rules & help with the odds page, settings."""
        c = self
        # Title: down through the entries and back up.
        count = len(c.labels())
        for _ in range(count - 1):
            c.press("DOWN", "cursor")
        c.shot("title_last")
        for _ in range(count - 1):
            c.press("UP", "cursor")
        # Rules & help: the odds page (slow: it works the odds out).
        c.open("help", want="help")
        c.move_to(c.find("help_odds"))
        c.press("A", "screen")
        c.shot("odds")
        c.press("DOWN", "cursor")  # scroll a line
        c.back()
        c.back(want="title")
        # Settings: move, change the contrast and back.
        c.open("settings_title", want="settings")
        c.press("DOWN", "cursor")
        c.press("RIGHT", "value")
        c.press("LEFT", "value")
        c.shot("settings")
        c.back(want="title")

    def master_game(self):
        """A whole game against the Master, tips on."""
        c = self
        # A whole game against the Master, tips on (a preset: its plan and
        # the Master's table are shipped, so the tips show everything).
        c.open("new_game", want="setup")
        c.shot("setup")
        c.value(c.app.t("rules_preset") + ":", lambda: c.form("preset") == GAME_PRESET)
        c.value("2 ", lambda: c.form("seats")[1][1] == "meister")
        c.value(c.app.t("tips") + ":", lambda: bool(c.form("tips")))
        c.shot("setup_done")
        c.move_to(c.find("start_game"))
        c.marks["game_start"] = len(c.presses)
        c.press("A", "screen")
        c.play_game()
        if c.screen() != "title":
            raise CourseError("after the game: %r, not the title" % c.screen())
        c.shot("title_after")

    def statistics(self):
        """The statistics: the names, the first name's sheet (after a game),
        the records."""
        c = self
        c.open("stats_title", want="stats")
        c.shot("stats")
        if c.form("names"):
            c.press("A", "screen")
            c.shot("stats_sheet")
            c.back(want="stats")
        c.open("stats_records")
        c.shot("stats_records")
        c.back(want="stats")
        c.back(want="title")

    def custom_solve(self):
        """Last (it may run out of heap): custom rules from the rules editor,
        the smallest target, a game against the Master, whose plan is
        solved on the device at its first turn, with the heap as the course
        left it."""
        c = self
        c.open("new_game", want="setup")
        c.move_to(0)
        c.press("A", "screen")
        if c.screen() != "rules_edit":
            raise CourseError("A on the rules row gave %r" % c.screen())
        from engine.rules import KEYS

        c.move_to(KEYS.index("tie"))
        c.press("RIGHT", "value")
        c.shot("rules_edit")
        c.open("rules_use", want="setup")
        from firmware.screens.setup import TARGETS

        c.value(c.app.t("target") + ":", lambda: c.form("target") == min(TARGETS))
        c.value("2 ", lambda: c.form("seats")[1][1] == "meister")
        c.move_to(c.find("start_game"))
        c.press("A", "screen")
        c.marks["solve_game"] = len(c.presses)
        while c.screen() != "solving":
            if c.screen() == "handover":
                c.press("A", "roll")
            elif c.screen() == "play" and not c.bot_to_move():
                c.person_step()
            elif c.screen() == "play":
                c.press("DOWN", "computer")
            else:
                raise CourseError("no solve in the custom game: %r" % c.screen())
        c.marks["solve"] = len(c.presses) - 1
        c.solve()
        c.shot("solved")


PARTS_ALL = ("menus", "game", "stats", "solve")
PARTS_HEAP = ("game",)  # the heap run: its heap walks every pass make emulating it slow
HEAP_SLOW = 1.0  # and the chip: its course may wait longer (x --slow)


def build_course(board=DEFAULT_BOARD, seed=SEED, data_dir=None, slow=1.0, parts=PARTS_ALL):
    """Drive the simulator through the benchmark course (see the module
    docstring) or the `parts` of it named; returns the Course. `slow`
    scales its waits."""
    from simulator.host import Sim

    own = data_dir is None
    if own:
        data_dir = tempfile.mkdtemp(prefix="chipbench-sim-")
    try:
        sim = Sim(board, data_dir, seed)
        c = Course(sim, slow)
        if c.screen() != "title":
            raise CourseError("the simulator starts on %r, not the title" % c.screen())
        # Not scaled: the title is up (about 0.55 s), the warm-up under way.
        # The shot comes first: boot_ms looks for the title before it.
        c.run(TITLE_SHOT_MS)
        c.shot("title")
        c.run(WARMUP_PRESS_MS - c.total_ms())
        c.press("DOWN", "warmup")
        c.press("UP", "warmup")
        c.run(c.scaled(BOOT_WAIT_MS) - c.total_ms())
        if "menus" in parts:
            c.menus()
        if "game" in parts:
            c.master_game()
        if "stats" in parts:
            c.statistics()
        if "solve" in parts:
            c.custom_solve()
        return c
    finally:
        if own:
            shutil.rmtree(data_dir, ignore_errors=True)


# ---------------------------------------------------------------- the harness script


def script_text(course, serial=True):
    """The course as a hil timeline. `serial`: the chip prints @prof lines,
    so the solve is waited for with expect-serial; else with a fixed wait."""
    kinds = {}
    for p in course.presses:
        kinds[p["kind"]] = kinds.get(p["kind"], 0) + 1
    out = ["# tools/chipbench.py: %d presses (%s), %d shots" % (
        len(course.presses), ", ".join("%s %d" % (k, kinds[k]) for k, _ in KINDS if k in kinds),
        len(course.shots))]
    for s in course.steps:
        op = s["op"]
        if op == "wait":
            out.append("wait %d" % s["ms"])
        elif op == "press":
            out.append("# press %d: %s on %s (then %s)" % (s["n"] + 1, KIND_LABEL[s["kind"]],
                                                           s["screen"], s.get("after", "?")))
            out.append("press %s %d" % (s["key"], HOLD_MS))
        elif op == "shot":
            out.append("shot %s" % s["name"])
        elif op == "expect":
            if serial:
                out.append("expect-serial %s" % s["text"])
            elif s["fallback_ms"]:
                out.append("# no @prof lines to wait for: a fixed wait")
                out.append("wait %d" % s["fallback_ms"])
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- the staged tree


def supports_bench(root=ROOT):
    """True when the tree's device reads bench.json (seed, @prof, @heap)."""
    try:
        return "bench_options" in (Path(root) / "firmware" / "device.py").read_text(
            encoding="utf-8")
    except OSError:
        return False


SEED_SHIM = '''\
# tools/chipbench.py: this tree reads no bench.json, so its dice are seeded
# here (the same dice as engine.dice.SeededDice(%d) in the simulator).
from engine.dice import SeededDice
from firmware import device

_run = device.run


def _seeded(board, *args, **options):
    options["dice"] = SeededDice(%d)
    return _run(board, *args, **options)


device.run = _seeded
'''


def patch_freq(board, dest, freq, mpy_cross):
    """Compile the board module with `FREQ = freq` into the staged tree."""
    src = (ROOT / "boards" / (board + ".py")).read_text(encoding="utf-8")
    line = "FREQ = %d" % freq
    if re.search(r"^FREQ\s*=", src, re.M):
        src = re.sub(r"^FREQ\s*=.*$", line, src, flags=re.M)
    else:
        src += "\n%s\n" % line
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (board + ".py")
        path.write_text(src, encoding="utf-8")
        out = Path(dest) / "boards" / (board + ".mpy")
        proc = subprocess.run([mpy_cross, "-march=armv6m", "-s", "boards/%s.py" % board,
                               "-o", str(out), str(path)], capture_output=True, text=True)
        if proc.returncode:
            raise SystemExit("mpy-cross failed on the patched board: " + proc.stderr)


def stage_tree(board, dest, bench=None, freq=None, seed=SEED, frozen=False):
    """Stage `board` into `dest` as `make stage` does, then add `bench`
    (a dict, as bench.json; None for a tree that cannot read it: a boot.py
    seeds the dice instead) and write the board's FREQ. `frozen`: the
    firmware holds the game (manifest.py), so the tree has no packages
    (tools.deploy.stage)."""
    from tools import deploy

    deploy.stage(board, dest, log=lambda *a: None, frozen=frozen)
    dest = Path(dest)
    if freq is not None:
        patch_freq(board, dest, freq, deploy.find_mpy_cross())
    if bench is not None:
        (dest / "bench.json").write_text(json.dumps(bench) + "\n", encoding="utf-8")
    else:
        (dest / "boot.py").write_text(SEED_SHIM % (seed, seed), encoding="utf-8")


def pack_image(tree, out, block_size=4096, block_count=352, prog_size=256):
    """Pack every file under `tree` into a littlefs image (the RPI_PICO
    layout by default); returns the paths written."""
    from littlefs import LittleFS

    lfs = LittleFS(block_size=block_size, block_count=block_count, prog_size=prog_size)
    written = []
    tree = str(tree)
    for folder, dirs, files in os.walk(tree):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        rel = os.path.relpath(folder, tree).replace(os.sep, "/")
        if rel != ".":
            lfs.makedirs(rel, exist_ok=True)
        for name in sorted(files):
            dst = name if rel == "." else rel + "/" + name
            with open(os.path.join(folder, name), "rb") as fin, lfs.open(dst, "wb") as fout:
                fout.write(fin.read())
            written.append(dst)
    with open(out, "wb") as f:
        f.write(lfs.context.buffer)
    return written


# ---------------------------------------------------------------- outside parts

PARTS = (
    ("firmware", "CHIPBENCH_FIRMWARE", "MicroPython v1.28.0 RPI_PICO firmware.elf"),
    ("bootrom", "CHIPBENCH_BOOTROM", "the RP2040 B1 bootrom as bootrom.mjs"),
    ("rp2040js", "CHIPBENCH_RP2040JS", "a node_modules folder holding rp2040js@1.4.1"),
)

HOW_TO_GET = """\
chipbench runs the game on real MicroPython firmware in an emulated Pico and
needs three parts from outside the repository:

  --firmware  (or CHIPBENCH_FIRMWARE)  MicroPython v1.28.0 RPI_PICO, as firmware.elf
  --bootrom   (or CHIPBENCH_BOOTROM)   the RP2040 B1 bootrom as an ES module, bootrom.mjs
  --rp2040js  (or CHIPBENCH_RP2040JS)  a node_modules folder holding rp2040js (npm rp2040js@1.4.1)

Missing: {missing}

How to get them (once per machine, about 6 minutes; see the hil README in the
team's shared notes):
  1. Have bare git mirrors of the public repositories micropython/micropython,
     raspberrypi/pico-sdk, hathach/tinyusb, micropython/micropython-lib,
     Mbed-TLS/mbedtls, raspberrypi/picotool and wokwi/rp2040js, each at
     MIRRORS/OWNER+NAME/repo.
  2. MIRRORS=<that folder> build-firmware.sh OUT   (the team's script, OUT outside
     the repository): it builds stock MicroPython v1.28.0 for RPI_PICO, saves the
     bootrom from rp2040js's demo/bootrom.ts and installs rp2040js@1.4.1, then prints
        OUT/micropython/ports/rp2/build-RPI_PICO/firmware.elf
        OUT/bootrom.mjs
        OUT/node/node_modules
  3. make chipbench CHIPBENCH_ARGS="--firmware \\
        OUT/micropython/ports/rp2/build-RPI_PICO/firmware.elf \\
        --bootrom OUT/bootrom.mjs --rp2040js OUT/node/node_modules"
     (or export the three CHIPBENCH_* variables). Node 18 or newer must be on PATH."""


def find_parts(args, environ=None):
    """{part: path} from the arguments, else the environment; the second
    value lists the parts that are missing or do not exist (with why)."""
    environ = os.environ if environ is None else environ
    found, missing = {}, []
    for name, env, what in PARTS:
        value = getattr(args, name, None) or environ.get(env)
        if not value:
            missing.append("%s (%s): not given" % (name, what))
        elif not Path(value).exists():
            missing.append("%s: %s does not exist" % (name, value))
        else:
            found[name] = str(Path(value).resolve())
    if "rp2040js" in found:
        folder = Path(found["rp2040js"])
        if not ((folder / "rp2040js").is_dir() or (folder / "package.json").is_file()):
            missing.append("rp2040js: %s holds no rp2040js package" % folder)
            del found["rp2040js"]
    return found, missing


def missing_message(missing):
    """What to tell when parts are missing (see HOW_TO_GET)."""
    return HOW_TO_GET.format(missing="\n  " + "\n  ".join(missing) if missing else "nothing")


# ---------------------------------------------------------------- running the harness


def hil_command(parts, board, image, script, out, max_ms, timeout_s):
    """The node command line of one harness run."""
    return ["node", str(HIL), "--fw", parts["firmware"], "--bootrom", parts["bootrom"],
            "--rp2040js", parts["rp2040js"], "--fs", str(image)] + WIRING[board] + [
        "--script", str(script), "--out", str(out), "--scale", str(SCALE),
        "--save-fs", str(Path(out) / "flash.img"),
        "--expect-ms", str(EXPECT_MS), "--max-emulated-ms", str(int(max_ms)),
        "--timeout", str(int(timeout_s))]


TRACEBACK = "Traceback (most recent call last)"
ERROR_LOGS = ("data/error.log", "error.log")  # firmware.recovery's log, beside the saves


def read_error_log(image, block_size=4096, prog_size=256):
    """The text of the error log in a saved littlefs image (the board's
    flash at the end of the run), or None when there is none."""
    try:
        data = Path(image).read_bytes()
    except OSError:
        return None
    try:
        from littlefs import LittleFS

        fs = LittleFS(block_size=block_size, block_count=len(data) // block_size,
                      prog_size=prog_size, mount=False)
        fs.context.buffer = bytearray(data)
        fs.mount()
    except Exception:  # not a filesystem (a run cut short): no log to read
        return None
    for name in ERROR_LOGS:
        try:
            with fs.open(name, "rb") as f:
                return f.read().decode("utf-8", "replace")
        except Exception:
            continue
    return None


def run_all(jobs, log, poll_s=1.0, grace_s=3.0):
    """Run the harness commands of `jobs` ({name: (cmd, out_dir)}) at the
    same time; returns {name: (exit code, report dict or None)}. A run whose
    board printed a Python traceback is ended (SIGTERM: the harness still
    writes its report) `grace_s` after: the rest of the course would only
    press buttons at a REPL."""
    procs = {}
    for name, (cmd, out) in jobs.items():
        Path(out).mkdir(parents=True, exist_ok=True)
        stdout = open(Path(out) / "serial.txt", "w")
        stderr = open(Path(out) / "hil.log", "w")
        procs[name] = [subprocess.Popen(cmd, stdout=stdout, stderr=stderr), stdout, stderr, out,
                       None]
        log("hil: %s run started (%s)" % (name, out))
    results = {}
    while len(results) < len(procs):
        time.sleep(poll_s)
        for name, entry in procs.items():
            proc, stdout, stderr, out, crashed = entry
            if name in results:
                continue
            code = proc.poll()
            if code is None:
                if crashed is None:
                    try:
                        text = (Path(out) / "serial.txt").read_text(errors="replace")
                    except OSError:
                        text = ""
                    if TRACEBACK in text:
                        entry[4] = time.time()
                        log("hil: %s run: the board printed a traceback; ending the run" % name)
                elif time.time() - crashed > grace_s:
                    proc.terminate()
                continue
            stdout.close()
            stderr.close()
            report = None
            try:
                report = json.loads((Path(out) / "report.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                pass
            if report is not None:
                report["error_log"] = read_error_log(Path(out) / "flash.img")
            log("hil: %s run ended, exit %d" % (name, code))
            results[name] = (code, report)
    return results


# ---------------------------------------------------------------- reading the results

PROF_RE = re.compile(r"^@(prof|heap) (.*)$")


def parse_serial(text):
    """The @prof and @heap lines of the serial text: two lists of dicts
    (ints; `idle` gives idle_n and idle_bytes; `scr` a name)."""
    prof, heap = [], []
    for line in text.splitlines():
        m = PROF_RE.match(line.strip())
        if not m:
            continue
        row = {}
        for part in m.group(2).split():
            key, _, value = part.partition("=")
            if key == "scr":
                row[key] = value
            elif key == "idle":
                n, _, b = value.partition(":")
                row["idle_n"], row["idle_bytes"] = _int(n), _int(b)
            else:
                row[key] = _int(value)
        (prof if m.group(1) == "prof" else heap).append(row)
    return prof, heap


def _int(text):
    try:
        return int(text)
    except ValueError:
        return None


def summary(values):
    """count, median, p90 (nearest rank, as the harness) and max of `values`."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return {"count": 0, "median": None, "p90": None, "max": None}
    p90 = v[max(0, -(-9 * len(v) // 10) - 1)]
    return {"count": len(v), "median": statistics.median(v), "p90": p90, "max": v[-1]}


def panel_bits(png_bytes):
    """The 0/1 pixels of a harness shot (8-bit grayscale PNG, any scale):
    (width, height, bits) at the panel's size, or None if it cannot be read."""
    if png_bytes[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    pos, idat, width = 8, b"", None
    while pos < len(png_bytes):
        length, tag = struct.unpack(">I4s", png_bytes[pos:pos + 8])
        body = png_bytes[pos + 8:pos + 8 + length]
        if tag == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            if depth != 8 or color != 0:
                return None
        elif tag == b"IDAT":
            idat += body
        pos += 12 + length
    if width is None:
        return None
    raw = zlib.decompress(idat)
    rows = []
    for y in range(height):
        line = raw[y * (width + 1):(y + 1) * (width + 1)]
        if line[0] != 0:
            return None  # the harness writes filter 0 only
        rows.append(line[1:])
    return width, height, rows


def shot_difference(png_bytes, pixels, width, height):
    """Pixels that differ between a harness shot and the simulator's
    `pixels` (bytes, 0/1 per pixel row by row); None if the PNG is unreadable."""
    got = panel_bits(png_bytes)
    if got is None:
        return None
    w, h, rows = got
    scale = w // width if width else 1
    if scale < 1 or h // scale != height:
        return None
    diff = 0
    for y in range(height):
        row = rows[y * scale]
        for x in range(width):
            if (row[x * scale] > 127) != bool(pixels[y * width + x]):
                diff += 1
    return diff


def sha1_bits(pixels):
    """The harness's sha1 of a panel image (one 0/1 byte per pixel)."""
    return hashlib.sha1(bytes(pixels)).hexdigest()


def frame_end_ms(frame):
    return frame["start_ms"] + frame["bus_us"] / 1000.0


def panel_done_ms(log, at, gap_ms=None):
    """The end of the update that frame `log[at]` begins: a show() may send
    several frames (the changed windows of the panel) back to back; the
    update is on the panel after the last of those that follow each other
    within `gap_ms` (BURST_GAP_MS)."""
    gap_ms = BURST_GAP_MS if gap_ms is None else gap_ms
    end = frame_end_ms(log[at])
    for f in log[at + 1:]:
        if f["start_ms"] - end > gap_ms:
            break
        end = frame_end_ms(f)
    return end


def boot_ms(report, title_shot):
    """Power-on to the title complete on the panel: the end of the first
    frame whose panel (sha1) equals the title shot's, taken before that
    shot. A driver that draws the first frame with the display still off
    and switches it on after has no such frame: then the end of the last
    frame before the shot (the display came on after it, before the shot)."""
    log = report["display"]["frame_log"]
    shot = next((s for s in report.get("shots", []) if s.get("name") == title_shot), None)
    if shot is None:
        return None
    for f in log:
        if f["start_ms"] > shot["at_ms"]:
            break
        if f.get("sha1") == shot["sha1"]:
            return frame_end_ms(f)
    before = [f for f in log if frame_end_ms(f) <= shot["at_ms"]]
    return frame_end_ms(before[-1]) if before and shot.get("panel_lit", True) else None


def stretched_frames(frames, factor=1.25):
    """Frames whose bus time is above `factor` times the median of the
    frames with the same byte count: (count, frames considered, worst)."""
    by_size = {}
    for f in frames:
        by_size.setdefault(f["bytes"], []).append(f)
    count, worst = 0, None
    for group in by_size.values():
        if len(group) < 3:
            continue
        median = statistics.median(f["bus_us"] for f in group)
        for f in group:
            ratio = f["bus_us"] / median if median else 0
            if ratio > factor:
                count += 1
                if worst is None or ratio > worst["ratio"]:
                    worst = {"n": f["n"], "bytes": f["bytes"], "bus_us": f["bus_us"],
                             "median_us": median, "ratio": round(ratio, 2)}
    return count, len(frames), worst


def prof_for_frame(prof, start_ms):
    """The @prof line of the loop pass that drew the frame starting at
    `start_ms`: the last pass that began at or before it."""
    best = None
    for row in prof:
        ms = row.get("ms")
        if ms is not None and ms <= start_ms + 0.5:
            best = row
        elif ms is not None and ms > start_ms + 0.5:
            break
    return best


LOG_ENTRY_RE = re.compile(r"^--- (\d+) ms (\S+)\s*$", re.M)


def crash_info(course, report):
    """The first failure of the app: a Python traceback the board printed
    (it stopped at the REPL), or the first report in the error log the
    device wrote and played on after (firmware.recovery; `report["error_log"]`).
    A dict: the error line, when, "recovered", the number of logged errors
    and the last press before it; None when nothing failed."""
    text = report.get("serial", "")
    i = text.find(TRACEBACK)
    info = None
    if i >= 0:
        error = "?"
        for line in text[i:].splitlines()[1:]:
            if line.strip() and not line.startswith(" "):
                error = line.strip()
                break
        info = {"error": error, "at_ms": report.get("main_ended_ms"), "recovered": False,
                "logged": 0}
    log = report.get("error_log") or ""
    entries = list(LOG_ENTRY_RE.finditer(log))
    if entries and info is None:
        first = entries[0]
        end = entries[1].start() if len(entries) > 1 else len(log)
        lines = [x.strip() for x in log[first.end():end].splitlines() if x.strip()]
        info = {"error": lines[-1] if lines else first.group(2),
                "at_ms": float(first.group(1)), "recovered": True}
    if info is None:
        return None
    info["logged"] = len(entries)
    at = info["at_ms"]
    presses = report.get("presses", [])
    before = [k for k, p in enumerate(presses) if at is not None and p["down_ms"] <= at]
    if before and before[-1] < len(course.presses):
        c = course.presses[before[-1]]
        info.update(press=before[-1] + 1, kind=c["kind"], screen=c["screen"],
                    after=c.get("after"))
    return info


def solve_figures(prof, heap_rows=(), crash=None):
    """The solving screen from the @prof lines: how long from its first
    frame to the next screen's, its frames, the longest loop pass (the
    buttons wait that long); the free heap before it (from @heap lines);
    or the crash that ended it. None when no solving frame was printed."""
    first = next((i for i, r in enumerate(prof) if r.get("scr") == "solving"), None)
    if first is None:
        return None
    start = prof[first]["ms"]
    rows = []
    end = None
    for r in prof[first:]:
        if r.get("scr") != "solving":
            end = r
            break
        rows.append(r)
    passes = [(r.get("step") or 0) + (r.get("draw") or 0) + (r.get("show") or 0) for r in rows]
    out = {"start_ms": start, "frames": len(rows),
           "longest_pass_ms": max(passes) / 1000.0 if passes else None,
           "ms": None, "crash": None, "free_before": None, "live_before": None}
    if end is not None:
        out["ms"] = end["ms"] + (end.get("step") or 0) / 1000.0 - start
    elif crash is not None:
        out["crash"] = crash["error"]
        if crash.get("at_ms") is not None:
            out["ms"] = crash["at_ms"] - start
    before = [h for h in heap_rows if h.get("ms") is not None and h["ms"] < start]
    if before:
        out["free_before"] = before[-1].get("free")
        out["live_before"] = before[-1].get("live")
    return out


def compare_shots(course, report, shots_dir=None, width=128, height=64, dead_at=None):
    """The harness's shots against the simulator's: equal count, the
    different ones (with their differing pixels when `shots_dir` holds the
    PNGs), those not taken, those after `dead_at`, and `drift_ms`: the time
    of the last equal shot before the first different one (the presses from
    then on may have landed elsewhere), or None."""
    shots = {s["name"]: s for s in report.get("shots", [])}
    out = {"equal": 0, "different": [], "missing": [], "after_crash": [],
           "total": len(course.shots), "drift_ms": None}
    last_equal = 0.0
    for name, pixels in course.shots.items():
        got = shots.get(name)
        if got is not None and dead_at is not None and got.get("at_ms", 0) >= dead_at:
            out["after_crash"].append(name)
        elif got is None:
            out["missing"].append(name)
        elif got.get("sha1") == sha1_bits(pixels):
            out["equal"] += 1
            last_equal = got.get("at_ms", last_equal)
        else:
            diff = None
            if shots_dir is not None:
                try:
                    png = (Path(shots_dir) / (name + ".png")).read_bytes()
                    diff = shot_difference(png, pixels, width, height)
                except OSError:
                    pass
            out["different"].append({"name": name, "pixels": diff})
            if out["drift_ms"] is None:
                out["drift_ms"] = last_equal
    return out


def analyse(course, timing, heap=None, shots_dir=None, width=128, height=64, heap_course=None):
    """The figures of the table from the timing run's report (and the heap
    run's, if any: its course is `heap_course`, default `course`) and the
    course; a dict (see format_table). Presses after the app failed, or
    after the course drifted (the last equal shot before a different one),
    are left out: they may have landed on other screens."""
    log = timing["display"]["frame_log"]
    frames = {f["n"]: f for f in log}
    where = {f["n"]: i for i, f in enumerate(log)}
    prof, _ = parse_serial(timing.get("serial", ""))
    presses = timing.get("presses", [])
    warnings = []
    if len(presses) != len(course.presses):
        warnings.append("the harness saw %d presses, the course has %d" % (
            len(presses), len(course.presses)))
    crash = crash_info(course, timing)
    crash_at = crash["at_ms"] if crash and crash.get("at_ms") is not None else None
    shots = compare_shots(course, timing, shots_dir, width, height, crash_at)
    cut = [t for t in (crash_at, shots["drift_ms"]) if t is not None]
    cut_at = min(cut) if cut else None
    by_kind = {k: [] for k, _ in KINDS}
    phases = {k: {"read": [], "step": [], "draw": [], "show": []} for k, _ in KINDS}
    slowest = None
    late = []
    left_out = 0
    for i, (p, c) in enumerate(zip(presses, course.presses, strict=False)):
        if cut_at is not None and p["down_ms"] >= cut_at:
            left_out += 1  # the app had failed, or the course had drifted
            continue
        ms = p.get("press_to_panel_ms")
        if ms is not None and p.get("frame") in where:  # the whole update, not its first frame
            ms = round(panel_done_ms(log, where[p["frame"]]) - p["down_ms"], 3)
        by_kind[c["kind"]].append(ms)
        if ms is None:
            warnings.append("press %d (%s on %s) drew no frame" % (
                i + 1, KIND_LABEL[c["kind"]], c["screen"]))
            continue
        if slowest is None or ms > slowest["ms"]:
            slowest = {"ms": ms, "kind": c["kind"], "screen": c["screen"], "key": c["key"],
                       "after": c.get("after"), "n": i + 1}
        if i + 1 < len(presses) and p["down_ms"] + ms > presses[i + 1]["down_ms"]:
            late.append(i + 1)
        frame = frames.get(p.get("frame"))
        row = prof_for_frame(prof, frame["start_ms"]) if frame else None
        if row is not None:
            for key in phases[c["kind"]]:
                phases[c["kind"]][key].append(row.get(key))
    if left_out:
        warnings.append("%d presses came after %s and are left out" % (
            left_out, "the app failed" if crash_at is not None and cut_at == crash_at else
            "the course drifted (a chip shot differs from the simulator's)"))
    if late:
        warnings.append("the frame of press(es) %s came after the next press: the waits are "
                        "too short for this tree (raise WAIT_MS/SLOW_SCREENS, or --slow)" % (
                            ", ".join(map(str, late[:10])) + (" ..." if len(late) > 10 else "")))
    kinds = {k: summary(v) for k, v in by_kind.items()}
    phase_medians = {}
    for k, cols in phases.items():
        if any(cols.values()):
            phase_medians[k] = {key: summary(v)["median"] for key, v in cols.items()}
    title = next(iter(course.shots), None)
    boot = boot_ms(timing, title) if title is not None else None
    got = {s["name"]: s for s in timing.get("shots", [])}
    if title is not None and got.get(title, {}).get("sha1") != sha1_bits(course.shots[title]):
        warnings.append("the first shot is not the simulator's title: boot not measured")
        boot = None
    # Allocations and idle passes. A collection during the pass makes its
    # count negative: not an allocation. The heap run measures them (a
    # timing run prints alloc=0: counting walks the heap); its collection
    # after every frame keeps them exact.
    source = parse_serial(heap.get("serial", ""))[0] if heap is not None else prof
    allocs = [r.get("alloc") for r in source if r.get("alloc") is not None and r["alloc"] >= 0]
    idle_n = sum(r.get("idle_n") or 0 for r in source)
    idle_bytes = sum(r.get("idle_bytes") or 0 for r in source)
    if heap is None and not any(allocs) and not idle_bytes:
        allocs = []  # all 0: this profiling counts only with "heap" on (no heap run here)
    alloc = summary(allocs)
    count, considered, worst = stretched_frames(log)
    out = {
        "boot_ms": boot,
        "presses": len(presses),
        "kinds": kinds,
        "slowest": slowest,
        "phases": phase_medians,
        "alloc": {"frames": alloc["count"], "median": alloc["median"], "max": alloc["max"],
                  "idle_passes": idle_n, "idle_bytes": idle_bytes},
        "stretched": {"count": count, "frames": considered, "worst": worst},
        "shots": shots,
        "heap": None,
        "emulated_ms": timing.get("emulated_ms"),
        "cpu_busy_ms": timing.get("cpu_busy_ms"),
        "hil_wall_ms": timing.get("wall_ms"),
        "tracebacks": timing.get("python_tracebacks", 0),
        "end_reason": timing.get("end_reason"),
        "warnings": warnings,
        "crash": crash,
        "solve": solve_figures(prof, (), crash),
    }
    if heap is not None:
        out["heap"] = heap_figures(heap_course or course, heap)
    return out


def heap_figures(course, report):
    """Smallest free and largest live heap after gc.collect() from the
    @heap lines: over the game against the Master, and over the whole run."""
    _, rows = parse_serial(report.get("serial", ""))
    presses = report.get("presses", [])
    start = course.marks.get("game_start")
    end = course.marks.get("game_end")
    lo = presses[start]["down_ms"] if start is not None and start < len(presses) else None
    hi = presses[end]["down_ms"] if end is not None and end < len(presses) else None
    game = [r for r in rows if r.get("ms") is not None and lo is not None and hi is not None
            and lo <= r["ms"] <= hi]

    def figures(sel):
        if not sel:
            return None
        low = min(sel, key=lambda r: r.get("free") or 0)
        high = max(sel, key=lambda r: r.get("live") or 0)
        return {"lines": len(sel), "min_free": low.get("free"), "min_free_screen": low.get("scr"),
                "max_live": high.get("live"), "max_live_screen": high.get("scr")}

    prof, _ = parse_serial(report.get("serial", ""))
    crash = crash_info(course, report)
    return {"game": figures(game), "all": figures(rows), "crash": crash,
            "solve": solve_figures(prof, rows, crash),
            "shots_total": len(course.shots),
            "shots_equal": compare_shots(course, report)["equal"],
            "tracebacks": report.get("python_tracebacks", 0),
            "end_reason": report.get("end_reason")}


# ---------------------------------------------------------------- the table


def _f(value, fmt="%.1f"):
    return "-" if value is None else fmt % value


def format_table(res):
    """The one table chipbench prints."""
    out = []
    head = res.get("title")
    if head:
        out.append(head)
    out.append("%-46s %s ms" % ("boot: power-on to the title on the panel", _f(res["boot_ms"])))
    out.append("%-28s %6s %9s %9s %9s" % ("press to panel (ms)", "count", "median", "p90", "max"))
    for kind, label in KINDS:
        k = res["kinds"].get(kind, {"count": 0})
        out.append("  %-26s %6d %9s %9s %9s" % (label, k["count"], _f(k.get("median")),
                                                _f(k.get("p90")), _f(k.get("max"))))
    s = res.get("slowest")
    out.append("%-46s %s" % ("slowest press", "-" if not s else "%.1f ms: %s on %s (%s -> %s)" % (
        s["ms"], KIND_LABEL[s["kind"]], s["screen"], s["key"], s.get("after"))))
    h = (res.get("heap") or {}).get("game")
    out.append("%-46s %s" % ("heap, game vs Master with tips (after gc)",
                             "-" if not h else "smallest free %d B (%s), largest live %d B (%s)" % (
                                 h["min_free"], h["min_free_screen"], h["max_live"],
                                 h["max_live_screen"])))
    h = (res.get("heap") or {}).get("all")
    if h:
        out.append("%-46s %s" % ("heap, whole heap run (after gc)",
                                 "smallest free %d B (%s), largest live %d B (%s)" % (
                                     h["min_free"], h["min_free_screen"], h["max_live"],
                                     h["max_live_screen"])))
    out.append("%-46s %s" % ("custom-rules solve after the game", _solve_text(
        res.get("solve"), (res.get("heap") or {}).get("solve"))))
    crashes = []
    for run, crash in (("timing", res.get("crash")), ("heap", (res.get("heap") or {}).get(
            "crash"))):
        if crash:
            crashes.append("%s run: %s at %s ms%s%s" % (
                run, crash["error"], _f(crash.get("at_ms"), "%.0f"), "" if "press" not in crash
                else " (after press %d: %s on %s -> %s)" % (
                    crash["press"], KIND_LABEL[crash["kind"]], crash["screen"], crash["after"]),
                ", played on (%d in error.log)" % crash["logged"] if crash.get("recovered")
                else ", stopped at the REPL"))
    out.append("%-46s %s" % ("app failed (traceback or error.log)", "; ".join(crashes) or "no"))
    a = res["alloc"]
    if a["frames"]:
        alloc = "median %s B, max %s B (%d frames); idle passes: %d B in %d (%.1f B a pass)" % (
            _f(a["median"], "%d"), _f(a["max"], "%d"), a["frames"], a["idle_bytes"],
            a["idle_passes"], a["idle_bytes"] / a["idle_passes"] if a["idle_passes"] else 0)
    else:
        alloc = "-" if res.get("heap") or not a["idle_passes"] else "- (counted in the heap run)"
    out.append("%-46s %s" % ("allocated per frame (@prof)", alloc))
    busy, total = res.get("cpu_busy_ms"), res.get("emulated_ms")
    out.append("%-46s %s" % ("CPU busy (core not asleep), whole course",
                             "%.0f%% (%.1f of %.1f s)" % (100.0 * busy / total, busy / 1000,
                                                          total / 1000)
                             if busy is not None and total else "-"))
    st = res["stretched"]
    worst = st.get("worst")
    out.append("%-46s %s" % ("frames with stretched bus time (>1.25x)", "%d of %d%s" % (
        st["count"], st["frames"], "" if not worst else "; worst frame %d: %.0f us, %.2fx" % (
            worst["n"], worst["bus_us"], worst["ratio"]))))
    out.append("%-28s %9s %9s %9s %9s" % ("median per phase (us)", "read", "step", "draw", "show"))
    for kind, label in KINDS:
        ph = res["phases"].get(kind)
        if ph:
            out.append("  %-26s %9s %9s %9s %9s" % (label, _f(ph["read"], "%d"),
                                                    _f(ph["step"], "%d"), _f(ph["draw"], "%d"),
                                                    _f(ph["show"], "%d")))
        else:
            out.append("  %-26s %9s %9s %9s %9s" % (label, "-", "-", "-", "-"))
    sh = res["shots"]
    diff = ", ".join("%s (%s px)" % (d["name"], "?" if d["pixels"] is None else d["pixels"])
                     for d in sh["different"])
    dead = sh.get("after_crash") or []
    if sh.get("drift_ms") is not None:
        diff += " (the course drifted after %.1f s)" % (sh["drift_ms"] / 1000)
    heap_equal = (res.get("heap") or {}).get("shots_equal")
    out.append("%-46s %s" % ("screenshots equal to the simulator's", "%d of %d%s%s%s%s" % (
        sh["equal"], sh["total"], "; different: " + diff if diff else "",
        "; %d after the crash" % len(dead) if dead else "",
        "; not taken: " + ", ".join(sh["missing"]) if sh["missing"] else "",
        "" if heap_equal is None else "; heap run: %d of %d" % (
            heap_equal, (res.get("heap") or {}).get("shots_total", sh["total"])))))
    for w in res.get("warnings", []):
        out.append("warning: " + w)
    return "\n".join(out)


def _solve_text(timing, heap):
    """The solve row: how it went in the timing run (duration or crash) and
    in the heap run (the free heap before it; its crash)."""
    parts = []
    for run, fig in (("timing run", timing), ("heap run", heap)):
        if not fig:
            continue
        if fig.get("crash"):
            text = "%s %s s into it" % (fig["crash"], _f((fig.get("ms") or 0) / 1000))
        elif fig.get("ms") is None:
            text = "not finished"
        else:
            text = "done in %s s" % _f(fig["ms"] / 1000)
        if run == "timing run":
            text += " (%d frames, longest pass %s ms)" % (fig["frames"],
                                                          _f(fig.get("longest_pass_ms"), "%d"))
        elif fig.get("free_before") is not None:
            text += ", free heap before it %d B" % fig["free_before"]
        parts.append("%s: %s" % (run, text))
    return "; ".join(parts) or "not reached"


# ---------------------------------------------------------------- main


def add_part_args(ap):
    """The options naming the three outside parts (see HOW_TO_GET)."""
    ap.add_argument("--firmware", help="MicroPython RPI_PICO firmware.elf ($CHIPBENCH_FIRMWARE)")
    ap.add_argument("--bootrom", help="the RP2040 bootrom.mjs ($CHIPBENCH_BOOTROM)")
    ap.add_argument("--rp2040js", help="node_modules holding rp2040js ($CHIPBENCH_RP2040JS)")


def ready_parts(args):
    """The outside parts and node, or None after saying on stderr what is
    missing and how to get it."""
    parts, missing = find_parts(args)
    if shutil.which("node") is None:
        missing.append("node: Node.js 18 or newer is not on PATH")
    if missing:
        print(missing_message(missing), file=sys.stderr)
        return None
    return parts


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Speed and heap of the game on an emulated Pico.")
    ap.add_argument("--board", default=DEFAULT_BOARD,
                    help="the board to stage (default %s; harness boards: %s)" % (
                        DEFAULT_BOARD, ", ".join(WIRING)))
    ap.add_argument("--freq", type=int, help="I2C frequency in Hz written into the staged "
                    "board file (I2C boards; default: the board's FREQ)")
    add_part_args(ap)
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--keep", metavar="DIR", help="keep the staged tree, images, scripts, the "
                    "harness output (shots, report.json, serial) and the simulator's shots")
    ap.add_argument("--seed", type=int, default=SEED, help="the dice seed (default %d)" % SEED)
    ap.add_argument("--no-heap", action="store_true", help="only the timing run")
    ap.add_argument("--parts", default=",".join(PARTS_ALL),
                    help="the parts of the course to run (default all: %s; a quick check: "
                    "menus)" % ",".join(PARTS_ALL))
    ap.add_argument("--frozen", action="store_true",
                    help="the firmware has the game frozen in (built with manifest.py): stage "
                    "only main.py, board.txt, tables/ and the title picture (deploy --frozen)")
    ap.add_argument("--slow", type=float, default=1.0, metavar="F",
                    help="scale every wait of the course by F (a slower tree: F > 1)")
    return ap.parse_args(argv)


def check_board(board, freq):
    """None, or why the board (or --freq on it) cannot be benchmarked."""
    if board in REFUSED:
        return "cannot benchmark %s: %s." % (board, REFUSED[board])
    if board not in WIRING:
        return "unknown board %r; the harness can model %s" % (board, ", ".join(WIRING))
    if freq is not None and board not in I2C_BOARDS:
        return "--freq is the I2C bus frequency; %s drives its display over SPI" % board
    if freq is not None and not 10_000 <= freq <= 1_000_000:
        return "--freq %d is outside 10 kHz .. 1 MHz" % freq
    return None


def write_sim_shots(course, folder, width, height):
    """The simulator's shots as PNGs beside the chip's (for --keep)."""
    from simulator.host import write_png

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, pixels in course.shots.items():
        rows = ["".join("#" if pixels[y * width + x] else "." for x in range(width))
                for y in range(height)]
        write_png(str(folder / (name + ".png")), rows, SCALE)


def main(argv=None):
    args = parse_args(argv)
    why = check_board(args.board, args.freq)
    if why:
        print("chipbench: " + why, file=sys.stderr)
        return 2
    if args.frozen and args.freq is not None:
        print("chipbench: --freq rewrites the staged board file, which a frozen firmware "
              "holds itself; build it with the FREQ wanted", file=sys.stderr)
        return 2
    wanted = tuple(p for p in args.parts.split(",") if p)
    if not wanted or set(wanted) - set(PARTS_ALL):
        print("chipbench: --parts takes some of %s" % ",".join(PARTS_ALL), file=sys.stderr)
        return 2
    parts = ready_parts(args)
    if parts is None:
        return 2
    log = (lambda *a: print(*a, file=sys.stderr)) if args.json else print
    t0 = time.time()
    bench = supports_bench()
    from simulator.host import board_profile

    profile = board_profile(args.board)
    width, height = profile.WIDTH, profile.HEIGHT
    log("chipbench: the course in the simulator (%s, seed %d)" % (args.board, args.seed))
    course = build_course(args.board, args.seed, slow=args.slow, parts=wanted)
    total = course.total_ms()
    log("chipbench: %d presses, %d shots, %.0f s emulated at most" % (
        len(course.presses), len(course.shots), total / 1000))
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="chipbench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        runs = {"timing": {"seed": args.seed, "profile": True, "heap": False}}
        if bench and not args.no_heap and "game" in wanted:
            runs["heap"] = {"seed": args.seed, "profile": False, "heap": True}
        if not bench:
            runs = {"timing": None}
            log("chipbench: this tree reads no bench.json: a boot.py seeds the dice; no @prof or "
                "@heap lines (only the harness's figures)")
        courses = {"timing": course}
        if "heap" in runs:
            courses["heap"] = build_course(args.board, args.seed, slow=args.slow * HEAP_SLOW,
                                           parts=PARTS_HEAP)
            log("chipbench: the heap run: %d presses (the game against the Master)" % len(
                courses["heap"].presses))
        jobs = {}
        for name, options in runs.items():
            script = work / ("course-%s.hil" % name)
            script.write_text(script_text(courses[name], serial=bench), encoding="utf-8")
            tree = work / ("stage-" + name)
            if tree.exists():
                shutil.rmtree(tree)
            stage_tree(args.board, tree, options, args.freq, args.seed, frozen=args.frozen)
            image = work / (name + ".img")
            pack_image(tree, image)
            out = work / name
            if out.exists():
                shutil.rmtree(out)
            max_ms = courses[name].total_ms() + (EXPECT_MS if bench else 0) + 60000
            jobs[name] = (hil_command(parts, args.board, image, script, out, max_ms, 3600), out)
        done = run_all(jobs, log)
        code, timing = done["timing"]
        if timing is None:
            print("chipbench: the timing run wrote no report (exit %d); see %s" % (
                code, work / "timing" / "hil.log"), file=sys.stderr)
            return 1
        heap = done.get("heap", (None, None))[1]
        res = analyse(course, timing, heap, work / "timing", width, height,
                      heap_course=courses.get("heap"))
        freq = args.freq or getattr(profile, "FREQ", None)
        res.update({
            "board": args.board, "freq": freq if args.board in I2C_BOARDS else None,
            "seed": args.seed, "tree": str(ROOT), "bench_json": bench,
            "wall_s": round(time.time() - t0, 1), "exit_codes": {k: v[0] for k, v in done.items()},
        })
        if code not in (0,):
            res["warnings"].append("the timing run ended with exit %d (%s)" % (
                code, timing.get("end_reason")))
        if res["tracebacks"]:
            res["warnings"].append("Python traceback(s) on the chip's serial: see %s" % (
                work / "timing" / "serial.txt"))
        res["frozen"] = args.frozen
        res["title"] = ("chipbench %s%s%s, seed %d, %s: %d presses, %.0f s emulated, "
                        "%.1f min wall") % (
            args.board, " (I2C %d kHz)" % (freq // 1000) if res["freq"] else "",
            ", game frozen into the firmware" if args.frozen else "", args.seed,
            ROOT, len(course.presses), (res["emulated_ms"] or 0) / 1000, res["wall_s"] / 60)
        if args.keep:
            for name, c in courses.items():
                write_sim_shots(c, work / ("sim-" + name), width, height)
        if args.json:
            print(json.dumps(res, indent=1))
        else:
            print(format_table(res))
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
