"""What every player at the table can see: the input of a computer player.

`View(game)` copies the public part of a game: nothing in it lets a bot
peek at future dice or change the game. Fields:

    rules        the Rules of the game
    phase        "start", "keep", "decide", "farkle" or "over" (engine.game)
    me           the seat index whose turn it is
    roll         dice on the table (after a keep: the dice not kept)
    aside        dice set aside this turn (since the last hot dice)
    turn_total   unbanked points of the turn
    dice_left    dice the next roll uses (all of them after hot dice)
    hot          True when every die is set aside
    open_singles singles usable for triples across rolls
    offer        (points, aside) the seat may take over, or None
    scores       banked total of every seat (seat order)
    entered      per seat: past the entry hurdle
    farkles      per seat: farkled turns in a row
    active       per seat: still at the table
    final        the seat that opened the final round, or -1
    pending      seats still to play in the final round or play-off round
    playoff      seats in the play-off, or None
    legal        the legal actions (engine.game's vocabulary)
    keeps        in phase "keep": the allowed keeps as (dice, points)
"""


class View:
    """A read-only snapshot of the public state of `game`."""

    def __init__(self, game):
        self.rules = game.rules
        self.phase = game.phase
        self.me = game.current
        self.roll = game.roll
        self.aside = game.aside
        self.turn_total = game.turn_total
        self.dice_left = game.dice_left()
        self.hot = game.hot()
        self.open_singles = game.open_singles
        self.offer = game.offer
        seats = game.seats
        self.scores = tuple(s.score for s in seats)
        self.entered = tuple(s.entered for s in seats)
        self.farkles = tuple(s.farkles for s in seats)
        self.active = tuple(s.active for s in seats)
        self.final = game.final
        self.pending = tuple(game.pending)
        self.playoff = None if game.playoff is None else tuple(game.playoff)
        self.legal = tuple(game.legal_actions())
        self.keeps = game.valid_keeps() if game.phase == "keep" else []

    def score(self):
        """The banked total of the seat to move."""
        return self.scores[self.me]

    def leader_score(self, others_only=True):
        """The best banked total among the other active seats (or all)."""
        best = 0
        for i in range(len(self.scores)):
            if self.active[i] and (i != self.me or not others_only):
                best = max(best, self.scores[i])
        return best

    def last_chance(self):
        """True when this is the seat's last turn to pass the leader: it is
        in the final round (or a play-off round) and no later turn follows."""
        return self.me in self.pending and (self.final >= 0 or self.playoff is not None)
