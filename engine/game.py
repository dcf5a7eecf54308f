"""The turn and game state machine for 1 to 8 seats.

A `Game` is driven by actions, plain tuples:

    ("roll",)              roll the dice left (all of them after hot dice)
    ("keep", dice)         set aside these dice from the roll on the table
    ("bank",)              add the turn total to the banked total
    ("take",)              take over the previous turn's points and dice
    ("pass",)              accept a farkle or bust; the turn passes on
    ("join", name, kind)   a seat joins at 0 (kind "" = person, else a bot key)
    ("leave", seat)        a seat leaves; its turn, if running, is dropped

`legal_actions()` lists the turn actions of the current state (join and
leave are table actions, allowed whenever `why_not` says so). `why_not(a)`
gives the reason an action is refused as a `(key, values)` pair, or None;
`apply(a)` raises `IllegalAction` with that key and those values and
leaves the state exactly as it was. The keys (`REASONS`) are words, not
prose: a screen shows the text "why_" + key of the player's language,
formatted with the values. `bank_refusal(keep)` answers "may I bank after
this keep?" before the keep is made.

Phases (`game.phase`):
    "start"   a turn begins: roll (or take over, when `offer` is set);
              after a takeover the turn total is inherited and only roll
              is legal: whoever takes over must roll successfully first
    "keep"    dice are on the table: keep a valid set (auto-kept with
              `auto_keep`)
    "decide"  roll on, or bank (refused with a reason below the entry
              hurdle, or on hot dice with hot_dice "must")
    "farkle"  the roll scored nothing (`lost_kind` "farkle") or passed an
              exact target (`lost_kind` "bust"): pass
    "over"    the game is decided: `winner` holds the seat

Turn fields: `roll` (dice on the table; after a keep, the dice not kept),
`aside` (dice set aside since the turn or the last hot dice began),
`turn_total`, `open_singles` (triples across rolls). `dice_left()` is what
the next roll uses. End game: `final` (seat that opened the final round),
`pending` (seats still to play in the final round or a play-off round),
`playoff` (seats in the play-off, or None).

Decisions where docs/rules.md leaves room:
- A bust (exact target) counts as a farkled turn for the penalty.
- A takeover after a bust offers the points of the last roll's scoring dice
  (all of them) and the dice left after setting them aside.
- With entry 0 every seat is past the entry, so it may take over before
  its first bank.
- A taker starts with the set-aside dice of the previous player; triples
  across rolls do not carry over to the taker.
- No takeover offers during play-off rounds.
- On an exact target, no offer that would reach the target (or pass it):
  the taker must roll, and every score would then bust.
- Nobody joins once the final round or a play-off has begun (a newcomer at
  0 could not take part fairly); leaving is always possible while another
  seat stays.
- With finish "round", a round ends with the last seat in seat order.
- The event log (`events`) keeps the most recent 64 events; hosts read them
  after each action (`events_total` counts every event logged, so the new
  ones are the last `events_total - before` entries). Events are tuples,
  first the kind: "turn", "roll",
  "keep", "hot", "bank", "farkle", "bust", "penalty", "take", "final",
  "playoff", "win", "join", "leave".
"""

from engine import scoring

MAX_SEATS = 8
MAX_NAME = 12
MAX_EVENTS = 64

ROLL = ("roll",)
BANK = ("bank",)
TAKE = ("take",)
PASS = ("pass",)


# Every reason key `why_not` can give (the texts hold "why_" + key in each
# language; tests/cpython/test_reason_texts.py checks both tables).
REASONS = (
    "action", "over", "no_dice", "roll_first", "keep_first", "decide_first",
    "farkle_first", "nothing_to_bank", "no_offer", "no_farkle", "empty_keep",
    "not_on_table", "not_scoring", "past_target", "hot_must", "entry",
    "final", "full", "name", "no_seat", "last_seat",
)


class IllegalAction(ValueError):
    """An action the current state does not allow: `key` (one of REASONS)
    and `values` (the numbers or names a text needs) say why."""

    def __init__(self, key, values=()):
        super().__init__(key, values)  # ValueError.__init__ does not exist on MicroPython
        self.key = key
        self.values = values


