"""The settings file (firmware/session.py): every setting is there with a
value its readers take as it is. A value no reader could take (a file
from a newer version, or damaged past its checksum) is left at its
default and the others are kept; valid values come back as saved. Runs
under CPython and the MicroPython Unix port."""

from firmware.files import CONTRAST, KIND_SETTINGS, SETTINGS
from firmware.session import DEFAULT_SETTINGS, Session
from firmware.store import Store
from tools.fakes.memfs import MemFS


def _with_file(pairs):
    fs = MemFS()
    Store(fs).save(SETTINGS, KIND_SETTINGS, pairs)
    return Session(Store(fs)).settings


def test_every_setting_has_its_default_without_a_file():
    settings = Session(Store(MemFS())).settings
    assert settings == DEFAULT_SETTINGS
    assert settings["contrast"] == CONTRAST == 0xCF


def test_valid_values_come_back_as_saved():
    pairs = [["lang", "en"], ["speed", 2], ["contrast", 0x40], ["sleep", 0], ["dice", 2],
             ["sound", False], ["tips", True], ["pad", [300, 500]]]
    settings = _with_file(pairs)
    for key, value in pairs:
        assert settings[key] == value, key


def test_values_no_reader_takes_stay_at_their_defaults_and_lose_nothing_else():
    bad = [["lang", "fr"], ["speed", "fast"], ["contrast", 300], ["sleep", -5], ["dice", 7],
           ["unknown", 1]]
    settings = _with_file(bad + [["sound", False]])
    for key in ("lang", "speed", "contrast", "sleep", "dice"):
        assert settings[key] == DEFAULT_SETTINGS[key], key
    assert settings["sound"] is False  # the good value beside them is kept
    assert "unknown" not in settings
    for key, value in (["contrast", 0], ["dice", -1], ["sleep", None], ["lang", None]):
        assert _with_file([[key, value]])[key] == DEFAULT_SETTINGS[key], key


def test_values_are_taken_the_way_their_readers_took_them():
    # the pace round its three steps, switches as true or false
    assert _with_file([["speed", 4]])["speed"] == 1
    assert _with_file([["speed", -1]])["speed"] == 2
    assert _with_file([["sound", 0]])["sound"] is False
    assert _with_file([["tips", 1]])["tips"] is True
    assert _with_file([["contrast", 255]])["contrast"] == 255
    assert _with_file([["sleep", 100]])["sleep"] == 100  # not an option: kept (the nearest shows)
