"""Files survive a rule option added later: a saved game and saved rule
sets in a data folder, and the shipped tables/ (their names and
tables.json carry the rules encoding and fingerprint). The option is
added as in tests/both/test_rules_growth.py."""

import json
from pathlib import Path

from engine.dice import ScriptedDice
from engine.game import Game
from engine.master import open_table
from engine.rules import PRESETS, Rules, preset
from firmware.session import Session
from firmware.store import DirFS, Store
from tests.both.test_rules_growth import grow

ROOT = Path(__file__).resolve().parent.parent.parent


def test_saved_game_and_rule_sets_load_after_an_option_is_added(tmp_path):
    session = Session(Store(DirFS(str(tmp_path))))
    mine = preset("fuenf").replace(penalty=500, target=5000)
    assert session.save_ruleset("Stammtisch", mine) is None
    game = Game(mine, ["Anna", "Ben"], ScriptedDice([1, 5, 2, 3, 4]))
    game.apply(("roll",))
    session.save_game(game)
    undo = grow()
    try:
        later = Session(Store(DirFS(str(tmp_path))))
        assert later.rulesets() == [["Stammtisch", mine.encode()]]
        found = Rules.decode(later.rulesets()[0][1])
        assert found.bonus == 0 and found.fingerprint() == mine.fingerprint()
        loaded, note = later.load_game(ScriptedDice([5]))
        assert note is None or note == ""
        assert loaded.to_data() == game.to_data() and loaded.rules.bonus == 0
        # a new set with the new option sits beside the old one
        assert later.save_ruleset("Bonus", found.replace(bonus=1000)) is None
        names = [p[0] for p in Session(Store(DirFS(str(tmp_path)))).rulesets()]
        assert names == ["Stammtisch", "Bonus"]
    finally:
        undo()


def test_shipped_tables_are_found_after_an_option_is_added():
    listing = json.loads((ROOT / "tables" / "tables.json").read_text())
    undo = grow()
    try:
        for name, entry in listing.items():
            rules = Rules.decode(entry["rules"])
            assert rules.bonus == 0
            assert name.endswith("-%s.bin" % rules.fingerprint()), name
            for key in entry["preset"].split("+"):
                if key in PRESETS:  # a plan: for what the preset's plan depends on
                    want = preset(key)
                    assert rules == (want.plan_rules() if entry["kind"] == "expert-plan" else want)
        for key in PRESETS:
            table = open_table(preset(key), str(ROOT / "tables"))
            assert table is not None, key
            table.close()
    finally:
        undo()