class Seat:
    """One place at the table: a person or a computer, and their totals."""

    FIELDS = ("name", "kind", "score", "entered", "farkles", "active", "turns",
              "farkle_turns", "best_turn")

    def __init__(self, name, kind=""):
        self.name = name
        self.kind = kind
        self.score = 0
        self.entered = False
        self.farkles = 0  # farkled turns in a row (for the penalty)
        self.active = True
        self.turns = 0
        self.farkle_turns = 0
        self.best_turn = 0

    def to_list(self):
        """The seat as a list of plain values, in FIELDS order."""
        return [getattr(self, f) for f in self.FIELDS]

    @classmethod
    def from_list(cls, values):
        """Rebuild a seat from `to_list` output (checked by the caller)."""
        seat = cls(values[0], values[1])
        for i in range(2, len(cls.FIELDS)):
            setattr(seat, cls.FIELDS[i], values[i])
        return seat

    @property
    def is_bot(self):
        """True for a computer seat."""
        return bool(self.kind)


def active_indices(seats):
    """Indices of the rows with `active` set, in order (game seats and score
    pad rows alike)."""
    return [i for i in range(len(seats)) if seats[i].active]


def ranking(seats):
    """Active row indices, highest `score` first, earlier rows first on ties."""
    order = active_indices(seats)
    order.sort(key=lambda i: (-seats[i].score, i))
    return order


def check_name(name):
    """A seat name: 1..12 characters, not only spaces; ValueError otherwise."""
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise ValueError("a name has 1 to %d characters (got %r)" % (MAX_NAME, name))
    return name


