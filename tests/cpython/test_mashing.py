"""Button mashing: random presses through the simulator, a soak (tests/soak.py):
15000 in make test, 50000 in make soak (MASH=N sets the presses per seed;
20000 gives the 100000 run of earlier stops).

The issues' soak of many short runs is the same walk on more seeds:
MASH_RUNS=300 MASH=600 runs seeds 1..300 with 600 presses each (both
layouts in turn), goes on after a failing run and prints the presses,
runs, resumes (power cycles onto a title that offers Continue: a game or
a pad to go back to) and the failures:

    MASH_RUNS=300 MASH=600 .venv/bin/pytest -q -s tests/cpython/test_mashing.py::test_mashing

Each seed starts a fresh handheld at the title screen and presses random
buttons (A and the arrows most often, some B, now and then a long hold with
auto-repeat and the long press, a chord of two buttons, a wait that lets the
computers play, or a power cycle). The random walk goes through the new-game
form, name typing, play, standings, hand-overs, winners and Continue.

After every press:
- nothing raised and `Sim.state()` works,
- every game on the screen stack keeps the engine's invariants,
- with the play screen on top, the saved game reloads with
  `Session.load_game` and equals the game in memory (the app saves after
  every decision; a computer's keep that is shown but not applied has not
  changed the game either, so the two always agree).

Speed: presses are real (held at least Buttons.DEBOUNCE_MS, released for at
least as long), but the app is stepped only when something happens (press,
release, timer frames while waiting or holding). The store is a MemFS (no
fsync per save), and the pure-Python framebuf stand-in draws for real on
one press in REAL_EVERY only: otherwise its drawing calls (which take most
of the time) return at once; the screens' draw code runs in full on every
redraw.
"""

import random
import types

import pytest

from engine.rules import Rules
from firmware import buttons
from firmware.store import DirFS
from simulator import host
from tests import soak
from tools.fakes.memfs import MemFS

_RUNS = int(__import__("os").environ.get("MASH_RUNS", 0))
SEEDS = tuple(range(1, _RUNS + 1)) if _RUNS else (1, 2, 3, 4, 5)
# Per seed: 15000 in total in make test (about 25 s on an idle core), 50000 in
# make soak (80 s; 100000 took 5.6 minutes of a CI run).
PRESSES = int(__import__("os").environ.get("MASH", soak.length(3000, 10000)))
PHASES = ("start", "keep", "decide", "farkle", "over")
KEYS = ("A", "UP", "DOWN", "LEFT", "RIGHT", "B")
WEIGHTS = (30, 14, 14, 12, 14, 9)
DATA = "/mashing-data"  # the MemFS stands in for this folder


STANDIN = host.framebuf


class QuickCanvas(STANDIN.FrameBuffer):
    """The framebuf stand-in that draws only while `real` is set (the masher
    sets it for one press in REAL_EVERY); otherwise drawing calls return at
    once."""

    real = True


def _quick(name):
    full = getattr(STANDIN.FrameBuffer, name)

    def method(self, *args):
        if QuickCanvas.real:
            return full(self, *args)
        return None

    method.__name__ = name
    return method


for _name in ("fill", "fill_rect", "rect", "hline", "vline", "line", "pixel", "blit", "text"):
    setattr(QuickCanvas, _name, _quick(_name))
REAL_EVERY = 16


@pytest.fixture
def quick_sim(monkeypatch):
    """A Sim factory on one MemFS per call of `make(fs)`."""
    monkeypatch.setattr(host, "framebuf", types.SimpleNamespace(
        FrameBuffer=QuickCanvas, MONO_VLSB=STANDIN.MONO_VLSB))
    disks = {}
    monkeypatch.setattr(host, "DirFS", lambda path: disks[path] if path in disks else DirFS(path))

    def make(fs, board, seed):
        disks[DATA] = fs
        return host.Sim(board, DATA, seed)

    return make


def check_game(game):
    """The engine's invariants on a game in memory."""
    assert game.phase in PHASES
    rules = game.rules
    assert 0 <= game.current < len(game.seats)
    for seat in game.seats:
        assert seat.score >= 0 and seat.score % 50 == 0, seat.score
        assert seat.best_turn % 50 == 0
    for points in (game.turn_total, game.lost):
        assert points >= 0 and points % 50 == 0, points
    if game.offer is not None:
        assert game.offer[0] > 0 and game.offer[0] % 50 == 0
    assert len(game.roll) + len(game.aside) <= rules.dice
    assert all(1 <= d <= 6 for d in game.roll + game.aside)
    assert (game.phase == "over") == (game.winner >= 0)
    if game.phase != "over":
        assert game.seat().active
    if game.phase in ("keep", "farkle"):
        assert game.roll
    if game.phase == "keep":
        assert game.valid_keeps()
    if rules.exact:
        for seat in game.seats:
            assert seat.score <= rules.target


