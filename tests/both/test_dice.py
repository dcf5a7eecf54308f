"""Dice sources of engine.dice: rejection sampling, seeds, scripts, sanity checks."""

from engine.dice import ByteDice, ScriptedDice, SeededDice, source_looks_stuck
from tests.both.helpers import raises

# SeededDice(7)(12), checked to be the same under CPython and MicroPython.
SEED_7 = [1, 5, 4, 3, 3, 6, 4, 6, 5, 3, 2, 2]


def _reader(data):
    """A `read(n)` over fixed bytes; returns b'' once they are used up."""
    data = bytes(data)
    pos = [0]

    def read(n):
        out = data[pos[0]:pos[0] + n]
        pos[0] += len(out)
        return out

    return read


def test_bytes_252_to_255_rejected():
    assert ByteDice(_reader([252, 253, 254, 255, 0])).face() == 1


def test_byte_to_face():
    assert ByteDice(_reader([5])).face() == 6
    assert ByteDice(_reader([251])).face() == 6  # 251 % 6 == 5
    assert ByteDice(_reader([0, 1, 2, 3, 4, 5]))(6) == [1, 2, 3, 4, 5, 6]


def test_chunks_keep_unused_bytes():
    calls = []
    inner = _reader([0, 1, 2, 3, 4, 5])

    def read(n):
        calls.append(n)
        return inner(n)

    dice = ByteDice(read, chunk=4)
    assert dice(5) == [1, 2, 3, 4, 5]
    assert calls == [4, 4]


def test_empty_source_raises():
    raises(ValueError, ByteDice(_reader([])).face)
    raises(ValueError, ByteDice(_reader([255, 254])).face)


def test_every_byte_once_is_uniform():
    dice = ByteDice(_reader(range(256)), chunk=7)
    counts = [0] * 7
    for face in dice(252):
        counts[face] += 1
    assert counts[1:] == [42] * 6
    raises(ValueError, dice.face)  # 252..255 gave no faces


def test_plain_modulo_would_be_biased():
    counts = [0] * 7
    for b in range(256):
        counts[b % 6 + 1] += 1
    assert counts[1:] == [43, 43, 43, 43, 42, 42]


def test_seeded_known_sequence():
    assert SeededDice(7)(12) == SEED_7


def test_seeded_deterministic():
    assert SeededDice(7)(50) == SeededDice(7)(50)
    assert SeededDice(7)(50) != SeededDice(8)(50)


def test_seed_zero_not_stuck():
    faces = SeededDice(0)(60)
    assert len(set(faces)) == 6


def test_state_round_trip():
    dice = SeededDice(7)
    dice(3)
    state = dice.state
    first = dice(20)
    dice.state = state
    assert dice(20) == first
    assert SeededDice(7)(23)[3:] == first


def test_faces_in_range():
    dice = SeededDice(12345)
    counts = [0] * 7
    for face in dice(600):
        assert type(face) is int and 1 <= face <= 6
        counts[face] += 1
    assert counts[0] == 0 and min(counts[1:]) > 0


def test_scripted_dice():
    dice = ScriptedDice([1, 2, 3])
    assert dice(2) == [1, 2]
    raises(ValueError, dice, 2)
    assert dice(1) == [3]
    raises(ValueError, dice, 1)


def test_source_looks_stuck():
    assert source_looks_stuck(bytes(64)) is True
    assert source_looks_stuck(bytes([7]) * 64) is True
    assert source_looks_stuck(bytes([0, 255]) * 32) is True
    assert source_looks_stuck(bytes(range(64))) is False
    raises(ValueError, source_looks_stuck, bytes(63))
    raises(ValueError, source_looks_stuck, b"")
