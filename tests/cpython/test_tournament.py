"""tools.tournament: reproducible across --jobs, JSON output, user bots from
files, clear errors for bad arguments and misbehaving bots (CPython only)."""

import json
import os
import subprocess
import sys

import pytest

from tools import tournament as tt

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

GREEDY = '''
class Greedy:
    """Banks whenever allowed; keeps the first keep offered."""

    def __init__(self, rules):
        self.rules = rules

    def decide(self, view):
        if view.phase == "farkle":
            return ("pass",)
        if view.phase == "keep":
            return ("keep", view.keeps[0][0])
        if ("bank",) in view.legal:
            return ("bank",)
        return ("roll",)


class Plain(Greedy):
    def __init__(self):
        pass


class Cheater(Greedy):
    def decide(self, view):
        return ("bank",)


class Endless(Greedy):
    """Never banks: every turn ends in a farkle, so the game never ends."""

    def decide(self, view):
        if view.phase == "farkle":
            return ("pass",)
        if view.phase == "keep":
            return ("keep", view.keeps[0][0])
        return ("roll",)


class Crashing(Greedy):
    def decide(self, view):
        raise RuntimeError("boom")
'''


def run_json(capsys, *argv):
    """Run the command with --json; the parsed output."""
    assert tt.run(list(argv) + ["--json"]) == 0
    return json.loads(capsys.readouterr().out)


def run_error(capsys, *argv):
    """Run the command; (exit code, stderr)."""
    code = tt.run(list(argv))
    return code, capsys.readouterr().err


@pytest.fixture
def botfile(tmp_path):
    path = tmp_path / "mybots.py"
    path.write_text(GREEDY)
    return str(path)


def strip_time(result):
    result.pop("elapsed")
    return result


def test_same_results_for_one_and_two_jobs(capsys):
    args = ["--bots", "profi,mutig,vorsichtig", "--games", "30", "--seed", "7"]
    one = strip_time(run_json(capsys, *args, "--jobs", "1"))
    two = strip_time(run_json(capsys, *args, "--jobs", "2"))
    assert one == two
    assert one["games"] == 30


def test_json_output(capsys):
    result = run_json(capsys, "--bots", "mutig,vorsichtig", "--games", "40", "--jobs", "2")
    assert result["games"] == 40
    assert result["seed"] == 1
    assert result["rules"] == tt.preset("zehntausend").encode()
    assert [b["name"] for b in result["bots"]] == ["mutig", "vorsichtig"]
    assert sum(b["wins"] for b in result["bots"]) == 40
    for b in result["bots"]:
        assert b["ci_low"] <= b["win_rate"] <= b["ci_high"]
        assert b["turns_per_game"] > 5
        assert 100 < b["points_per_turn"] < 1000


def test_module_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "tools.tournament", "--bots", "vorsichtig,vorsichtig",
         "--games", "4", "--jobs", "1", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert [b["name"] for b in result["bots"]] == ["vorsichtig", "vorsichtig#2"]
    assert sum(b["wins"] for b in result["bots"]) == 4


def test_profi_beats_vorsichtig(capsys):
    # Measured 68.5% at this seed (67-69% at seeds 1-3); the interval stays clear of 50%.
    result = run_json(capsys, "--bots", "profi,vorsichtig", "--games", "400", "--jobs", "2")
    profi = result["bots"][0]
    assert profi["win_rate"] > 0.5
    assert profi["ci_low"] > 0.5


