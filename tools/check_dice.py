"""Check a finished online game's dice record: against the commitment you
were shown at the start, against the rolls you saw, and by replaying the
whole game through the engine.

    python tools/check_dice.py RECORD.json --commit HEX [--seen SEEN.json]

RECORD (or - for standard input) is what the server gives for a finished
game at GET /api/rooms/CODE/games/N (docs/protocol.md, "Dice anyone can
check"). HEX is the commitment the room showed when the game began (the
`start` event's `commit`, also in the state the page showed). SEEN is
optional: the rolls you saw, [[k, [faces...]], ...] with k the roll's
number (a page's or a client's own log).

The check fails, naming the first problem, when
- the record's commitment is not HEX (a record made for another secret,
  however consistent in itself);
- SHA-256 of the secret (64 hex characters, hashed as its 32 raw bytes)
  is not the commitment;
- the rolls are not numbered 1, 2, 3, ... or a roll's faces are not the
  ones HMAC-SHA256(secret, "zt-roll:k:b") gives (key: the 32 raw bytes;
  k and b in decimal; bytes 252..255 skipped, face = byte % 6 + 1; as
  many faces as the entry has);
- a roll you saw is missing or different;
- replaying the record's actions through the engine (engine/game.py: the
  one place the rules live) with the record's dice refuses an action,
  uses a different number of dice or rolls, ends before the game is over
  or reaches other final scores or another winner (a cut, reordered or
  edited record).

The dice derivation is written here apart from server/fairdice.py on
purpose: a check that imported the server's code would check the server
against itself. Exit status 0 when all holds, 1 with the problem named,
2 for a bad command line.
"""

import argparse
import hashlib
import hmac
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.game import Game, IllegalAction  # noqa: E402  (after the path)
from engine.rules import Rules, RulesError  # noqa: E402

HEX64 = re.compile(r"^[0-9a-f]{64}$")


def roll_faces(secret, number, n):
    """The faces roll `number` must show under `secret` (raw bytes)."""
    got = []
    block = 0
    while len(got) < n:
        digest = hmac.new(secret, ("zt-roll:%d:%d" % (number, block)).encode(),
                          hashlib.sha256).digest()
        for byte in digest:
            if byte < 252 and len(got) < n:
                got.append(byte % 6 + 1)
        block += 1
    return got


class _RecordDice:
    """The engine's dice source during a replay: the record's rolls in
    order, each asked for exactly as many dice as the record shows."""

    def __init__(self, rolls):
        self.rolls = rolls
        self.used = 0

    def __call__(self, n):
        if self.used >= len(self.rolls):
            raise _Mismatch("the game rolls a roll %d that the record lacks (cut?)"
                            % (self.used + 1))
        number, faces = self.rolls[self.used]
        self.used += 1
        if len(faces) != n:
            raise _Mismatch("roll %d has %d dice, the game rolls %d there"
                            % (number, len(faces), n))
        return list(faces)


class _Mismatch(Exception):
    pass


def _well_formed(record):
    """The problem with the record's shape, or None."""
    if not isinstance(record, dict):
        return "not a game record (a JSON object)"
    for key in ("commit", "secret", "rolls", "rules", "players", "actions", "scores"):
        if key not in record:
            return "not a game record: no %r" % key
    for key in ("commit", "secret"):
        if not isinstance(record[key], str) or not HEX64.match(record[key]):
            return "the %s is not 64 lower-case hex characters" % key
    if not _rolls_list(record["rolls"]):
        return "the rolls are not [[number, [faces...]], ...]"
    if not isinstance(record["scores"], list) or not all(type(v) is int
                                                         for v in record["scores"]):
        return "the scores are not a list of whole numbers"
    return None


def _rolls_list(rolls):
    """True for [[number, [faces...]], ...] (whole numbers)."""
    return isinstance(rolls, list) and all(
        isinstance(r, list) and len(r) == 2 and type(r[0]) is int
        and isinstance(r[1], list) and all(type(d) is int for d in r[1]) for r in rolls)


def _action(raw):
    """An engine action from its JSON form."""
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
        raise _Mismatch("an action is not [kind, ...]: %r" % (raw,))
    if raw[0] == "keep" and len(raw) == 2 and isinstance(raw[1], list):
        return ("keep", tuple(raw[1]))
    if raw[0] == "leave" and len(raw) == 2:
        return ("leave", raw[1])
    return tuple(raw)


