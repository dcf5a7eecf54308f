"""The dice check anyone can run (issue 50): the room server serves one
file, /check_dice.py (server/verifier.py), that needs nothing but Python's
standard library. Fetched from a real server and run with a bare
`python3 -I` in an empty folder (no project on the path, no packages):
a real record passes against the commitment shown at the start, and a
record with another outcome, a cut one and a wrong commitment fail."""

import asyncio
import copy
import json
import os
import shutil
import subprocess
import urllib.request

import pytest

from server.client import Client, create_room, http, join_room
from tests.server.play import over, play_until

PYTHON = shutil.which("python3", path=os.defpath)  # the system's, not this project's venv


def finished_game(base):
    """A two-person game played to the end: (record, commitment at the start)."""
    info = create_room(base, "Anna", people=2, target=1000)
    bert = join_room(base, info["code"], "Bert")

    async def go():
        a = Client(base, info["code"], info["token"])
        b = Client(base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        commit = a.state["commit"]
        await play_until([a, b], over)
        await a.close()
        await b.close()
        return commit

    commit = asyncio.run(go())
    return http(base, "GET", "/api/rooms/%s/games/1" % info["code"]), commit


@pytest.mark.skipif(PYTHON is None, reason="no python3 on the system's path")
def test_the_served_check_runs_with_a_bare_python(server, tmp_path):
    record, commit = finished_game(server.base)
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    with urllib.request.urlopen(server.base + "/check_dice.py", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/x-python")
        (folder / "check_dice.py").write_bytes(r.read())

    def check(rec, commit):
        (folder / "record.json").write_text(json.dumps(rec), encoding="utf-8")
        return subprocess.run([PYTHON, "-I", "check_dice.py", "record.json", "--commit", commit],
                              cwd=folder, env={"PATH": os.defpath}, capture_output=True,
                              text=True, timeout=120)

    done = check(record, commit)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: %d rolls match" % len(record["rolls"])), done.stdout
    other = copy.deepcopy(record)
    other["scores"][0] += 50  # another outcome: the replay says so
    done = check(other, commit)
    assert done.returncode == 1 and "the replay ends with the scores" in done.stdout, done.stdout
    cut = copy.deepcopy(record)
    cut["actions"] = cut["actions"][:-3]
    done = check(cut, commit)
    assert done.returncode == 1 and "FAIL:" in done.stdout, done.stdout
    done = check(record, "0" * 64)
    assert done.returncode == 1 and "commitment" in done.stdout, done.stdout