class Masher:
    """Random button presses on one Sim."""

    def __init__(self, make, board, seed):
        self.make = make
        self.board = board
        self.seed = seed
        self.rng = random.Random(seed)
        self.fs = MemFS()
        self.sim = make(self.fs, board, seed)
        self.seen = {}
        self.saves_checked = 0
        self.winners = 0
        self.restarts = 0
        self.resumes = 0  # power cycles onto a title that offers Continue
        self.presses = 0

    def _hold(self, bits, hold_ms, frame_ms):
        """Hold `bits` for `hold_ms` (stepping every `frame_ms`), then release."""
        sim = self.sim
        sim.held = bits
        sim.step(0)
        left = hold_ms
        while left > 0:
            ms = min(frame_ms, left)
            sim.step(ms)
            left -= ms
        sim.held = 0
        sim.step(self.rng.randint(buttons.Buttons.DEBOUNCE_MS, 120))

    def one(self):
        """One random action: mostly a short press."""
        rng = self.rng
        QuickCanvas.real = rng.randrange(REAL_EVERY) == 0
        r = rng.random()
        key = rng.choices(KEYS, WEIGHTS)[0]
        bit = buttons.BITS[key]
        self.presses += r >= 0.0915 or r < 0.09
        if r < 0.03:  # a long hold: auto-repeat on arrows, the long press on all
            self._hold(bit, rng.randint(600, 1500), 40)
        elif r < 0.04:  # a chord
            other = buttons.BITS[rng.choice(KEYS)]
            self._hold(bit | other, rng.randint(20, 150), 200)
        elif r < 0.09:  # wait: computers play, animations end, then press
            self.sim.run(rng.randint(200, 4000))
            self._hold(bit, rng.randint(20, 120), 200)
        elif r < 0.0915:  # power cycle: a new handheld on the same flash
            self.sim = self.make(self.fs, self.board, rng.randrange(1 << 30))
            self.restarts += 1
            app = self.sim.app
            if app.top().name == "title" and app.top().labels(app)[0] == app.t("continue"):
                self.resumes += 1
        else:
            self._hold(bit, rng.randint(buttons.Buttons.DEBOUNCE_MS, 120), 200)

    def check(self):
        """The checks after a press (see the module docstring)."""
        app = self.sim.app
        state = self.sim.state()
        name = state["screen"]
        self.seen[name] = self.seen.get(name, 0) + 1
        if name == "winner":
            self.winners += 1
        for screen in app.stack:
            game = getattr(screen, "game", None)
            if game is not None:
                check_game(game)
        top = app.top()
        if name == "pad":  # the score pad: saved after every entry, like a game
            from engine.scorepad import ScorePad
            from firmware.files import KIND_PAD

            data, _note = app.session.store.load("pad", KIND_PAD)
            assert ScorePad.from_data(data).to_data() == top.pad.to_data()
            assert all(s.score >= 0 and s.score % 50 == 0 for s in top.pad.seats)
        if name != "play":
            return
        game = top.game
        saved, _note = app.session.load_game(None)
        assert saved.to_data() == game.to_data(), (saved.to_data(), game.to_data())
        self.saves_checked += 1
        assert state["phase"] == game.phase


@pytest.mark.soak
def test_mashing(quick_sim):
    totals = {}
    checked = winners = restarts = resumes = presses = 0
    failures = []
    for seed in SEEDS:
        board = "thumby" if seed % 2 == 0 else "pico_ssd1306_i2c"
        m = Masher(quick_sim, board, seed)
        for n in range(PRESSES):
            try:
                m.one()
                m.check()
            except Exception as e:
                try:
                    where = m.sim.state()["screen"]
                except Exception:
                    where = "?"
                failures.append("seed %d press %d on %s: %r" % (seed, n, where, e))
                break
        for k, v in m.seen.items():
            totals[k] = totals.get(k, 0) + v
        checked += m.saves_checked
        winners += m.winners
        restarts += m.restarts
        resumes += m.resumes
        presses += m.presses
    print("screens after presses:", totals, "saves checked:", checked, "winner views:", winners,
          "restarts:", restarts)
    print("runs: %d, presses: %d, power cycles: %d, resumes: %d, failures: %d" % (
        len(SEEDS), presses, restarts, resumes, len(failures)))
    assert not failures, failures
    for name in ("title", "setup", "order", "names", "typer", "play", "handover", "standings",
                 "winner", "pad", "pad_menu", "stats", "settings"):
        assert totals.get(name), "never reached %s: %s" % (name, totals)
    for name in ("help", "text", "rules_edit", "tips_pick", "join", "seat_pick"):
        assert totals.get(name), "never reached %s: %s" % (name, totals)
    assert checked > presses // 5  # the play screen is a good part of the walk


def test_check_game_catches_a_bad_total():
    from engine.dice import SeededDice
    from engine.game import Game

    game = Game(Rules(), ["a", "b"], SeededDice(1))
    check_game(game)
    game.seats[1].score = 120
    with pytest.raises(AssertionError):
        check_game(game)


class HandOverWatch(host.Sim):
    """A Sim that checks after every step that a due hand-over shows."""

    def step(self, ms=0):
        """Sim.step, then: no person's turn begins without the hand-over."""
        drew = host.Sim.step(self, ms)
        top = self.app.top()
        if top.name == "play":
            game = top.game
            assert not (game.phase == "start" and not game.seat().is_bot
                        and top.handed != game.events_total
                        and len(game.active_seats()) > 1), "hand-over due but not shown"
        return drew


def test_hand_over_shows_in_the_step_the_computer_finishes(tmp_path):
    """A press just after a computer's last move must reach the hand-over,
    never the play screen (where A would roll at once)."""
    from tests.cpython.simdriver import new_game, play_to_end

    sim = HandOverWatch("pico_ssd1306_i2c", str(tmp_path), 12)
    new_game(sim, "farkle4000", ["", "mutig"])
    state, _ = play_to_end(sim)
    assert state["screen"] == "winner"
