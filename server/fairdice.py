"""Dice anyone can check afterwards (commit-reveal).

At the start of a game the server draws a 32-byte secret from the
operating system (`secrets`) and publishes its commitment, the SHA-256 of
the secret. Roll number k (1, 2, ... in the game's order) takes its faces
from HMAC-SHA256(secret, "zt-roll:k:b") for blocks b = 0, 1, ...: bytes
252..255 are skipped, each other byte gives the face byte % 6 + 1 (the
same rejection sampling as engine.dice, so no face is favoured). When the
game is over the secret is revealed and tools/check_dice.py recomputes
every roll. The secret never leaves the server before that.

Because a roll depends only on the secret and its number, a server that
restarts in the middle of a turn rolls the same dice for the same roll
number: nothing is rolled twice with a different outcome.
"""

import hashlib
import hmac
import secrets

LIMIT = 252  # 6 * 42: bytes from here up would favour faces 1..4


def new_secret():
    """A fresh game secret: 32 bytes from the OS's secure random source."""
    return secrets.token_bytes(32)


def commitment(secret):
    """The published commitment to `secret`: SHA-256, as hex."""
    return hashlib.sha256(secret).hexdigest()


def faces(secret, number, n):
    """The `n` faces of roll `number` under `secret`."""
    out = []
    block = 0
    while len(out) < n:
        msg = b"zt-roll:%d:%d" % (number, block)
        for b in hmac.new(secret, msg, hashlib.sha256).digest():
            if b < LIMIT:
                out.append(b % 6 + 1)
                if len(out) == n:
                    break
        block += 1
    return out


class CommitDice:
    """The engine's dice source (`dice(n) -> faces`) for one game: roll
    number `rolls + 1` next. `rolls` is saved with the game."""

    def __init__(self, secret, rolls=0):
        self.secret = secret
        self.rolls = rolls

    def __call__(self, n):
        self.rolls += 1
        return faces(self.secret, self.rolls, n)