class Game:
    """A game of Zehntausend under `rules` for the seats in `names` (each a
    name, or a (name, kind) pair), with `dice(n) -> list of faces`."""

    def __init__(self, rules, names, dice=None):
        if not 1 <= len(names) <= MAX_SEATS:
            raise ValueError("a game has 1 to %d seats" % MAX_SEATS)
        self.rules = rules
        self.dice = dice
        self.seats = []
        for item in names:
            if isinstance(item, str):
                item = (item, "")
            elif not isinstance(item, (tuple, list)) or len(item) != 2:
                raise ValueError("a seat is a name or a (name, kind) pair (got %r)" % (item,))
            self.seats.append(Seat(check_name(item[0]), _check_kind(item[1])))
        self.current = 0
        self.phase = "start"
        self.roll = ()
        self.aside = ()
        self.turn_total = 0
        self.open_singles = ()
        self.offer = None  # (points, aside) the current seat may take over
        self.lost = 0  # points lost by the farkle or bust on the table
        self.lost_kind = ""
        self.next_offer = None  # offer for the next seat after this turn
        self.final = -1  # seat that opened the final round
        self.pending = []
        self.playoff = None
        self.winner = -1
        self.events = []
        self.events_total = 0  # events ever logged here: hosts find new ones
        self._keeps_cache = None
        self._event("turn", 0)

    # ----------------------------------------------------------- queries

    def seat(self):
        """The seat whose turn it is."""
        return self.seats[self.current]

    def dice_left(self):
        """Dice the next roll uses (all of them after hot dice)."""
        n = self.rules.dice - len(self.aside)
        return n if n else self.rules.dice

    def hot(self):
        """True when every die is set aside (hot dice)."""
        return len(self.aside) == self.rules.dice

    def active_seats(self):
        """Indices of the seats still in the game, in seat order."""
        return active_indices(self.seats)

    def standings(self):
        """Active seat indices, highest banked total first (seat order on ties)."""
        return ranking(self.seats)

    def valid_keeps(self):
        """The keeps allowed for the roll on the table: (dice, points) pairs
        (a shared list: read it, do not change it)."""
        if self.phase != "keep":
            return []
        room = self.rules.target - self.seat().score - self.turn_total
        key = (self.roll, self.open_singles, room, self.rules)
        cached = self._keeps_cache
        if cached is not None and cached[0] == key:
            return cached[1]  # the screens, bots and checks ask several times a roll
        found = scoring.keeps(self.roll, self.rules, self.open_singles)
        if self.rules.exact:
            found = [k for k in found if k[1] <= room]
        self._keeps_cache = (key, found)
        return found

    def legal_actions(self):
        """Every turn action allowed now (join and leave: see `why_not`)."""
        phase = self.phase
        if phase == "start":
            return [ROLL, TAKE] if self.offer else [ROLL]
        if phase == "keep":
            return [("keep", k[0]) for k in self.valid_keeps()]
        if phase == "decide":
            refused = self._bank_refusal(self.turn_total, len(self.aside))
            return [ROLL] if refused else [ROLL, BANK]
        if phase == "farkle":
            return [PASS]
        return []

    def why_not(self, action):
        """Why `action` is refused now, as a `(key, values)` pair (key one of
        REASONS), or None when it is legal."""
        if not isinstance(action, tuple) or not action:
            return _ACTION
        kind = action[0]
        if kind == "join":
            return self._join_refusal(action)
        if kind == "leave":
            return self._leave_refusal(action)
        phase = self.phase
        if phase == "over":
            return _OVER
        if kind in ("roll", "bank", "take", "pass") and len(action) != 1:
            return _ACTION
        if kind == "roll":
            if phase not in ("start", "decide"):
                return _PHASE_HINT[phase]
            if self.dice is None:
                return ("no_dice", ())
            return None
        if kind == "keep":
            if phase != "keep":
                return _PHASE_HINT[phase] if phase != "start" else ("roll_first", ())
            return self._keep_refusal(action)
        if kind == "bank":
            if phase != "decide":
                return ("nothing_to_bank", ()) if phase in ("start", "keep") else _PHASE_HINT[
                    phase]
            return self._bank_refusal(self.turn_total, len(self.aside))
        if kind == "take":
            if phase != "start" or not self.offer:
                return ("no_offer", ())
            return None
        if kind == "pass":
            if phase != "farkle":
                return ("no_farkle", ())
            return None
        return _ACTION

    def bank_refusal(self, keep=(), points=None):
        """Why banking is refused now, or after first setting aside `keep`
        (a valid keep of the roll on the table, worth `points` when the
        caller knows them from `valid_keeps`): a `(key, values)` pair like
        `why_not`, or None when the points may be banked. Screens ask this
        before offering a keep-and-bank in one press."""
        if not keep:
            return self.why_not(BANK)
        if points is None:
            points = scoring.read_keep(keep, self.rules, self.open_singles)[0] or 0
        return self._bank_refusal(self.turn_total + points, len(self.aside) + len(keep))

    def _keep_refusal(self, action):
        if len(action) != 2 or not isinstance(action[1], (tuple, list)):
            return _ACTION
        keep = action[1]
        for d in keep:
            if type(d) is not int or not 1 <= d <= 6:
                return _ACTION
        if not keep:
            return ("empty_keep", ())
        rest = list(self.roll)
        for d in keep:
            if d not in rest:
                return ("not_on_table", (d,))
            rest.remove(d)
        points = scoring.read_keep(keep, self.rules, self.open_singles)[0]
        if points is None:
            return ("not_scoring", ())
        if self.rules.exact:
            total = self.seat().score + self.turn_total + points
            if total > self.rules.target:
                return ("past_target", (self.rules.target,))
        return None

    def _bank_refusal(self, total, aside):
        """Why a turn total `total` with `aside` dice set aside may not be banked."""
        rules = self.rules
        seat = self.seat()
        hot = aside == rules.dice
        lands = rules.exact and seat.score + total == rules.target  # an exact hit always wins
        if hot and rules.hot_dice == "must" and not lands:
            return ("hot_must", ())
        if not seat.entered and total < rules.entry:
            return ("entry", (rules.entry,))
        return None

    def _join_refusal(self, action):
        if len(action) != 3:
            return _ACTION
        if self.phase == "over":
            return _OVER
        if self.final >= 0 or self.playoff is not None:
            return ("final", ())
        if len(self.active_seats()) >= MAX_SEATS:
            return ("full", (MAX_SEATS,))
        try:
            _check_kind(action[2])
        except ValueError:
            return _ACTION
        try:
            check_name(action[1])
        except ValueError:
            return ("name", (MAX_NAME,))
        return None

    def _leave_refusal(self, action):
        if len(action) != 2 or type(action[1]) is not int:
            return _ACTION
        i = action[1]
        if self.phase == "over":
            return _OVER
        if not 0 <= i < len(self.seats) or not self.seats[i].active:
            return ("no_seat", ())
        if len(self.active_seats()) == 1:
            return ("last_seat", ())
        return None

    # ----------------------------------------------------------- actions

    def apply(self, action):
        """Carry out `action`; IllegalAction (state unchanged) when refused."""
        refusal = self.why_not(action)
        if refusal is not None:
            raise IllegalAction(refusal[0], refusal[1])
        kind = action[0]
        if kind == "roll":
            self._roll()
        elif kind == "keep":
            self._keep(tuple(sorted(action[1])))
        elif kind == "bank":
            self._bank()
        elif kind == "take":
            self._take()
        elif kind == "pass":
            self._pass()
        elif kind == "join":
            self._join(action[1], action[2])
        else:
            self._leave(action[1])

    def _roll(self):
        n = self.dice_left()
        if self.dice is None:
            raise ValueError("this game has no dice source to roll with")
        faces = self.dice(n)
        if len(faces) != n:
            raise ValueError("the dice source gave %d faces for %d dice" % (len(faces), n))
        for d in faces:
            if type(d) is not int or not 1 <= d <= 6:
                raise ValueError("the dice source gave %r" % (d,))
        if self.hot():
            self.aside = ()
            self.open_singles = ()
        self.offer = None
        self.roll = tuple(faces)
        self._event("roll", self.current, self.roll)
        rules = self.rules
        found = scoring.keeps(self.roll, rules, self.open_singles)
        auto = scoring.most_dice(found)
        if auto is None:
            self._lose("farkle", None)
            return
        self.phase = "keep"
        room = rules.target - self.seat().score - self.turn_total
        if rules.exact:
            found = [k for k in found if k[1] <= room]
        self._keeps_cache = ((self.roll, self.open_singles, room, rules), found)
        if rules.exact and not found:
            self._lose("bust", auto)
            return
        if rules.auto_keep:
            if self._keep_refusal(("keep", auto[0])) is not None:
                self._lose("bust", auto)
                return
            self._keep(auto[0])

    def _lose(self, kind, auto):
        self.phase = "farkle"
        self.lost_kind = kind
        self.lost = self.turn_total
        self.next_offer = None
        if kind == "bust" and self.rules.takeover:
            # The successor may take the last roll's points with the dice left.
            aside = _aside_after(self.aside, auto[0], self.rules.dice)
            self.next_offer = (auto[1], aside)
        self._event(kind, self.current, self.lost)

    def _keep(self, keep):
        points, used = scoring.read_keep(keep, self.rules, self.open_singles)
        assert points is not None  # the keep was checked as legal
        rest = list(self.roll)
        for d in keep:
            rest.remove(d)
        if self.rules.triples_across:
            self.open_singles = _open_after(self.open_singles, used, keep, self.rules)
        self.roll = tuple(rest)
        self.aside = tuple(sorted(self.aside + keep))
        self.turn_total += points
        self.phase = "decide"
        self._event("keep", self.current, keep, points)
        if self.hot():
            self._event("hot", self.current, self.turn_total)

    def _bank(self):
        seat = self.seat()
        points = self.turn_total
        seat.turns += 1
        seat.score += points
        seat.entered = True
        seat.farkles = 0
        if points > seat.best_turn:
            seat.best_turn = points
        self._event("bank", self.current, points, seat.score)
        rules = self.rules
        self.next_offer = None
        if rules.exact and seat.score == rules.target:
            self._win(self.current)
            return
        if rules.finish == "immediate" and seat.score >= rules.target:
            self._win(self.current)
            return
        if (rules.finish in ("last_turn", "round") and self.final < 0
                and seat.score >= rules.target):
            self._open_final_round()
        if rules.takeover and self.playoff is None:
            self.next_offer = (points, () if self.hot() else self.aside)
        self._advance()

    def _take(self):
        offer = self.offer
        assert offer is not None  # taking over is legal only with an offer
        points, aside = offer
        self.offer = None
        self.turn_total = points
        self.aside = aside
        self.roll = ()
        self._event("take", self.current, points, self.rules.dice - len(aside))

    def _pass(self):
        seat = self.seat()
        seat.turns += 1
        seat.farkles += 1
        seat.farkle_turns += 1
        if self.rules.penalty and seat.farkles >= 3:
            before = seat.score
            seat.score = max(0, seat.score - self.rules.penalty)
            seat.farkles = 0
            if before:  # nothing to take from a seat at 0: no event
                self._event("penalty", self.current, before - seat.score, seat.score)
        self._advance()

    def _join(self, name, kind):
        self.seats.append(Seat(name, kind))
        self._event("join", len(self.seats) - 1, name)

    def _leave(self, i):
        self.seats[i].active = False
        if i in self.pending:
            self.pending.remove(i)
        if self.playoff is not None and i in self.playoff:
            self.playoff.remove(i)
        self._event("leave", i, self.seats[i].name)
        if i == self.current:
            self.next_offer = None
            self._advance()
        elif self._end_game_due():
            self._decide()

    # ----------------------------------------------------------- turn flow

    def _end_game_due(self):
        return (self.final >= 0 or self.playoff is not None) and not self.pending

    def _advance(self):
        """Hand the dice to the next seat, or decide the game."""
        offer = self.next_offer
        self.next_offer = None
        if self.current in self.pending:
            self.pending.remove(self.current)
        if self._end_game_due():
            self._decide()
            return
        if self.pending:
            nxt = self._next_in(self.pending)
        else:
            nxt = self._next_in(self.active_seats())
        self._start_turn(nxt, offer)

    def _next_in(self, seats):
        """The first seat of `seats` after the current one in seat order."""
        for i in seats:
            if i > self.current:
                return i
        return seats[0]

    def _start_turn(self, i, offer):
        self.current = i
        self.phase = "start"
        self.roll = ()
        self.aside = ()
        self.turn_total = 0
        self.open_singles = ()
        self.lost = 0
        self.lost_kind = ""
        self.offer = None
        seat = self.seats[i]
        if offer is not None and (seat.entered or not self.rules.entry):
            # On an exact target an offer that reaches it leaves nothing to
            # score: every scoring roll would bust. It is not made.
            if not (self.rules.exact and seat.score + offer[0] >= self.rules.target):
                self.offer = offer
        self._event("turn", i)

    def _open_final_round(self):
        self.final = self.current
        if self.rules.finish == "last_turn":
            self.pending = [i for i in self.active_seats() if i != self.current]
        else:  # "round": the seats after this one in seat order
            self.pending = [i for i in self.active_seats() if i > self.current]
        self._event("final", self.current, tuple(self.pending))

    def _decide(self):
        """The final round or a play-off round is complete: find the winner."""
        pool = self.playoff if self.playoff is not None else self.active_seats()
        if not pool:  # every play-off seat left: the best remaining seat wins
            pool = self.active_seats()
        top = max(self.seats[i].score for i in pool)
        leaders = [i for i in pool if self.seats[i].score == top]
        if len(leaders) == 1:
            self._win(leaders[0])
        elif self.rules.tie == "trigger":
            self._win(self.final if self.final in leaders else leaders[0])
        else:
            self.playoff = leaders
            self.pending = list(leaders)
            self._event("playoff", tuple(leaders))
            self.current = -1
            self._start_turn(leaders[0], None)

    def _win(self, i):
        self.winner = i
        self.phase = "over"
        self.pending = []
        self.offer = None
        self.next_offer = None
        self._event("win", i, self.seats[i].score)

    def _event(self, *event):
        self.events_total += 1
        events = self.events
        if len(events) >= MAX_EVENTS:  # trimmed first: the list never grows
            del events[0:len(events) - MAX_EVENTS + 1]  # past one block of MAX_EVENTS
        events.append(event)

    # ----------------------------------------------------------- save state

    def to_data(self):
        """The whole state as nested lists of ints and strings (no events, no
        dice source): what `engine.codec` saves."""
        offer = self.offer
        next_offer = self.next_offer
        return [
            self.rules.encode(),
            [s.to_list() for s in self.seats],
            self.current, self.phase, list(self.roll), list(self.aside),
            self.turn_total, list(self.open_singles),
            None if offer is None else [offer[0], list(offer[1])],
            self.lost, self.lost_kind,
            None if next_offer is None else [next_offer[0], list(next_offer[1])],
            self.final, list(self.pending),
            None if self.playoff is None else list(self.playoff),
            self.winner,
        ]

    @classmethod
    def from_data(cls, data, dice=None):
        """Rebuild a game from `to_data` output; ValueError when it does not
        describe a consistent game."""
        from engine.rules import Rules

        if not isinstance(data, list) or len(data) != 16:
            raise ValueError("not a saved game")
        rules = Rules.decode(data[0])
        seats = data[1]
        if not isinstance(seats, list) or not seats:
            raise ValueError("saved game has no seats")
        game = cls(rules, [("x", "")], dice)
        game.seats = [_seat_from(v) for v in seats]
        game.current = _index(data[2], len(game.seats), "current seat")
        if not isinstance(data[3], str) or (
                data[3] not in _PHASE_HINT and data[3] not in ("start", "over")):
            raise ValueError("bad phase %r" % (data[3],))
        game.phase = data[3]
        game.roll = _dice_tuple(data[4], rules.dice)
        game.aside = _dice_tuple(data[5], rules.dice)
        game.turn_total = _points(data[6])
        game.open_singles = _dice_tuple(data[7], rules.dice)
        game.offer = _offer(data[8], rules)
        game.lost = _points(data[9])
        if data[10] not in ("", "farkle", "bust"):
            raise ValueError("bad loss kind")
        game.lost_kind = data[10]
        game.next_offer = _offer(data[11], rules)
        game.final = _index(data[12], len(game.seats), "final seat", True)
        game.pending = [_index(i, len(game.seats), "pending seat") for i in _list(data[13])]
        game.playoff = None if data[14] is None else [
            _index(i, len(game.seats), "play-off seat") for i in _list(data[14])]
        game.winner = _index(data[15], len(game.seats), "winner", True)
        if len(game.roll) + len(game.aside) > rules.dice:
            raise ValueError("more dice than the rules have")
        if (game.phase == "over") != (game.winner >= 0):
            raise ValueError("winner and phase disagree")
        game.events = []
        game.events_total = 0
        return game

    def __eq__(self, other):
        return isinstance(other, Game) and self.to_data() == other.to_data()

    def __ne__(self, other):
        return not self.__eq__(other)


