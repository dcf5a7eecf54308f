"""What a bank means in the final round or a play-off round (issue 51):
the play screen asks in words before a bank that cannot win, and says so
of one that wins. Apart from engine.game, which every game loads: only a
person's bank in the final round needs it."""


def bank_outcome(game, total):
    """What banking a turn total of `total` means for the seat to move in
    `game` (an engine.game.Game). "lose" when it then cannot win any more
    (another seat of the round stays ahead, or level with the tie going to
    the seat that reached the target), "win" when the bank ends the game
    with this seat alone on top, None otherwise (no final round, or seats
    still to play who could pass it)."""
    if game.final < 0 and game.playoff is None:
        return None
    seats = game.seats
    pool = game.playoff if game.playoff is not None else game.active_seats()
    current = game.current
    mine = seats[current].score + total
    best = -1
    for i in pool:
        if i != current and seats[i].score > best:
            best = seats[i].score
    if best < 0:
        return None
    if mine < best:
        return "lose"
    if mine == best:
        final = game.final
        if (game.rules.tie == "trigger" and game.playoff is None and final != current
                and final in pool and seats[final].score == best):
            return "lose"
        return None
    for i in game.pending:
        if i != current:
            return None  # someone still plays and may pass it
    return "win"
