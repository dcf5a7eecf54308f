"""The score pad ("Tafel") for evenings with real dice (seed 002).

The device does not roll here: the players do, and after every turn the pad
is told what the current seat scored. A `ScorePad` is driven by actions,
plain tuples, like `engine.game.Game`:

    ("enter", points)      the current seat banks `points` (a multiple of 50)
    ("nothing",)           the current seat rolled "Nichts": 0 for the turn
    ("adjust", seat, d)    the +/- button: add d (signed) to a seat's total
    ("join", name)         a new seat at 0, at the end of the order
    ("leave", seat)        a seat leaves; its turn, if running, is dropped
    ("undo",)              take back the last entry of any of the kinds above

`why_not(action)` gives the reason an action is refused, or None; `apply`
raises `PadError` (a ValueError with `reason`, and `key`/`values` from which
a screen builds its own text) and leaves the pad exactly as it was. Each
accepted action returns its events, tuples with the kind first:
"turn" (seat, points, total), "hurdle" (seat, points, entry), "nothing"
(seat, Nichts in a row), "penalty" (seat, points taken, total), "adjust"
(seat, change, total), "join" (seat, name), "leave" (seat, name), "final"
(seats still to play), "round" (round number), "playoff" (seats), "win"
(seat, total), "undo" (the entry taken back, as `history()` shows it).
The plain methods `enter`, `nothing`, `adjust`, `join`, `leave` and `undo`
do the same.

State: `seats` (every row of the evening, `PadSeat`, including seats that
left), `current` (the seat whose turn it is), `round_no` (from 1),
`playoff` (the tied leaders playing further rounds, or None), `winner`
(-1 until decided; then `current` is the winner too). Queries:
`standings()`, `to_play()`, `final_round`, `over`, `stats(i)`, `history()`,
`last_entry()`, `hurdle_note(points)`.

Decisions where the seed leaves room:
- A turn below the entry hurdle ("Wer darunter bleibt, schreibt nichts") is
  not refused: it is recorded as a turn with 0, the seat stays out, and the
  "hurdle" event carries the reason for the screen (`hurdle_note(points)`
  gives it before entering). It is not a Nichts, and like every turn that is
  not a Nichts it ends a run of Nichts. `enter(0)` for a seat that is in is
  a turn of 0 that is not a Nichts either (use `nothing()` for a farkle).
- Three Nichts in a row take `penalty` points off (never below 0) and reset
  the run; any other turn resets it as well. Penalty 0: no penalty.
- `adjust` never takes a total below 0: a larger minus stops at 0 (as the
  automatic penalty does). A plus brings a seat that was not yet in into the
  game (a correction credits points as if written). Adjusting is not a turn.
- The end (002): a round ends with the last seat in seat order. When a round
  ends and some seat stands at or above the target, the highest total wins
  if it is alone; tied leaders play further full rounds, only they enter
  turns, until one is ahead after a round. During a play-off only its seats
  can win. When all but one play-off seat leave, that one wins at once.
- Names are unique among the seats at the table (case and outer spaces
  ignored); someone who left and comes back joins as a new seat at 0.
  Nobody joins during the final round or a play-off. At most 8 seats at the
  table, at most 32 rows in one evening. The last seat cannot leave.
- Joins and leaves are entries like the points: `undo` takes back whatever
  came last, repeatedly back to the start. After the winner is decided only
  `undo` is accepted.

History and undo: the pad keeps every entry since the start (`log`), one
small int per points/Nichts/+-/leave entry (op, seat and points/50 packed)
and the name string per join: a 4-byte list slot per entry on the RP2040,
about 2 KB for a long evening of 500 entries, 2 to 3 bytes each in a save.
Every MARK_EVERY (64) entries the pad also keeps a snapshot of the rows and
the turn (a few hundred bytes each, not saved: loading replays the log and
makes them again). Undo restores the latest snapshot before the last entry
(or the start) and replays the entries after it, the last one left out: the
previous state comes back exactly, with no inverse bookkeeping to get wrong,
and an undo replays at most 63 entries however long the evening. The log is
bounded at MAX_LOG (1000) entries, five times an evening of eight to
10000 (about 25 turns each), so memory (about 4 KB of log and 7 KB of
snapshots on the RP2040), save size (about 3 KB) and the replay when loading
stay small; beyond that the pad asks for a new sheet.

Save: `to_data()` holds the setup, the log and the resulting state;
`from_data` replays the log and refuses (ValueError) a save whose state does
not match it. firmware.session saves it with the codec (kind 'P',
firmware.files.KIND_PAD).
"""