_ACTION = ("action", ())  # a malformed action: no player can send one
_OVER = ("over", ())
_PHASE_HINT = {
    "keep": ("keep_first", ()),
    "decide": ("decide_first", ()),
    "farkle": ("farkle_first", ()),
    "over": _OVER,
}


def _aside_after(aside, keep, dice):
    """The set-aside dice after adding `keep` (empty again after hot dice)."""
    out = tuple(sorted(tuple(aside) + tuple(keep)))
    return () if len(out) == dice else out


def _open_after(open_singles, used, keep, rules):
    """Open singles after a keep: drop those used to complete triples, add
    the 1s and 5s of the keep that score as singles in its best reading."""
    rest = list(open_singles)
    for d in used:
        rest.remove(d)
    c = scoring.counts_of(keep)
    for face in (1, 5):
        uses = used.count(face)
        if uses:  # these dice completed a triple: not singles
            c[face] -= 3 - uses
    total = _score_counts(c, rules)
    for face in (1, 5):
        single = 100 if face == 1 else 50
        for s in range(c[face], 0, -1):
            c[face] -= s
            part = _score_counts(c, rules)
            c[face] += s
            if part is not None and part + s * single == total:
                rest.extend([face] * s)
                break
    return tuple(sorted(rest))


def _score_counts(c, rules):
    """Points of the dice counted in `c` read as one keep (0 when empty)."""
    keep = []
    for f in range(1, 7):
        keep.extend([f] * c[f])
    return scoring.score_keep(keep, rules) if keep else 0