def replay(record):
    """Replay the record's actions through the engine with its dice: a
    list of problems (empty when the game ends as the record says)."""
    try:
        rules = Rules.decode(record["rules"])
    except (RulesError, TypeError, ValueError) as e:
        return ["the record's rules do not decode: %s" % (e,)]
    dice = _RecordDice(record["rolls"])
    try:
        game = Game(rules, [tuple(p) for p in record["players"]], dice)
    except (TypeError, ValueError) as e:
        return ["the record's players are not a game's seats: %s" % (e,)]
    try:
        for i, item in enumerate(record["actions"], 1):
            if not isinstance(item, list) or len(item) != 2 or type(item[0]) is not int:
                return ["action %d is not [seat, action]: %r" % (i, item)]
            seat, action = item[0], _action(item[1])
            if action[0] != "leave" and seat != game.current:
                return ["action %d (%r) is by seat %d, but seat %d is to move"
                        % (i, list(item[1]), seat, game.current)]
            refusal = game.why_not(action)
            if refusal is not None:
                return ["action %d (%r of seat %d) is not allowed: %s %s"
                        % (i, list(item[1]), seat, refusal[0], list(refusal[1]))]
            game.apply(action)
    except _Mismatch as e:
        return [str(e)]
    except (IllegalAction, TypeError, ValueError) as e:
        return ["the replay failed: %r" % (e,)]
    problems = []
    if game.phase != "over":
        problems.append("the record ends before the game is over (cut?): %d actions, "
                        "the game is in phase %r" % (len(record["actions"]), game.phase))
    elif dice.used != len(record["rolls"]):
        problems.append("the game used %d rolls, the record has %d"
                        % (dice.used, len(record["rolls"])))
    scores = [s.score for s in game.seats]
    if not problems and scores != record["scores"]:
        problems.append("the replay ends with the scores %s, the record says %s"
                        % (scores, record["scores"]))
    if not problems and "winner" in record and game.winner != record["winner"]:
        problems.append("the replay's winner is seat %d, the record says %r"
                        % (game.winner, record["winner"]))
    return problems


def check(record, commit=None, seen=None):
    """A list of problems with `record` (empty when all holds): against
    `commit` (hex; None: the record's own, which proves nothing about a
    swapped record), the rolls `seen` ([[k, faces], ...]) and a replay."""
    shape = _well_formed(record)
    if shape:
        return [shape]
    if seen is not None and not _rolls_list(seen):
        return ["the rolls seen are not [[number, [faces...]], ...]"]
    if commit is not None and record["commit"] != commit.strip().lower():
        return ["the record's commitment %s is not the one shown at the start %s"
                % (record["commit"][:16], commit.strip()[:16])]
    secret = bytes.fromhex(record["secret"])  # the raw 32 bytes, not the hex text
    if hashlib.sha256(secret).hexdigest() != record["commit"]:
        return ["the secret does not match the commitment"]
    rolls = record["rolls"]
    for expected, (number, faces) in enumerate(rolls, 1):
        if number != expected:
            return ["roll %d is numbered %r (reordered or cut?)" % (expected, number)]
        want = roll_faces(secret, number, len(faces))
        if list(faces) != want:
            return ["roll %d showed %s, the secret gives %s" % (number, faces, want)]
    by_number = dict((number, faces) for number, faces in rolls)
    for number, faces in seen or ():
        if number not in by_number:
            return ["roll %d was shown (%s) but the record lacks it (cut?)" % (number, faces)]
        if list(by_number[number]) != list(faces):
            return ["roll %d was shown as %s, the record says %s"
                    % (number, faces, by_number[number])]
    return replay(record)


def _load(path):
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv=None):
    """Read the record named on the command line; print the verdict."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])  # (prog: as it was run)
    p.add_argument("record", help="the game's record (JSON), - for standard input")
    p.add_argument("--commit", required=True,
                   help="the commitment shown when the game began (hex)")
    p.add_argument("--seen", help="the rolls you saw, [[k, [faces...]], ...] (JSON file)")
    a = p.parse_args(argv)
    try:
        record = _load(a.record)
        seen = _load(a.seen) if a.seen else None
    except (OSError, ValueError) as e:
        print("FAIL: not readable as JSON: %s" % (e,))
        return 1
    problems = check(record, a.commit, seen)
    for problem in problems:
        print("FAIL: " + problem)
    if problems:
        return 1
    print("OK: %d rolls match the commitment %s, %s; the replay ends with %s"
          % (len(record["rolls"]), record["commit"][:16],
             "and the %d rolls seen" % len(seen) if seen else "no rolls seen given",
             record["scores"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
