"""The board contract over every boards/*.py: the required keys of every
board and of its bus, only known keys, the right types, GPIO numbers the
RP2040 has and no pin used twice; the loader (firmware.board.load_board)
refuses a key it does not know, naming the file and the key."""

import sys
import types
from pathlib import Path

import pytest

from firmware import board as board_mod
from tools import deploy

ROOT = Path(__file__).resolve().parents[2]
BOARDS = deploy.board_names()

PIN = "pin"  # a GPIO number 0..29 (the RP2040 has GPIO 0 to 29)
PIN_OR_NONE = "pin or None"
REQUIRED = {
    "DISPLAY": ("ssd1306", "sh1106"),
    "BUS": ("i2c", "spi", "auto"),
    "WIDTH": int,
    "HEIGHT": int,
    "BUTTONS": dict,
    "BUZZER": PIN_OR_NONE,
    "VSYS_ADC": PIN_OR_NONE,
}
I2C = {"I2C_ID": (0, 1), "SDA": PIN, "SCL": PIN, "ADDR": int}
SPI = {"SPI_ID": (0, 1), "SCK": PIN, "MOSI": PIN, "CS": PIN, "DC": PIN}
BUS = {"i2c": I2C, "spi": SPI, "auto": {**I2C, **SPI, "ID_PINS": tuple}}
OPTIONAL = {
    "FREQ": int,
    "BAUDRATE": int,
    "RES": PIN,
    "I2C_RES": PIN,
    "COLUMN_OFFSET": int,
    "DISPLAY_INIT": tuple,
    "CONTRAST_MAX": int,
    "DIE_KEYS": tuple,  # (the CircuitPython host's extras: firmware/board.py)
    "ENCODER": tuple,
    "PIXELS": PIN,
    "SPEAKER_ENABLE": PIN,
}
BUTTON_KEYS = {"UP", "DOWN", "LEFT", "RIGHT", "A", "B"}
# Pins that only one part may use; the Thumby's SPI and I2C wiring share
# GPIO 16-18 (a unit has one or the other), so each bus is checked alone.
BUS_PINS = {"i2c": ("SDA", "SCL", "I2C_RES"), "spi": ("SCK", "MOSI", "CS", "DC", "RES")}


def _is_pin(v):
    return type(v) is int and 0 <= v <= 29


def _check(key, value, kind):
    """An error text, or None when `value` fits `kind`."""
    if kind == PIN:
        ok = _is_pin(value)
    elif kind == PIN_OR_NONE:
        ok = value is None or _is_pin(value)
    elif isinstance(kind, tuple):
        ok = value in kind
    else:
        ok = type(value) is kind
    return None if ok else "%s = %r is not %s" % (key, value, getattr(kind, "__name__", kind))


def _keys(module):
    return {k for k in vars(module) if not k.startswith("_")}


def test_boards_are_found_the_way_deploy_finds_them():
    on_disk = sorted(p.stem for p in (ROOT / "boards").glob("*.py") if p.stem != "__init__")
    assert BOARDS == on_disk and "pico_ssd1306_i2c" in BOARDS and "thumby" in BOARDS


def test_the_firmware_knows_exactly_the_contracts_keys():
    every = set(REQUIRED) | set(OPTIONAL)
    for keys in BUS.values():
        every |= set(keys)
    assert set(board_mod.KEYS) == every


