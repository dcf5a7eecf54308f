"""Power cuts: between steps, inside a save, and a damaged save file.

1. Whole games by key presses (tests/cpython/simdriver.py), with the Sim
   thrown away at random steps and a new one built on the same data folder:
   after Continue the game (engine data, dice on the table, totals) is the
   one in memory before the cut. The only exception is a cut before the
   first save of a new game (or after the last game ended): then there is
   no game to continue, and the title offers none.
2. A cut inside the save of one decision, at every file operation (with and
   without a torn write), on a MemFS: after power-on the game loads and is
   the state before the decision or the state after it, never damaged.
3. The state after each littlefs commit of a save (create, data, rename to
   .bak, rename into place), of the first save of a game and of a later
   one: the title offers Continue exactly when a game can be loaded, and
   Continue brings back the newest complete state without any message.
4. A damaged main file: Continue loads the last good copy and says so on a
   Message screen; with every copy damaged a Message reports it. No crash.
"""

import random

import pytest

from firmware import strings
from simulator.host import Sim
from tests.cpython.simdriver import Cut, CutSim, new_game, person_turn_step, press
from tools.fakes.memfs import MemFS, PowerCut

BOARD = "pico_ssd1306_i2c"


def find(app, name):
    """The screen called `name` on the app's stack, or None."""
    for screen in app.stack:
        if screen.name == name:
            return screen
    return None


def snapshot(app):
    """What Continue must bring back: the game in memory, or None when no
    game is running (not started or already decided)."""
    play = find(app, "play")
    if play is None or play.game.phase == "over":
        return None
    game = play.game
    return {"engine": game.to_data(), "roll": list(game.roll), "aside": list(game.aside),
            "turn_total": game.turn_total, "scores": [s.score for s in game.seats]}


def continue_game(sim):
    """From the title of a fresh Sim: Continue; the Play screen."""
    assert sim.state()["screen"] == "title"
    assert sim.app.top().labels(sim.app)[0] == sim.app.t("continue")
    press(sim, "A")
    play = find(sim.app, "play")
    assert play is not None, sim.state()
    return play


def advance(sim, rng, kinds):
    """One step of a player who plays games to the end and starts new ones
    (may raise Cut); True when a game was decided."""
    state = sim.state()
    screen = state["screen"]
    if screen == "title":
        while sim.state()["index"]:
            press(sim, "UP")
        if sim.app.session.has_game():
            press(sim, "A")  # Continue
        else:
            new_game(sim, rng.choice(("zehntausend", "fuenf", "farkle4000")), kinds)
    elif screen == "winner":
        press(sim, "A")
        return True
    elif screen in ("handover", "message"):
        press(sim, "A")
    elif screen == "standings":
        press(sim, "B")
    elif screen == "play":
        if state["phase"] == "over" or state["engine"][1][state["current"]][1]:
            sim.run(rng.choice((100, 300, 700)))
        else:
            person_turn_step(sim, state, [])
    else:
        raise AssertionError("unexpected screen %r" % screen)
    return False


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_power_cut_between_steps(seed, tmp_path):
    rng = random.Random(seed)
    kinds = ["", "profi"] if seed % 2 else ["", "mutig", ""]
    sim = CutSim(BOARD, str(tmp_path), seed)
    games = cuts = resumed = 0
    while games < 2:
        sim.steps_left = rng.randint(1, 600)
        try:
            while True:
                if advance(sim, rng, kinds):
                    games += 1
                    if games == 2:
                        break
        except Cut:
            cuts += 1
            before = snapshot(sim.app)
            sim = CutSim(BOARD, str(tmp_path), rng.randrange(1 << 30))  # power back on
            if before is None:
                assert not sim.app.session.has_game()
                assert sim.app.top().labels(sim.app)[0] != sim.app.t("continue")
                continue
            game = continue_game(sim).game
            after = {"engine": game.to_data(), "roll": list(game.roll),
                     "aside": list(game.aside), "turn_total": game.turn_total,
                     "scores": [s.score for s in game.seats]}
            assert after == before
            resumed += 1
    print("seed", seed, "cuts", cuts, "resumed", resumed)
    assert cuts >= 5 and resumed >= 3, (cuts, resumed)


# ------------------------------------------------------------ inside a save


def to_person_keep(sim):
    """Play on (person: roll, pass, bank at once) until the person has dice
    to keep on the play screen."""
    for _ in range(2000):
        state = sim.state()
        screen = state["screen"]
        if screen in ("handover", "message"):
            press(sim, "A")
        elif screen == "play" and state["engine"][1][state["current"]][1]:
            sim.run(300)
        elif screen == "play" and state["phase"] == "keep":
            return
        elif screen == "play":
            press(sim, "A" if state["phase"] in ("start", "farkle") else "DOWN")
        else:
            raise AssertionError(screen)
    raise AssertionError("no keep reached")


def game_data(sim):
    return find(sim.app, "play").game.to_data()


