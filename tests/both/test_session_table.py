"""The last table (firmware/session.py `load_seating`, `save_seating`): it comes
back as saved, and a damaged or inconsistent file loses only the table."""

from engine.rules import preset
from firmware.session import TABLE, Session
from firmware.store import Store
from tools.fakes.memfs import MemFS


def _session(fs=None):
    return Session(Store(fs or MemFS()))


def test_the_table_comes_back_after_a_restart():
    fs = MemFS()
    s = _session(fs)
    assert s.load_seating() is None
    rules = preset("kneipe").replace(target=5000)
    s.save_seating("kneipe", rules, [["Anna", ""], ["Profi 2", "profi"]], ["Anna"])
    choice, back, seats, tips = _session(fs).load_seating()
    assert choice == "kneipe" and back.encode() == rules.encode()
    assert seats == [["Anna", ""], ["Profi 2", "profi"]] and tips == ["Anna"]


def test_a_damaged_table_loses_only_the_table():
    fs = MemFS()
    s = _session(fs)
    s.settings["lang"] = "en"
    s.save_settings()
    s.remember_name("Anna")
    s.save_seating("kneipe", preset("kneipe"), [["Anna", ""]], [])
    for name in (TABLE, TABLE + ".bak"):
        if fs.exists(name):
            data = bytearray(fs.read(name))
            data[len(data) // 2] ^= 0xFF
            fs.write(name, bytes(data))
    again = _session(fs)
    assert again.load_seating() is None
    assert again.settings["lang"] == "en" and again.names == ["Anna"]


def test_a_table_that_does_not_hold_together_is_refused():
    s = _session()
    rules = preset("zehntausend")
    bad = (
        [["Anna", ""], ["Anna", "profi"]],  # a name twice
        [["Anna", "wizard"]],  # no such level
        [],  # nobody
        [["", ""]],  # no name
        [["Anna", ""]] * 9,  # too many
    )
    for seats in bad:
        s.save_seating("zehntausend", rules, seats, [])
        assert s.load_seating() is None, seats
    s.store.save(TABLE, 0x4B, ["zehntausend", "not rules", [["Anna", ""]], []])
    assert s.load_seating() is None
    s.store.save(TABLE, 0x4B, [1, 2])
    assert s.load_seating() is None
    s.save_seating("x", rules, [["Anna", ""], ["Ben", ""]], ["Ben", "Cem"])
    assert s.load_seating()[3] == ["Ben"]  # tips only for people at the table
