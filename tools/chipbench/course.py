"""The chipbench course: what to do on the chip, made by driving the simulator.

`build_course` drives the headless simulator (simulator.host.Sim, seeded
dice) through a fixed course, deciding key by key from the screen's state
(see the package docstring for the parts); the person plays as the tools'
scripted player (tools/mp/scripted_player.py). `script_text` writes the
course as a timeline for the harness tools/hil/hil.mjs.
"""

import shutil
import tempfile

from tools.mp.scripted_player import banks, chosen_keep

DEFAULT_BOARD = "pico_ssd1306_i2c"
SEED = 7
HOLD_MS = 80  # how long the chip's buttons are held

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
BOOT_SHOT_MS = 300  # power-on to the first shot: the title must be on the panel (issue 30)
TITLE_SHOT_MS = 700  # power-on to the shot of the title
WARMUP_PRESS_MS = 800  # a player's first press, while the game warms up (App.warm_up)
QUIET_MS = 250  # a computer is hurried only after its screen was still this long
TURN_END_MS = 1200  # after a computer's turn (a hurried step the chip missed catches up)
SOLVE_WAIT_MS = 60000  # the plan for custom rules, without @prof lines to wait for
GAME_PRESET = "farkle4000"  # the game against the Master: the preset with the lowest target
MAX_PRESSES = 600  # a course that does not end is a bug in the course


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

    def shot(self, name):
        """Keep what the simulator shows now; the chip takes a shot here too."""
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
        """One decision of the person on the play screen (the scripted
        player: take the scoring dice, bank from its BANK_AT or with fewer
        than 3 dice left; on every other turn the dice are picked one by one
        with the cursor)."""
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
            self.commit(play, banks(game))
            return
        if phase != "keep":
            raise CourseError("unknown phase %r" % phase)
        keep = chosen_keep(game)
        if self.selected() != keep:
            if self.picks_done % 2 == 0 and keep:
                self.pick_by_hand(game.roll, keep)
            self.picks_done += 1
            if self.selected() and self.selected() != keep:
                self.press("B", "pick")  # part of them: drop; UP or DOWN picks all
            self.shot("picked")
        if not self.commit(play, banks(game, keep)):
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
            due = self.play().bot_due  # firmware.clock.Due; the simulator's clock never wraps
            if (due.armed and due.at - sim.now < 250) or sim.now - drawn_at < QUIET_MS:
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
        """Title moves, rules & help with the odds page, settings, the
        new-game form, the rules editor, the statistics' list and the score
        pad (`forms`, `pad`): a cursor move, a value change and a screen
        change on each menu screen the chip has (the online screens are
        the page's only)."""
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
        for _ in range(3):
            c.press("DOWN", "cursor")  # scroll a line
        c.back()
        c.back(want="title")
        # Settings: move, change the contrast and back.
        c.open("settings_title", want="settings")
        c.press("DOWN", "cursor")
        c.values()
        c.shot("settings")
        c.press("DOWN", "cursor")
        c.press("UP", "cursor")
        c.back(want="title")
        c.forms()
        c.pad()

    def forms(self):
        """The new-game form and the rules editor (moves and value changes
        that change nothing in the end), the statistics' list."""
        c = self
        c.open("new_game", want="setup")
        c.press("DOWN", "cursor")
        c.press("DOWN", "cursor")
        c.values()
        c.shot("setup_form")
        c.move_to(0)
        if c.press("A", "screen") != "rules_edit":
            raise CourseError("A on the rules row gave %r" % c.screen())
        c.press("DOWN", "cursor")
        c.press("DOWN", "cursor")
        c.values()
        c.shot("rules_form")
        c.back(want="setup")
        c.back(want="title")
        c.open("stats_title", want="stats")
        for key in ("DOWN", "DOWN", "UP", "UP"):
            c.press(key, "cursor")
        c.back(want="title")

    def values(self):
        """Four value changes on the row: there and back, twice (the value
        stays)."""
        for key in ("RIGHT", "LEFT", "RIGHT", "LEFT"):
            self.press(key, "value")

    def pad(self):
        """The score pad: its form (moves, a value change), a pad started,
        points set with UP/DOWN, its menu (B) and overview, back to the title."""
        c = self
        c.open("pad_title", want="pad_setup")
        c.press("DOWN", "cursor")
        c.values()
        c.press("UP", "cursor")
        c.move_to(len(c.labels()) - 1)
        if c.press("A", "screen") != "pad":
            raise CourseError("the pad form's start gave %r" % c.screen())
        for key in ("UP", "UP", "DOWN", "UP"):
            c.press(key, "value")
        c.shot("pad")
        c.back(want="pad_menu")
        c.move_to(c.find("pad_menu_overview"))
        if c.press("A", "screen") != "pad_table":
            raise CourseError("the pad menu's overview gave %r" % c.screen())
        if c.press("A", "screen") != "pad_menu":
            raise CourseError("A on the pad's overview gave %r" % c.screen())
        c.press("DOWN", "cursor")
        c.move_to(c.find("to_title"))
        if c.press("A", "screen") != "title":
            raise CourseError("the pad menu's 'to title' gave %r" % c.screen())

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
        solved on the device when the game starts ("Los": the form says
        so), with the heap as the course left it."""
        c = self
        c.open("new_game", want="setup")
        c.move_to(0)
        c.press("A", "screen")
        if c.screen() != "rules_edit":
            raise CourseError("A on the rules row gave %r" % c.screen())
        from firmware.screens.rules_edit import ROWS

        # Three pairs 2000: a scoring the Expert's plan depends on (a tie
        # rule alone finds the shipped plan: engine.rules.PLAN_FREE).
        c.move_to(ROWS.index("three_pairs"))
        c.press("RIGHT", "value")
        c.shot("rules_edit")
        c.open("rules_use", want="setup")
        from firmware.screens.setup import TARGETS

        c.value(c.app.t("target") + ":", lambda: c.form("target") == min(TARGETS))
        c.value("2 ", lambda: c.form("seats")[1][1] == "meister")
        c.move_to(len(c.labels()) - 1)  # the start row: it says how long the solve takes
        if not c.labels()[-1].startswith(c.app.t("start_solve").split("%")[0]):
            raise CourseError("the form does not say a solve is due: %r" % c.labels()[-1])
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
        # The boot shot: the title on the panel within BOOT_SHOT_MS (the
        # kept picture, firmware.splash); analysis.boot_ms finds when.
        c.run(BOOT_SHOT_MS)
        c.shot("boot")
        c.run(TITLE_SHOT_MS - c.total_ms())
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
    out = ["# tools.chipbench: %d presses (%s), %d shots" % (
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