@pytest.mark.parametrize("name", BOARDS)
def test_every_board_keeps_the_contract(name):
    board = board_mod.load_board(name)
    keys = _keys(board)
    need = dict(REQUIRED)
    need.update(BUS[board.BUS])
    missing = set(need) - keys
    assert not missing, "boards/%s.py lacks %s" % (name, sorted(missing))
    unknown = keys - set(need) - set(OPTIONAL)
    assert not unknown, "boards/%s.py: unknown keys %s" % (name, sorted(unknown))
    errors = [_check(k, getattr(board, k), kind)
              for k, kind in list(need.items()) + list(OPTIONAL.items()) if hasattr(board, k)]
    assert [e for e in errors if e] == [], name
    assert 8 <= board.WIDTH <= 128 and 8 <= board.HEIGHT <= 64 and board.HEIGHT % 8 == 0
    assert set(board.BUTTONS) == BUTTON_KEYS
    assert all(_is_pin(p) for p in board.BUTTONS.values())
    offset = getattr(board, "COLUMN_OFFSET", 0)
    columns = 132 if board.DISPLAY == "sh1106" else 128
    assert 0 <= offset and offset + board.WIDTH <= columns
    assert 0x08 <= getattr(board, "ADDR", 0x3C) <= 0x77
    assert all(type(b) is int and 0 <= b <= 0xFF for b in getattr(board, "DISPLAY_INIT", ()))
    assert 1 <= getattr(board, "CONTRAST_MAX", 255) <= 255
    if board.BUS == "auto":
        assert board.ID_PINS and all(_is_pin(p) for p in board.ID_PINS)
    extras = list(getattr(board, "DIE_KEYS", ())) + list(getattr(board, "ENCODER", ()))
    assert all(_is_pin(p) for p in extras)
    assert len(getattr(board, "DIE_KEYS", (0,) * 6)) == 6  # a key per die
    assert len(getattr(board, "ENCODER", (0,) * 3)) == 3  # A, B, the switch
    # No GPIO serves two parts (per bus: the Thumby wires one bus or the other).
    shared = list(board.BUTTONS.values()) + [getattr(board, k) for k in ("BUZZER", "VSYS_ADC")]
    shared += list(getattr(board, "ID_PINS", ())) + extras
    shared += [getattr(board, k, None) for k in ("PIXELS", "SPEAKER_ENABLE")]
    shared = [p for p in shared if p is not None]
    for bus in (("i2c", "spi") if board.BUS == "auto" else (board.BUS,)):
        pins = shared + [getattr(board, k) for k in BUS_PINS[bus] if hasattr(board, k)]
        assert len(pins) == len(set(pins)), "boards/%s.py uses a GPIO twice on %s" % (name, bus)


def _fake_board(name, **keys):
    """Put a board module `boards.<name>` with `keys` where the loader finds it."""
    import boards

    module = types.ModuleType("boards." + name)
    module.__dict__.update(keys)
    sys.modules["boards." + name] = module
    setattr(boards, name, module)
    return module


def test_the_loader_refuses_an_unknown_key():
    good = {k: v for k, v in vars(board_mod.load_board("thumby")).items()
            if not k.startswith("_")}
    try:
        _fake_board("typo_board", **good)
        assert board_mod.load_board("typo_board").WIDTH == 72  # a copy of the Thumby loads
        _fake_board("typo_board", BUTTON=good["BUTTONS"], **good)
        with pytest.raises(ValueError) as e:
            board_mod.load_board("typo_board")
        assert str(e.value) == "boards/typo_board.py: unknown key BUTTON (see firmware/board.py)"
    finally:
        import boards

        sys.modules.pop("boards.typo_board", None)
        if hasattr(boards, "typo_board"):
            delattr(boards, "typo_board")


def test_the_simulator_runs_every_board_and_names_them_for_an_unknown_one(tmp_path, capsys):
    from simulator import __main__ as sim_main

    for name in BOARDS:
        state = tmp_path / (name + ".json")
        assert sim_main.main(["--headless", "--board", name, "--data", str(tmp_path / name),
                              "--seed", "1", "--state", str(state)]) == 0
        assert '"screen": "title"' in state.read_text().replace("'", '"')
    capsys.readouterr()
    with pytest.raises(SystemExit) as e:
        sim_main.main(["--headless", "--board", "thumbi"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "unknown board 'thumbi'" in err and ", ".join(BOARDS) in err