def test_games_rounded_up_to_seat_multiple(capsys):
    assert tt.run(["--bots", "mutig,vorsichtig,mutig", "--games", "4", "--jobs", "1",
                   "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["games"] == 6
    assert "rounded up to 6" in out.err


def test_rules_options(capsys):
    result = run_json(capsys, "--rules", "zehntausend:finish=immediate,target=2000",
                      "--bots", "mutig,vorsichtig", "--games", "10", "--jobs", "1")
    expected = tt.preset("zehntausend").replace(finish="immediate", target=2000)
    assert result["rules"] == expected.encode()


def test_parse_rules():
    r = tt.parse_rules("farkle4000:small_straights=500,750,takeover=yes,entry=350")
    assert r.small_straights == (500, 750) and r.takeover is True and r.entry == 350
    assert tt.parse_rules("kneipe:small_straights=(300/400)").small_straights == (300, 400)
    assert tt.parse_rules("punktlandung") == tt.preset("punktlandung")


def test_user_bot_from_file(capsys, botfile):
    result = run_json(capsys, "--bots", botfile + ":Greedy," + botfile + ":Plain,mutig",
                      "--games", "6", "--jobs", "2")
    assert [b["name"] for b in result["bots"]] == ["Greedy", "Plain", "mutig"]
    assert sum(b["wins"] for b in result["bots"]) == 6


def test_illegal_action_exits_1(capsys, botfile):
    code, err = run_error(capsys, "--bots", "mutig," + botfile + ":Cheater", "--games", "2",
                          "--jobs", "1")
    assert code == 1
    assert "bot Cheater made an illegal action ('bank',)" in err
    assert "Nothing to bank" in err  # the engine's reason key in English (tools/texts)
    assert len(err.strip().splitlines()) == 1


def test_illegal_action_in_worker_exits_1(capsys, botfile):
    code, err = run_error(capsys, "--bots", botfile + ":Cheater,mutig", "--games", "4",
                          "--jobs", "2")
    assert code == 1 and "bot Cheater made an illegal action" in err


def test_crashing_bot_exits_1(capsys, botfile):
    code, err = run_error(capsys, "--bots", botfile + ":Crashing,mutig", "--games", "2",
                          "--jobs", "1")
    assert code == 1 and "bot Crashing raised RuntimeError: boom" in err


def test_endless_game_is_aborted(capsys, botfile, monkeypatch):
    monkeypatch.setattr(tt, "MAX_ACTIONS", 2000)
    code, err = run_error(capsys, "--bots", botfile + ":Endless," + botfile + ":Endless",
                          "--games", "2", "--seed", "3", "--jobs", "1")
    assert code == 1
    assert "dice seed %d" % tt.dice_seed(3, 0) in err and "aborted after 2000 actions" in err


@pytest.mark.parametrize("rules, words", [
    ("nope", "unknown preset 'nope'"),
    ("zehntausend:bogus=1", "unknown rule option 'bogus'"),
    ("zehntausend:target=lots", "whole number"),
    ("zehntausend:takeover=maybe", "true or false"),
    ("zehntausend:dice=5", "needs 6 dice"),
    ("zehntausend:target", "opt=value"),
])
def test_bad_rules_exit_2(capsys, rules, words):
    code, err = run_error(capsys, "--rules", rules, "--bots", "mutig,vorsichtig")
    assert code == 2
    assert err.startswith("tournament: error:") and words in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("bots, words", [
    ("profi", "2 to 8 entries"),
    (",".join(["mutig"] * 9), "2 to 8 entries"),
    ("profi,robot", "unknown computer level 'robot'"),
    ("profi,,mutig", "empty entry"),
    ("profi,missing_bot_file.py:Bot", "bot file not found"),
    ("profi,missing_bot_file.py", "needs a class"),
])
def test_bad_bots_exit_2(capsys, bots, words):
    code, err = run_error(capsys, "--bots", bots)
    assert code == 2
    assert err.startswith("tournament: error:") and words in err
    assert len(err.strip().splitlines()) == 1


def test_bad_class_exit_2(capsys, botfile):
    code, err = run_error(capsys, "--bots", "mutig," + botfile + ":Nobody")
    assert code == 2 and "has no class 'Nobody'" in err


def test_wilson_interval():
    low, high = tt.wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = tt.wilson(0, 10)
    assert round(low, 9) == 0.0 and round(high, 4) == 0.2775
    low, high = tt.wilson(10, 10)
    assert round(low, 4) == 0.7225 and round(high, 9) == 1.0
    low, high = tt.wilson(630, 1000)
    assert low < 0.63 < high and round(high - low, 3) == 0.060


def test_seat_rotation_and_seeds():
    assert tt.dice_seed(1, 5) == 1000008
    names = tt.bot_names(["profi", "mutig", "profi", "a/b.py:X", "c.py:X"])
    assert names == ["profi", "mutig", "profi#2", "X", "X#2"]
    tasks = tt.chunks(1, 1001, 2)
    covered = [g for _, a, b in tasks for g in range(a, b)]
    assert covered == list(range(1001))


def test_master_plays_in_a_tournament():
    out = subprocess.run(
        [sys.executable, "-m", "tools.tournament", "--rules", "farkle4000", "--bots",
         "meister,profi", "--games", "40", "--seed", "3", "--jobs", "1", "--json"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert [b["name"] for b in data["bots"]] == ["meister", "profi"]
    assert sum(b["wins"] for b in data["bots"]) == 40