def test_power_cut_inside_a_save(mem_sim):
    fs = MemFS()
    sim = mem_sim(fs, 4)
    new_game(sim, "zehntausend", ["", "mutig"])
    to_person_keep(sim)
    files = dict(fs.files)
    before = game_data(sim)

    def decide(seed, cut=None, torn=None):
        """Power on with `files`, Continue, keep all scoring dice and roll on."""
        disk = MemFS(files)
        s = mem_sim(disk, seed)
        continue_game(s)
        to_person_keep(s)  # the hand-over, if any
        assert game_data(s) == before
        press(s, "UP")  # every scoring die picked; asks "roll on?"
        start = disk.ops
        if cut is not None:
            disk.power_cut_after(cut, torn)
        try:
            press(s, "UP")
        except PowerCut:
            return disk, None, None
        return disk, game_data(s), disk.ops - start

    _, after, ops = decide(77)
    assert after != before and ops >= 4
    outcomes = {"before": 0, "after": 0}
    for n in range(ops + 1):
        for torn in (None, 0, 5, 40):
            disk, _, _ = decide(77, n, torn)
            assert disk.off or n == ops
            disk.power_on()
            again = mem_sim(disk, 5)
            screen = again.state()["screen"]
            assert screen == "title"
            play = continue_game(again)
            loaded = play.game.to_data()
            assert loaded in (before, after), n
            outcomes["before" if loaded == before else "after"] += 1
            assert find(again.app, "message") is None  # nothing was lost: no alarm
    print("save of", ops, "operations, cut at each with 4 tear modes:", outcomes)
    assert outcomes["before"] and outcomes["after"], outcomes


# ------------------------------------------------------------ each commit of a save


def test_cut_after_each_commit_of_a_save(mem_sim):
    """littlefs commits a save in four steps: game.new created (empty), its
    data, game -> game.bak, game.new -> game. A cut after any of them, in
    the first save of a game or a later one, never shows a false "damaged"
    or "older" message and never offers a game that is not there."""
    fs = MemFS()
    sim = mem_sim(fs, 8)
    new_game(sim, "zehntausend", ["", "mutig"])
    first, second = two_decisions(sim)
    older, newer = fs.files["game.bak"], fs.files["game"]
    base = {k: v for k, v in fs.files.items() if not k.startswith("game")}
    cases = (
        # the first save of a game: nothing before it
        ("first: created", {"game.new": b""}, None),
        ("first: data cut short", {"game.new": newer[:9]}, None),
        ("first: data", {"game.new": newer}, second),
        ("first: in place", {"game": newer}, second),
        # a later save over `older`
        ("later: created", {"game": older, "game.new": b""}, first),
        ("later: data cut short", {"game": older, "game.new": newer[:9]}, first),
        ("later: data", {"game": older, "game.new": newer}, first),
        ("later: to .bak", {"game.bak": older, "game.new": newer}, second),
        ("later: in place", {"game.bak": older, "game": newer}, second),
    )
    for what, files, expected in cases:
        files = dict(base, **files)
        again = mem_sim(MemFS(files), 9)
        offered = again.app.top().labels(again.app)[0] == again.app.t("continue")
        assert offered == (expected is not None), what
        assert again.app.session.has_game() == offered, what
        if not offered:
            continue
        press(again, "A")
        assert find(again.app, "message") is None, (what, again.state())
        assert game_data(again) == expected, what


# ------------------------------------------------------------ damaged files


def two_decisions(sim):
    """Two decisions of the person in a row (keep all and roll on, twice, no
    other save between them); the game data after each."""
    for _ in range(100):
        to_person_keep(sim)
        press(sim, "UP", "UP")
        first = game_data(sim)
        if sim.state()["phase"] == "keep":
            press(sim, "UP", "UP")
            return first, game_data(sim)
    raise AssertionError("no two decisions in a row")


def test_damaged_main_file_loads_the_last_good_copy(mem_sim):
    fs = MemFS()
    sim = mem_sim(fs, 8)
    new_game(sim, "zehntausend", ["", "mutig"])
    first, second = two_decisions(sim)
    assert first != second
    fs.damage("game", flip=len(fs.files["game"]) // 2)
    again = mem_sim(fs, 9)
    press(again, "A")  # Continue
    state = again.state()
    assert state["screen"] == "message"
    assert state["title"] == strings.text("de", "older_copy")
    assert find(again.app, "play").game.to_data() == first
    press(again, "A")
    assert again.state()["screen"] in ("play", "handover")
    assert game_data(again) == first


def test_every_copy_damaged_is_reported(mem_sim):
    fs = MemFS()
    sim = mem_sim(fs, 8)
    new_game(sim, "zehntausend", ["", "mutig"])
    two_decisions(sim)
    for name in list(fs.files):
        if name.startswith("game"):
            fs.damage(name, truncate=7)
    again = mem_sim(fs, 9)
    press(again, "A")
    state = again.state()
    assert state["screen"] == "message"
    assert state["title"] == strings.text("de", "save_damaged")
    assert find(again.app, "play") is None
    press(again, "A")
    assert again.state()["screen"] == "title"
    # A new game replaces the damaged files.
    new_game(again, "zehntausend", ["", "mutig"])
    assert again.app.session.load_game(None)[0].to_data() == game_data(again)


def test_damaged_file_on_disk(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 3)
    new_game(sim, "zehntausend", ["", "profi"])
    first, _second = two_decisions(sim)
    path = tmp_path / "game"
    data = bytearray(path.read_bytes())
    data[-1] ^= 0x55
    path.write_bytes(bytes(data))
    again = Sim(BOARD, str(tmp_path), 4)
    press(again, "A")
    assert again.state()["screen"] == "message"
    assert again.state()["title"] == strings.text("de", "older_copy")
    press(again, "A")
    assert game_data(again) == first
