"""tools.five_scored counts the moments after all five dice scored and
what each level did there (docs/rules.md, "Seed text 004")."""

from engine.rules import preset
from tools.five_scored import count, main


def test_the_simple_levels_roll_all_five_again_unless_a_landing_wins():
    rules = preset("punktlandung")
    for level in ("vorsichtig", "mutig"):
        c = count(level, rules, 6, 1)
        assert c["moments"] > 0
        assert c["banked"] == c["landings"]  # the text's rule: bank only to land exactly


def test_the_command_prints_json(capsys):
    assert main(["--games", "2", "--levels", "mutig", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"mutig"} and out["mutig"]["moments"] >= 0
