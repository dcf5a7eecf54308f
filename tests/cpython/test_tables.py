"""The shipped strategy tables: present, intact, for their rules, reproducible."""

import hashlib
import json
from pathlib import Path

from engine.rules import PRESETS, Rules, preset
from engine.turnplan import TurnPlan
from firmware.players import plan_file
from tools.solve import plan_name, solve_plan

TABLES = Path(__file__).resolve().parent.parent.parent / "tables"


def _index():
    return json.loads((TABLES / "tables.json").read_text())


def test_every_preset_has_its_expert_plan():
    index = _index()
    for key in PRESETS:
        rules = preset(key)
        name = plan_name(rules)
        assert name == plan_file(rules)  # the app looks for the same name
        assert index[name]["preset"] == key
        assert index[name]["rules"] == rules.encode()


def test_recorded_sizes_and_hashes_match_the_files():
    for name, entry in _index().items():
        blob = (TABLES / name).read_bytes()
        assert len(blob) == entry["size"]
        assert hashlib.sha256(blob).hexdigest() == entry["sha256"]
        if entry["kind"] == "expert-plan":  # Master tables: test_master_tables.py
            plan = TurnPlan.from_bytes(blob, Rules.decode(entry["rules"]))
            assert plan.fresh_turn() > 0


def test_a_small_case_solves_to_the_shipped_bytes():
    rules = preset("fuenf")
    assert solve_plan(rules) == (TABLES / plan_name(rules)).read_bytes()


def test_all_tables_fit_the_flash_budget():
    total = sum(entry["size"] for entry in _index().values())
    assert total <= 640 * 1024
