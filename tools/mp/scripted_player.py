"""The scripted player of the tools: one person's simple play, decided from the game.

The chipbench course (tools/chipbench/course.py, in the simulator),
tools/mp/app_run.py (the App under the Unix port) and tools/mp/boot_run.py
(the device loop on the fake machine) all play the person this way; each
turns the decisions into its own key presses. Runs under MicroPython too:
the scripts in tools/mp import it from their own folder.

Simple play: keep every scoring die; bank from BANK_AT points in the turn,
or when fewer than three dice would be left to roll (hot dice: all of them
roll again, so the turn goes on).
"""

from engine.scoring import score_keep, scoring_keep

BANK_AT = 300  # the person banks from this turn total on
FEW_DICE = 3  # fewer dice left than this: bank


def chosen_keep(game, selected=()):
    """The dice the person keeps from `game.roll`: the dice already picked
    on the screen (`selected`) if any, else every scoring die when that
    keep is allowed, else the first allowed keep; () when none scores."""
    if selected:
        return tuple(selected)
    found = scoring_keep(game.roll, game.rules, game.open_singles)
    allowed = [k for k, _ in game.valid_keeps()]
    if found and found[0] in allowed:
        return tuple(found[0])
    return tuple(allowed[0]) if allowed else ()


def banks(game, keep=()):
    """True when the person banks now rather than rolling on. In the phase
    "decide" (the dice are kept) from BANK_AT on; while choosing dice, with
    the points of `keep` added, or when fewer than FEW_DICE dice would be
    left (none left: hot dice, all roll again)."""
    if game.phase == "decide":
        return game.turn_total >= BANK_AT
    points = score_keep(tuple(keep), game.rules, game.open_singles) or 0
    left = len(game.roll) - len(keep)
    return game.turn_total + points >= BANK_AT or 0 < left < FEW_DICE
