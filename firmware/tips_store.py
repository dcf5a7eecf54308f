"""The tips file: who has tips on in the running game, and what their
decisions cost so far.

The engine's Seat has no field for it, so it lives in a small file "tips"
beside the game save: [game key, flags, (unused), costs] with one int per
seat, the key being the rules encoding and the seat names. The third list
held the steps of a guided part that the plain tips no longer need; it is
written as zeros so older builds still read the file. The new-game form
writes the file before the game is saved (a power cut in between leaves no
game, so a stale file never meets a new game); a file whose key does not
match the game means tips off. Toggling during play rewrites it.
"""

from firmware.files import KIND_TIPS
from firmware.files import TIPS as FILE
from firmware.store import NoSave, SaveDamaged, SaveFailed


def game_key(game):
    """The text identifying a game for the tips file."""
    return game.rules.encode() + "|" + "|".join([s.name for s in game.seats])


def start_game(session, game, flags):
    """Write a fresh tips file for `game` (flags per seat, people only)."""
    n = len(game.seats)
    save(session.store, game, [1 if (flags[i] and not game.seats[i].is_bot) else 0
                               for i in range(n)], [0] * n)


def load(store, game):
    """(flags, costs) of `game`, one int per seat; all 0 when the file is
    missing, damaged or belongs to another game."""
    n = len(game.seats)
    try:
        value, _ = store.load(FILE, KIND_TIPS)
    except (NoSave, SaveDamaged):
        return [0] * n, [0] * n
    if not isinstance(value, list) or len(value) != 4 or value[0] != game_key(game):
        return [0] * n, [0] * n
    return _ints(value[1], n), _ints(value[3], n)


def save(store, game, flags, costs):
    """Rewrite the file (a failed write leaves tips as they were on screen)."""
    try:
        store.save(FILE, KIND_TIPS, [game_key(game), flags, [0] * len(flags), costs])
    except SaveFailed:
        pass


def clear(store):
    """Forget the file (the game is over)."""
    try:
        store.clear(FILE)
    except SaveFailed:
        pass


def _ints(value, n):
    out = [0] * n
    if isinstance(value, list):
        for i in range(min(n, len(value))):
            if type(value[i]) is int and value[i] >= 0:
                out[i] = value[i]
    return out