from engine.game import MAX_NAME, MAX_SEATS, active_indices, check_name, ranking
from engine.rules import MAX_POINTS

VERSION = "P1"
STEP = 50
MAX_ROWS = 32  # seats in one evening, those who left included (5 bits in a log entry)
MAX_LOG = 1000
MARK_EVERY = 64  # undo replays at most this many entries
PENALTY_RUN = 3  # Nichts in a row that cost the penalty

# The base scoring table for the screen: (label key, points).
BASE_TABLE = (
    ("one", 100),
    ("five", 50),
    ("three_1", 1000),
    ("three_2", 200),
    ("three_3", 300),
    ("three_4", 400),
    ("three_5", 500),
    ("three_6", 600),
)

_ENTER, _NOTHING, _ADJUST, _LEAVE = 0, 1, 2, 3
_OPS = ("enter", "nothing", "adjust", "leave")
_ARITY = {"enter": 2, "nothing": 1, "adjust": 3, "join": 2, "leave": 2, "undo": 1}


# Every key a PadError can carry (the texts hold "pad_err_" + key in each
# language; tests/cpython/test_reason_texts.py checks both tables).
REASONS = ("config", "seats", "name", "name_taken", "action", "no_undo", "over",
           "pad_full", "last_seat", "no_seat", "final", "full", "rows", "number",
           "zero", "negative", "step", "too_many")


class PadError(ValueError):
    """An action the pad refuses: `reason` in English, `key` and `values`
    (the numbers in the reason) for a localised text."""

    def __init__(self, reason, key="", values=()):
        super().__init__(reason)  # ValueError.__init__ does not exist on MicroPython
        self.reason = reason
        self.key = key
        self.values = values


def nearest(points):
    """The multiples of 50 around `points`: (100, 150) for 120, (p, p) for a multiple."""
    lo = points - points % STEP
    return (lo, lo) if lo == points else (lo, lo + STEP)


class PadSeat:
    """One row of the pad: a name, its total and the numbers for the statistics."""

    FIELDS = ("name", "score", "entered", "active", "turns", "nothing", "best",
              "penalties", "run")

    def __init__(self, name):
        self.name = name
        self.score = 0
        self.entered = False  # past the entry hurdle
        self.active = True  # still at the table
        self.turns = 0  # turns entered, Nichts and turns below the hurdle included
        self.nothing = 0  # Nichts in all
        self.best = 0  # best single turn
        self.penalties = 0  # penalties for three Nichts in a row
        self.run = 0  # Nichts in a row now

    def to_list(self):
        """The row as a list of plain values, in FIELDS order."""
        return [getattr(self, f) for f in self.FIELDS]


def _key(name):
    return name.strip().lower()


def _config_error(what, value):
    raise PadError("score pad: bad %s %r" % (what, value), "config", (what,))


