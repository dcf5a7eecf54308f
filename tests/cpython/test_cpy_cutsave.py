"""tools.cpy_cutsave: the parts that need no chip (the timeline cut short, the last save's
flash operations, the game loaded from a drive's /data as the device loads it)."""

from engine.codec import pack
from firmware.files import BAK, GAME, KIND_GAME, NEW
from tools import cpy_cutsave


class Course:
    presses = [{"kind": "cursor"}] * 3
    shots = {}
    steps = [{"op": "press", "n": i, "kind": "cursor", "screen": "title", "key": k}
             for i, k in enumerate(("DOWN", "UP", "A"))]


def test_the_timeline_stops_after_the_presses_asked_for():
    lines = cpy_cutsave.cut_script(Course(), 2, tail_ms=1234).splitlines()
    assert [line for line in lines if line.startswith("press")] == ["press DOWN 80",
                                                                     "press UP 80"]
    assert lines[-1] == "wait 1234"


def test_the_last_burst_is_the_trailing_run_of_close_operations():
    ops = [{"n": 1, "at_ms": 100}, {"n": 2, "at_ms": 150}, {"n": 3, "at_ms": 2000},
           {"n": 4, "at_ms": 2100}, {"n": 5, "at_ms": 2399}]
    assert [op["n"] for op in cpy_cutsave.last_burst(ops, gap_ms=300)] == [3, 4, 5]
    assert cpy_cutsave.last_burst([]) == []
    assert [op["n"] for op in cpy_cutsave.last_burst(ops[:3], gap_ms=300, after_ms=120)] == [3]
    assert cpy_cutsave.last_burst(ops[:2], after_ms=500) == []  # the boot's writes only


def test_the_game_loads_from_the_main_copy_a_complete_new_one_or_the_backup():
    game = [1, ["Anna", "Master"], 350]
    blob = pack(game, KIND_GAME)
    assert cpy_cutsave.load_game({GAME: blob}) == (game, None)
    assert cpy_cutsave.load_game({GAME + NEW: blob}) == (game, None)
    value, note = cpy_cutsave.load_game({GAME: blob[:5], GAME + BAK: blob})
    assert value == game and note
    assert cpy_cutsave.load_game({}) == (None, "no save")
    value, note = cpy_cutsave.load_game({GAME: b"\xff" * 40})
    assert value is None and note.startswith("damaged")