def _check_kind(kind):
    if not isinstance(kind, str) or len(kind) > 16:
        raise ValueError("a seat kind is '' (person) or a computer level key")
    return kind


def _list(v):
    if not isinstance(v, list):
        raise ValueError("saved game: expected a list")
    return v


def _index(v, n, what, allow_none=False):
    if type(v) is not int or not (-1 if allow_none else 0) <= v < n:
        raise ValueError("saved game: bad %s %r" % (what, v))
    return v


def _points(v):
    if type(v) is not int or v < 0 or v % 50:
        raise ValueError("saved game: bad points %r" % (v,))
    return v


def _dice_tuple(v, limit):
    v = _list(v)
    if len(v) > limit:
        raise ValueError("saved game: too many dice")
    for d in v:
        if type(d) is not int or not 1 <= d <= 6:
            raise ValueError("saved game: bad die %r" % (d,))
    return tuple(v)


def _offer(v, rules):
    if v is None:
        return None
    v = _list(v)
    if len(v) != 2:
        raise ValueError("saved game: bad offer")
    return (_points(v[0]), _dice_tuple(v[1], rules.dice - 1))


def _seat_from(v):
    v = _list(v)
    if len(v) != len(Seat.FIELDS):
        raise ValueError("saved game: bad seat")
    check_name(v[0])
    _check_kind(v[1])
    for i in (2, 4, 6, 7, 8):
        if type(v[i]) is not int or v[i] < 0:
            raise ValueError("saved game: bad seat number")
    for i in (3, 5):
        if v[i] not in (True, False):
            raise ValueError("saved game: bad seat flag")
    return Seat.from_list(v)