class ScorePad:
    """The pad for the seats in `names` (1 to 8), playing to `target`, with an
    entry hurdle `entry` (0 = none) and `penalty` points off for three Nichts
    in a row (0 = none). PadError (a ValueError) on a bad setup."""

    def __init__(self, target=10000, entry=350, penalty=1000, names=()):
        if type(target) is not int or target <= 0 or target % STEP or target > MAX_POINTS:
            _config_error("target", target)
        if type(entry) is not int or entry < 0 or entry % STEP or entry > target:
            _config_error("entry hurdle", entry)
        if type(penalty) is not int or penalty < 0 or penalty % STEP or penalty > MAX_POINTS:
            _config_error("penalty", penalty)
        if not isinstance(names, (list, tuple)) or not 1 <= len(names) <= MAX_SEATS:
            raise PadError("a score pad has 1 to %d seats" % MAX_SEATS, "seats", (MAX_SEATS,))
        seen = []
        for name in names:
            try:
                check_name(name)
            except ValueError as e:
                raise PadError(str(e), "name", (MAX_NAME,))
            if _key(name) in seen:
                raise PadError("the name %s is taken" % name, "name_taken", (name,))
            seen.append(_key(name))
        self.target = target
        self.entry = entry
        self.penalty = penalty
        self.start_names = tuple(names)
        self.seats = [PadSeat(n) for n in names]
        self.current = 0
        self.round_no = 1
        self.playoff = None
        self.winner = -1
        self.log = []
        self._marks = []  # state every MARK_EVERY entries, for a quick undo

    # ----------------------------------------------------------- queries

    @property
    def over(self):
        """True once the winner is decided."""
        return self.winner >= 0

    @property
    def final_round(self):
        """True while the round in which someone reached the target is played out."""
        if self.winner >= 0 or self.playoff is not None:
            return False
        for s in self.seats:
            if s.active and s.score >= self.target:
                return True
        return False

    @property
    def can_undo(self):
        """True when there is an entry to take back."""
        return bool(self.log)

    def seat(self):
        """The row whose turn it is."""
        return self.seats[self.current]

    def active_seats(self):
        """Indices of the seats at the table, in seat order."""
        return active_indices(self.seats)

    def standings(self):
        """Seats at the table, highest total first (seat order on ties)."""
        return ranking(self.seats)

    def to_play(self):
        """Seats still to enter a turn in this round, the current one first."""
        if self.winner >= 0:
            return []
        return [i for i in self._pool() if i >= self.current]

    def stats(self, i):
        """The statistics of row `i` as a dict of FIELDS."""
        s = self.seats[i]
        return {f: getattr(s, f) for f in PadSeat.FIELDS}

    def hurdle_note(self, points):
        """Why `points` would not count for the current seat (below the
        entry hurdle), or None when they count."""
        s = self.seats[self.current]
        if s.entered or points >= self.entry:
            return None
        return "%s needs %d to get in: %d does not count" % (s.name, self.entry, points)

    def history(self):
        """Every entry since the start, oldest first: ("enter", seat, points),
        ("nothing", seat), ("adjust", seat, change asked), ("join", seat,
        name), ("leave", seat)."""
        out = []
        rows = len(self.start_names)
        for item in self.log:
            if isinstance(item, str):
                out.append(("join", rows, item))
                rows += 1
            else:
                out.append(_decode(item))
        return out

    def last_entry(self):
        """The entry `undo` would take back (as in `history`), or None."""
        if not self.log:
            return None
        item = self.log[-1]
        if isinstance(item, str):
            return ("join", len(self.seats) - 1, item)
        return _decode(item)

    # ----------------------------------------------------------- actions

    def why_not(self, action):
        """The reason `action` is refused now, or None when it is accepted."""
        err = self._refusal(action)
        return None if err is None else err.reason

    def _refusal(self, action):
        if not isinstance(action, tuple) or not action:
            return PadError("an action is a tuple such as ('nothing',)", "action")
        kind = action[0]
        if kind not in _ARITY:
            return PadError("unknown action %r" % (kind,), "action")
        if len(action) != _ARITY[kind]:
            return PadError("%s takes %d argument(s)" % (kind, _ARITY[kind] - 1), "action")
        if kind == "undo":
            return None if self.log else PadError("nothing to undo", "no_undo")
        if self.winner >= 0:
            return PadError("the evening is over: undo to correct the last entry", "over")
        if kind != "join" and len(self.log) >= MAX_LOG:
            return PadError("the pad is full (%d entries): start a new one" % MAX_LOG,
                            "pad_full", (MAX_LOG,))
        if kind == "enter":
            return _points_refusal(action[1], False)
        if kind == "nothing":
            return None
        if kind == "join":
            return self._join_refusal(action[1])
        err = self._seat_refusal(action[1])
        if err is not None:
            return err
        if kind == "adjust":
            return _points_refusal(action[2], True)
        if len(self.active_seats()) == 1:
            return PadError("the last seat cannot leave", "last_seat")
        return None

    def _seat_refusal(self, i):
        if type(i) is not int or not 0 <= i < len(self.seats) or not self.seats[i].active:
            return PadError("seat %r is not at the table" % (i,), "no_seat", (i,))
        return None

    def _join_refusal(self, name):
        if len(self.log) >= MAX_LOG:
            return PadError("the pad is full (%d entries): start a new one" % MAX_LOG,
                            "pad_full", (MAX_LOG,))
        try:
            check_name(name)
        except ValueError as e:
            return PadError(str(e), "name", (MAX_NAME,))
        if self.playoff is not None or self.final_round:
            return PadError("nobody joins once the final round has begun", "final")
        active = self.active_seats()
        if len(active) >= MAX_SEATS:
            return PadError("the table is full (%d seats)" % MAX_SEATS, "full", (MAX_SEATS,))
        if len(self.seats) >= MAX_ROWS:
            return PadError("the pad has room for %d names in one evening" % MAX_ROWS,
                            "rows", (MAX_ROWS,))
        for i in active:
            if _key(self.seats[i].name) == _key(name):
                return PadError("the name %s is taken" % name, "name_taken", (name,))
        return None

    def apply(self, action):
        """Carry out `action` and return its events; PadError (pad unchanged)
        when refused."""
        err = self._refusal(action)
        if err is not None:
            raise err
        kind = action[0]
        if kind == "undo":
            entry = self.last_entry()
            self._undo()
            return [("undo", entry)]
        was_final = self.final_round
        ev = []
        i = self.current
        if kind == "enter":
            self.log.append(_code(_ENTER, i, action[1]))
            self._enter(action[1], ev)
        elif kind == "nothing":
            self.log.append(_code(_NOTHING, i, 0))
            self._nothing(ev)
        elif kind == "adjust":
            self.log.append(_code(_ADJUST, action[1], action[2]))
            self._adjust(action[1], action[2], ev)
        elif kind == "join":
            self.log.append(action[1])
            self.seats.append(PadSeat(action[1]))
            ev.append(("join", len(self.seats) - 1, action[1]))
        else:
            self.log.append(_code(_LEAVE, action[1], 0))
            self._leave(action[1], ev)
        if not was_final and self.final_round:
            ev.append(("final", tuple(self.to_play())))
        if len(self.log) % MARK_EVERY == 0:
            self._marks.append(self._snapshot())
        return ev

    def enter(self, points):
        """The current seat banks `points`; returns the events."""
        return self.apply(("enter", points))

    def nothing(self):
        """The current seat rolled "Nichts"; returns the events."""
        return self.apply(("nothing",))

    def adjust(self, seat, delta):
        """Add `delta` (signed multiple of 50) to a seat's total, not below 0."""
        return self.apply(("adjust", seat, delta))

    def join(self, name):
        """A new seat at 0, at the end of the order; returns the events."""
        return self.apply(("join", name))

    def leave(self, seat):
        """Seat `seat` leaves the table; returns the events."""
        return self.apply(("leave", seat))

    def undo(self):
        """Take back the last entry; returns [("undo", entry)]."""
        return self.apply(("undo",))

    def _enter(self, points, ev):
        i = self.current
        s = self.seats[i]
        s.turns += 1
        s.run = 0
        if not s.entered and points < self.entry:
            ev.append(("hurdle", i, points, self.entry))
        else:
            s.entered = True
            s.score += points
            if points > s.best:
                s.best = points
            ev.append(("turn", i, points, s.score))
        self._advance(ev)

    def _nothing(self, ev):
        i = self.current
        s = self.seats[i]
        s.turns += 1
        s.nothing += 1
        s.run += 1
        ev.append(("nothing", i, s.run))
        if self.penalty and s.run >= PENALTY_RUN:
            taken = min(self.penalty, s.score)
            s.score -= taken
            s.run = 0
            s.penalties += 1
            ev.append(("penalty", i, taken, s.score))
        self._advance(ev)

    def _adjust(self, i, delta, ev):
        s = self.seats[i]
        total = s.score + delta
        if total < 0:
            total = 0
        change = total - s.score
        s.score = total
        if delta > 0:
            s.entered = True
        ev.append(("adjust", i, change, total))

    def _leave(self, i, ev):
        self.seats[i].active = False
        ev.append(("leave", i, self.seats[i].name))
        playoff = self.playoff
        if playoff is not None and i in playoff:
            playoff.remove(i)
            if len(playoff) == 1:
                self._win(playoff[0], ev)
                return
        if i == self.current:
            self._advance(ev)

    # ----------------------------------------------------------- turn flow

    def _pool(self):
        """The seats that enter turns: the play-off seats, or everyone at the table."""
        return self.playoff if self.playoff is not None else self.active_seats()

    def _advance(self, ev):
        """Hand the dice to the next seat in order, or end the round."""
        for j in self._pool():
            if j > self.current:
                self.current = j
                return
        self._round_end(ev)

    def _round_end(self, ev):
        pool = self._pool()
        seats = self.seats
        top = max(seats[j].score for j in pool)
        if self.playoff is not None or top >= self.target:
            leaders = [j for j in pool if seats[j].score == top]
            if len(leaders) == 1:
                self._win(leaders[0], ev)
                return
            self.playoff = leaders
            ev.append(("playoff", tuple(leaders)))
        self.round_no += 1
        self.current = self._pool()[0]
        ev.append(("round", self.round_no))

    def _win(self, i, ev):
        self.winner = i
        self.current = i
        ev.append(("win", i, self.seats[i].score))

    # ----------------------------------------------------------- replay and save

    def _snapshot(self):
        return (tuple(tuple(s.to_list()) for s in self.seats), self.current, self.round_no,
                None if self.playoff is None else tuple(self.playoff), self.winner)

    def _undo(self):
        """Go back to the state before the last entry: from the latest mark
        (or the start) replay the entries after it, the last one left out."""
        log = self.log
        n = len(log) - 1
        del self._marks[n // MARK_EVERY:]
        if self._marks:
            rows, self.current, self.round_no, playoff, self.winner = self._marks[-1]
            self.seats = [_seat_of(r) for r in rows]
            self.playoff = None if playoff is None else list(playoff)
        else:
            self.seats = [PadSeat(name) for name in self.start_names]
            self.current = 0
            self.round_no = 1
            self.playoff = None
            self.winner = -1
        m = len(self._marks) * MARK_EVERY
        redo = log[m:n]
        del log[m:]  # in place: the long list is neither copied nor grown again
        for item in redo:  # entries of this pad's own log: they fit again
            self.apply(_action_of(item, self.current))

    def to_data(self):
        """The setup, the entries and the resulting state as nested lists of
        ints, strings and bools: what the codec saves."""
        return [
            VERSION, self.target, self.entry, self.penalty, list(self.start_names),
            list(self.log), [s.to_list() for s in self.seats], self.current,
            self.round_no, None if self.playoff is None else list(self.playoff),
            self.winner,
        ]

    @classmethod
    def from_data(cls, data):
        """Rebuild a pad from `to_data` output; ValueError when the data does
        not describe a pad, an entry does not fit, or the state disagrees
        with the entries."""
        if not isinstance(data, list) or len(data) != 11 or data[0] != VERSION:
            raise ValueError("not a saved score pad")
        if not isinstance(data[4], list) or not isinstance(data[5], list):
            raise ValueError("saved score pad: names and entries are lists")
        if len(data[5]) > MAX_LOG:
            raise ValueError("saved score pad: too many entries")
        pad = cls(data[1], data[2], data[3], data[4])
        for k in range(len(data[5])):
            item = data[5][k]
            try:
                pad.apply(_action_of(item, pad.current))
            except ValueError as e:
                raise ValueError("saved score pad: entry %d (%r): %s" % (k + 1, item, e))
        if pad.to_data() != data:
            raise ValueError("saved score pad: the totals do not match the entries")
        return pad

    def __eq__(self, other):
        return isinstance(other, ScorePad) and self.to_data() == other.to_data()

    def __ne__(self, other):
        return not self.__eq__(other)


def _seat_of(row):
    seat = PadSeat(row[0])
    for i in range(1, len(PadSeat.FIELDS)):
        setattr(seat, PadSeat.FIELDS[i], row[i])
    return seat


def _points_refusal(points, signed):
    """Why `points` is not a turn's points (signed: an adjustment), or None."""
    if type(points) is not int:
        return PadError("points are a whole number (got %r)" % (points,), "number")
    if signed:
        if points == 0:
            return PadError("an adjustment of 0 changes nothing", "zero")
    elif points < 0:
        return PadError("points cannot be negative (got %d)" % points, "negative", (points,))
    if points % STEP:
        lo, hi = nearest(points)
        return PadError("%d is not a multiple of 50: %d or %d?" % (points, lo, hi), "step",
                        (points, lo, hi))
    if points > MAX_POINTS or points < -MAX_POINTS:
        return PadError("at most %d at a time (got %d)" % (MAX_POINTS, points), "too_many",
                        (MAX_POINTS, points))
    return None


def _code(op, seat, points):
    """One log entry as a small int: points/50 (signed), seat (5 bits), op (2 bits)."""
    return (points // STEP) << 7 | seat << 2 | op


def _decode(code):
    """A log int as a readable entry: ("enter", seat, points) and so on."""
    op = code & 3
    seat = (code >> 2) & 31
    if op == _ENTER or op == _ADJUST:
        return (_OPS[op], seat, (code >> 7) * STEP)
    return (_OPS[op], seat)


def _action_of(item, current):
    """The action that a log entry replays; ValueError when it is malformed."""
    if isinstance(item, str):
        return ("join", item)
    if type(item) is not int:
        raise ValueError("an entry is a number or a name")
    entry = _decode(item)
    op = item & 3
    if (op == _NOTHING or op == _LEAVE) and item >> 7:
        raise ValueError("a Nichts or a leave has no points")
    if op == _ENTER or op == _NOTHING:
        if entry[1] != current:
            raise ValueError("the entry is not for the current seat")
        return entry[:1] + entry[2:]
    return entry
