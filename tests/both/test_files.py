"""firmware/files.py is the one home of the file facts: the engine's own
copy of the game's codec kind and its table names (engine/ cannot import
firmware/) agree with it (the score pad's kind is only there). Runs under CPython and MicroPython;
tests/cpython/test_files_home.py checks that no other device module
spells a suffix or a table name itself."""

from engine import codec, scorepad
from engine.master import table_name
from engine.rules import preset
from firmware import files
from firmware.players import plan_file


def test_engine_kinds_agree():
    assert codec.KIND_GAME == files.KIND_GAME
    assert not hasattr(scorepad, "KIND_PAD")  # the pad is saved by firmware.session alone


def test_table_names_agree():
    rules = preset("zehntausend")
    assert table_name(rules) == files.MASTER % rules.fingerprint()
    assert plan_file(rules) == files.PLAN % rules.fingerprint()  # nothing left out: the same
    five = preset("fuenf")  # the plan leaves out the end of game and ties
    assert plan_file(five) == files.PLAN % five.plan_rules().fingerprint()
    assert plan_file(five) != files.PLAN % five.fingerprint()


def test_kinds_are_distinct():
    kinds = [getattr(files, n) for n in dir(files) if n.startswith("KIND_")]
    assert len(kinds) == len(set(kinds)) >= 7
