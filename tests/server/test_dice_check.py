"""The dice check an outsider can trust (issue 31): a finished game's
record is checked against the commitment shown at the start, the rolls
seen during the game and a replay through the engine. Real games on a
real server; every forgery an outsider would try fails, each with its
reason, in check() and in the command line tool."""

import asyncio
import copy
import json
import subprocess
import sys

import pytest

from server.client import Client, create_room, http, join_room
from tests.server.conftest import ROOT
from tests.server.play import over, play_until
from tools.check_dice import check


def finished_game(server, name="Anna"):
    """Play a whole two-person game; (record, commit shown at the start,
    rolls seen by the first seat)."""
    info = create_room(server.base, name, people=2, target=1000)
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await a.connect()
        commit = a.state["commit"]  # shown at the start (the game began with the join)
        await b.connect()
        await play_until([a, b], over)
        await a.close()
        await b.close()
        return commit, a.seen_rolls

    commit, seen = asyncio.run(asyncio.wait_for(go(), 90))
    record = http(server.base, "GET", "/api/rooms/%s/games/1" % info["code"])
    return record, commit, seen


@pytest.fixture(scope="module")
def games(server):
    """Two real finished games in two rooms."""
    return finished_game(server, "Anna"), finished_game(server, "Cleo")


def cli(tmp_path, record, commit, seen=None):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    args = [sys.executable, "tools/check_dice.py", str(path), "--commit", commit]
    if seen is not None:
        (tmp_path / "seen.json").write_text(json.dumps(seen))
        args += ["--seen", str(tmp_path / "seen.json")]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True)


def test_the_real_record_passes(games, tmp_path):
    (record, commit, seen), _ = games
    assert seen and len(seen) == len(record["rolls"])  # the seat saw every roll
    assert check(record, commit, seen) == []
    ok = cli(tmp_path, record, commit, seen)
    assert ok.returncode == 0, ok.stdout
    assert "OK: %d rolls" % len(record["rolls"]) in ok.stdout


