"""The shipped strategy tables: present, intact, for their rules, reproducible."""

import hashlib
import json
from pathlib import Path

from engine.rules import PRESETS, Rules, preset
from engine.turnplan import TurnPlan
from firmware.players import plan_file
from tools.solve import plan_groups, plan_name, solve_plan

TABLES = Path(__file__).resolve().parent.parent.parent / "tables"


def _index():
    return json.loads((TABLES / "tables.json").read_text())


def test_every_preset_has_its_expert_plan():
    index = _index()
    for key in PRESETS:
        rules = preset(key)
        name = plan_name(rules)
        assert name == plan_file(rules)  # the app looks for the same name
        assert key in index[name]["preset"].split("+")
        assert index[name]["rules"] == rules.plan_rules().encode()


def test_a_target_change_of_each_preset_finds_its_plan_without_solving(tmp_path):
    """Point 5 of issue 25: the plan is keyed by what it depends on, so
    every target the form offers (and the end of game and tie rules) of a
    preset finds the shipped plan: no solve, and the plan is the one the
    Expert plays at the preset's own target."""
    from engine.rules import TARGETS
    from firmware.players import Computers
    from firmware.store import DirFS

    reader = DirFS(str(TABLES))
    for key in PRESETS:
        base = preset(key)
        own = Computers(base, reader).stored_plan()
        assert own is not None, key
        for target in TARGETS:
            if target < base.entry:
                continue
            rules = base.replace(target=target)
            players = Computers(rules, reader)
            assert not players.needs_solving("profi"), (key, target)
            plan = players.stored_plan()
            assert plan is not None and plan.rules == rules
            assert plan.fresh_turn() == own.fresh_turn()
            assert [plan.threshold(n) for n in range(1, base.dice + 1)] == [
                own.threshold(n) for n in range(1, base.dice + 1)]


def test_recorded_sizes_and_hashes_match_the_files():
    for name, entry in _index().items():
        blob = (TABLES / name).read_bytes()
        assert len(blob) == entry["size"]
        assert hashlib.sha256(blob).hexdigest() == entry["sha256"]
        if entry["kind"] == "expert-plan":  # Master tables: test_master_tables.py
            plan = TurnPlan.from_bytes(blob, Rules.decode(entry["rules"]))
            assert plan.fresh_turn() > 0


def test_a_small_case_solves_to_the_shipped_bytes():
    name, keys, capped = [g for g in plan_groups() if "fuenf" in g[1]][0]
    assert keys == ["fuenf", "punktlandung"] and capped  # one plan, with capped values
    assert solve_plan(preset("fuenf"), capped) == (TABLES / name).read_bytes()


def test_all_tables_fit_the_flash_budget():
    total = sum(entry["size"] for entry in _index().values())
    assert total <= 832 * 1024  # what fits the flash beside the game: test_deploy.py
