"""Check every roll of a finished online game against the revealed secret.

    python tools/check_dice.py RECORD.json      (or - for standard input)

RECORD is what the server gives for a finished game at
GET /api/rooms/CODE/games/N (docs/protocol.md, "Checking the dice"):
{"commit": hex, "secret": hex, "rolls": [[number, [faces...]], ...]}.
The script checks that SHA-256(secret) is the commitment published at the
game's start, that the rolls are numbered 1, 2, 3, ... without a gap, and
that each roll's faces are the ones HMAC-SHA256(secret, "zt-roll:k:b")
gives (bytes 252..255 skipped, face = byte % 6 + 1).

It is written apart from server/fairdice.py on purpose, from the
description above alone: a check that imported the server's own code
would check the server against itself. Exit status 0 when every roll
matches, 1 with the first mismatch named otherwise.
"""

import hashlib
import hmac
import json
import sys


def roll_faces(secret, number, n):
    """The faces roll `number` must show under `secret`."""
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


def check(record):
    """A list of problems with `record` (empty when every roll matches)."""
    try:
        secret = bytes.fromhex(record["secret"])
        commit = record["commit"]
        rolls = record["rolls"]
    except (KeyError, TypeError, ValueError):
        return ["not a game record with commit, secret and rolls"]
    if hashlib.sha256(secret).hexdigest() != commit:
        return ["the secret does not match the commitment"]
    problems = []
    for expected, item in enumerate(rolls, 1):
        number, faces = item
        if number != expected:
            problems.append("roll %d is numbered %r" % (expected, number))
            break
        want = roll_faces(secret, number, len(faces))
        if list(faces) != want:
            problems.append("roll %d showed %s, the secret gives %s" % (number, faces, want))
    return problems


def main(argv=None):
    """Read the record named on the command line; print the verdict."""
    argv = sys.argv[1:] if argv is None else argv
    if argv in (["-h"], ["--help"]):
        print(__doc__.strip())
        return 0
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    if argv[0] == "-":
        record = json.load(sys.stdin)
    else:
        with open(argv[0], encoding="utf-8") as f:
            record = json.load(f)
    problems = check(record)
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("OK: %d rolls match the commitment %s" % (len(record["rolls"]), record["commit"][:16]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