def test_the_commitment_is_required(games, tmp_path):
    (record, commit, seen), _ = games
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    run = subprocess.run([sys.executable, "tools/check_dice.py", str(path)], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 2 and "--commit" in run.stderr


def test_another_games_record_fails(games, tmp_path):
    # Self-consistent in itself (a real game of another room), served in
    # place of this game's record: only the commitment shown tells.
    (_, commit, seen), (other, _, _) = games
    assert check(other) == []  # alone it is a perfect record
    problems = check(other, commit)
    assert problems and "not the one shown at the start" in problems[0]
    bad = cli(tmp_path, other, commit)
    assert bad.returncode == 1 and "not the one shown at the start" in bad.stdout


def test_a_cut_record_fails(games, tmp_path):
    (record, commit, seen), _ = games
    cut = copy.deepcopy(record)
    del cut["rolls"][-3:]
    problems = check(cut, commit)  # without the rolls seen: the replay finds it
    assert problems and "lacks" in problems[0], problems
    problems = check(cut, commit, seen)
    assert problems and "was shown" in problems[0] and "lacks it" in problems[0], problems
    # The last actions cut (the final bank among them): the game is not over.
    short = copy.deepcopy(record)
    del short["actions"][-3:]
    problems = check(short, commit)
    assert problems and "before the game is over" in problems[0], problems
    bad = cli(tmp_path, cut, commit, seen)
    assert bad.returncode == 1 and "lacks it" in bad.stdout


def test_a_reordered_record_fails(games, tmp_path):
    (record, commit, seen), _ = games
    # Two rolls swapped, numbers and all.
    swapped = copy.deepcopy(record)
    swapped["rolls"][0], swapped["rolls"][1] = swapped["rolls"][1], swapped["rolls"][0]
    problems = check(swapped, commit)
    assert problems and "numbered" in problems[0], problems
    # Two rolls' faces swapped, the numbers kept.
    faces = copy.deepcopy(record)
    faces["rolls"][0][1], faces["rolls"][1][1] = faces["rolls"][1][1], faces["rolls"][0][1]
    if faces["rolls"][0][1] != record["rolls"][0][1]:
        problems = check(faces, commit)
        assert problems and "the secret gives" in problems[0], problems
    # The actions reordered: the dice all match, the replay does not.
    acts = copy.deepcopy(record)
    i = next(i for i in range(1, len(acts["actions"]))
             if acts["actions"][i] != acts["actions"][i - 1])
    acts["actions"][i - 1], acts["actions"][i] = acts["actions"][i], acts["actions"][i - 1]
    problems = check(acts, commit, seen)
    assert problems and problems[0].startswith(("action", "roll", "the")), problems
    bad = cli(tmp_path, acts, commit, seen)
    assert bad.returncode == 1 and "FAIL:" in bad.stdout


def test_other_final_scores_fail(games, tmp_path):
    (record, commit, seen), _ = games
    scores = copy.deepcopy(record)
    scores["scores"][0] += 50
    problems = check(scores, commit, seen)
    assert problems and "scores" in problems[0], problems
    bad = cli(tmp_path, scores, commit, seen)
    assert bad.returncode == 1 and "the replay ends with the scores" in bad.stdout
    winner = copy.deepcopy(record)
    winner["winner"] = 1 - record["winner"]
    problems = check(winner, commit, seen)
    assert problems and "winner" in problems[0], problems


def test_a_shown_roll_that_differs_fails(games):
    (record, commit, seen), _ = games
    shown = copy.deepcopy(seen)
    shown[-1][1][0] = shown[-1][1][0] % 6 + 1
    problems = check(record, commit, shown)
    assert problems and "was shown as" in problems[0], problems


def doc_text():
    return (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")


def test_the_documents_test_vector_is_the_servers_and_the_checks():
    import re

    from server.fairdice import commitment, faces
    from tools.check_dice import roll_faces

    text = " ".join(doc_text().split())
    m = re.search(r"commitment ([0-9a-f]{64}); its roll 1 of six dice is ([1-6 ]+), roll 2 of "
                  r"three dice ([1-6 ]+), roll 12 of six dice ([1-6 ]+)\.", text)
    assert m, "the test vector is not in docs/protocol.md"
    secret = bytes(range(32))
    assert commitment(secret) == m[1]
    for number, n, shown in ((1, 6, m[2]), (2, 3, m[3]), (12, 6, m[4])):
        want = [int(d) for d in shown.split()]
        assert faces(secret, number, n) == want == roll_faces(secret, number, n)


def test_the_documents_standard_library_check_works(games, tmp_path):
    # The few lines an outsider is given in docs/protocol.md, run as they
    # stand: the real record passes, a cut-and-edited one does not.
    text = doc_text()
    start = text.index("With Python's standard library")
    block = text[start:].split("\n\n")[1]
    code = "\n".join(line[4:] for line in block.splitlines())
    script = tmp_path / "outsider.py"
    script.write_text(code)
    (record, commit, _), (other, _, _) = games
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    ok = subprocess.run([sys.executable, str(script), str(path), commit],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    path.write_text(json.dumps(other))
    bad = subprocess.run([sys.executable, str(script), str(path), commit],
                         capture_output=True, text=True)
    assert bad.returncode != 0
    edited = copy.deepcopy(record)
    edited["rolls"][0][1][0] = edited["rolls"][0][1][0] % 6 + 1
    path.write_text(json.dumps(edited))
    bad = subprocess.run([sys.executable, str(script), str(path), commit],
                         capture_output=True, text=True)
    assert bad.returncode != 0


def test_malformed_records_and_rolls_seen_fail_with_a_reason(games, tmp_path):
    # Whatever a server serves (or a file holds), the check names a problem
    # and exits 1: no traceback (a commitment that was not a string crashed it).
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    (record, commit, seen), _ = games
    for key, value in (("commit", None), ("commit", commit.upper()), ("scores", {}),
                       ("secret", 7)):
        bad = cli(tmp_path, dict(record, **{key: value}), commit, seen)
        assert bad.returncode == 1 and bad.stdout.startswith("FAIL: "), (key, bad.stderr)
    bad = cli(tmp_path, record, commit, [[1, None]])
    assert bad.returncode == 1 and "rolls seen are not" in bad.stdout, bad.stderr
    json_values = st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
        | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                    max_size=3),
        max_leaves=8)

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(key=st.sampled_from(sorted(record)), value=json_values,
           shown=st.one_of(st.none(), json_values))
    def one(key, value, shown):
        problems = check(dict(record, **{key: value}), commit, shown)  # never raises
        assert isinstance(problems, list)
        if shown is None and key not in ("code", "g") and value != record[key]:
            assert problems, (key, value)  # what the check reads, changed: a problem

    one()
