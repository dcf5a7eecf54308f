"""One room: its seats, its game and its numbered events, without any I/O.

The whole room is one JSON-able dict (`Room.state`), saved after every
change. The hub (server/hub.py) calls the methods below, stores the
messages `take_messages` hands out, and only then sends them.

Seats: in the lobby a list of people's places (the creator first, free
places as None) and the computers after them. At the start the free
places are dropped; from then on room seat i is the engine's seat i.

Every change becomes one numbered event (docs/protocol.md, "Events"):
its message carries the event and what changed in the public state
(`d`: the top-level entries of `public()` that differ from the event
before), or the whole public state (`s`) where there is no event before
to build on: the first after the room was made or loaded, and one that
adds or drops an entry. A client that follows the events in order thus
holds the public state and needs no engine of its own to show the table.
"""

import time

import orjson

from engine import rules as rules_mod
from engine.game import MAX_NAME, MAX_SEATS, Game, IllegalAction
from engine.levels import LEVELS
from server import fairdice
from server.names import clean_name, new_token, skeleton, token_hash, token_matches, visible_name

MAX_COMPUTERS = 5
MIN_PEOPLE = 2
RECORDS_KEPT = 4  # the dice records of earlier games a room keeps (GET .../games/G)
LEVEL_NAMES = {"vorsichtig": "Vorsichtig", "mutig": "Mutig", "profi": "Profi",
               "meister": "Meister"}
TURN_KINDS = ("roll", "bank", "take", "pass")
# The waits before a stand-in plays an away person's turn that a room's
# creator may choose (seconds; docs/playing.md says why 30 is the default).
WAITS = (15, 30, 60)


class Refused(Exception):
    """A request the room does not allow: `key` (docs/protocol.md,
    "Reason codes") and the `values` its text needs."""

    def __init__(self, key, values=()):
        super().__init__(key, values)
        self.key = key
        self.values = list(values)


def parse_rules(preset, encoded, target):
    """The Rules of a create request: a preset key or an encoded custom
    set, with `target` (None: keep the set's). Refused("rules") otherwise."""
    try:
        if encoded is not None:
            rules = rules_mod.Rules.decode(encoded)
        else:
            rules = rules_mod.preset(preset if preset is not None else "zehntausend")
        if target is not None:
            settled, _ = rules_mod.settle(dict(rules.to_dict(), target=target), "target")
            rules = rules_mod.Rules(**settled)
    except (rules_mod.RulesError, TypeError, ValueError) as e:
        raise Refused("rules", [getattr(e, "key", "encoding")])
    return rules


def parse_wait(raw, default):
    """The stand-in's wait of a create request: one of WAITS, or `default`
    (the server's --standin-after) when none is asked or that one is
    asked; Refused("wait") otherwise."""
    if raw is None or raw == default:
        return float(default)
    if type(raw) in (int, float) and raw in WAITS:
        return float(raw)
    raise Refused("wait", WAITS)


def parse_action(raw):
    """An engine turn action from its JSON form (["keep", [1, 5]], ["roll"],
    ...): a tuple, or Refused("action") for anything else."""
    if not isinstance(raw, list) or not raw or not isinstance(raw[0], str):
        raise Refused("action")
    kind = raw[0]
    if kind in TURN_KINDS and len(raw) == 1:
        return (kind,)
    if kind == "keep" and len(raw) == 2 and isinstance(raw[1], list) and len(raw[1]) <= 6:
        dice = raw[1]
        if all(type(d) is int and 1 <= d <= 6 for d in dice):
            return ("keep", tuple(dice))
    raise Refused("action")


class Room:
    """A room's state and rules of play (see the module docstring)."""

    def __init__(self, state):
        self.state = state
        self.messages = []  # (number, text) made since the last take_messages
        self.game = None
        self.dice = None
        self.wait = 40.0  # seconds until a stand-in plays an away seat's turn (the hub's setting)
        # (rows, seat dicts, game seat lists) of the last public(): see _public_seats
        self._seats_cache = None
        self._shown = None  # public() after the last event (what `d` is made against)
        if state["game"] is not None:
            self.dice = fairdice.CommitDice(bytes.fromhex(state["secret"]), state["rolls"])
            self.game = Game.from_data(state["game"], self.dice)

    # ------------------------------------------------------------ making

    @classmethod
    def create(cls, code, name, people, computers, rules, now=None, wait=None):
        """A new room in the lobby with its creator in seat 0: (room, token).
        `wait`: the seconds before a stand-in plays an away person's turn
        (parse_wait; None: the server's setting)."""
        name = clean_name(name)
        if name is None:
            raise Refused("name", [MAX_NAME])
        if not visible_name(name):
            raise Refused("name_invisible")
        if type(people) is not int or not isinstance(computers, list):
            raise Refused("seats")
        if len(computers) > MAX_COMPUTERS:
            raise Refused("computers", [MAX_COMPUTERS])
        if people < MIN_PEOPLE:  # the reason that names people, not the seats' range
            raise Refused("people", [MIN_PEOPLE])
        if people + len(computers) > MAX_SEATS:
            raise Refused("seats", [MIN_PEOPLE, MAX_SEATS])
        for kind in computers:
            if kind not in LEVELS:
                raise Refused("level")
        token = new_token()
        seats = [_seat(name, "", token_hash(token), True)]
        seats += [None] * (people - 1)
        count = {}
        for kind in computers:
            count[kind] = count.get(kind, 0) + 1
            seats.append(_seat("%s %d" % (LEVEL_NAMES[kind], count[kind]), kind, "", False))
        state = {
            "code": code, "created": now or time.time(), "rules": rules.encode(),
            "seats": seats, "status": "lobby", "game": None, "g": 0, "secret": "",
            "commit": "", "rolls": 0, "seq": 0, "rollog": [], "actlog": [],
        }
        if wait is not None:
            state["wait"] = wait
        room = cls(state)
        room._emit({"k": "open", "seat": 0, "name": name})
        return room, token

    def copy(self):
        """A room of its own with this one's state (a deep copy) and what
        its next event builds on: the hub changes the copy, saves what it
        made, and only then takes it for the room (server/pipeline.py). The
        public rows and the state last shown are shared: neither is ever
        changed in place."""
        twin = Room(orjson.loads(orjson.dumps(self.state)))
        twin.wait = self.wait
        twin._seats_cache = self._seats_cache
        twin._shown = self._shown
        return twin

    # ------------------------------------------------------------ queries

    @property
    def code(self):
        """The room's code."""
        return self.state["code"]

    @property
    def seq(self):
        """The number of the last event."""
        return self.state["seq"]

    def seat_of(self, token):
        """The seat index whose token this is, or -1."""
        found = -1
        for i, seat in enumerate(self.state["seats"]):
            # Every seat is compared, so the time taken does not tell which matched.
            if seat is not None and token_matches(token, seat["token"]):
                found = i
        return found

    def to_move(self):
        """(seat, who) that acts next without a person: who is "c" for a
        computer seat, "s" for a stand-in; None when a person is to act
        or no game is running."""
        game = self.game
        if self.state["status"] != "playing" or game is None or game.phase == "over":
            return None
        seat = self.state["seats"][game.current]
        if seat["kind"]:
            return (game.current, "c")
        if seat["standin"]:
            return (game.current, "s")
        return None

    def public(self):
        """The state every player and spectator may see. Its values are new
        objects or ones never changed in place once returned (the seats'
        rows are remade when they change): _emit compares them by
        identity first."""
        st = self.state
        game = self.game
        out = {"code": st["code"], "status": st["status"], "rules": st["rules"],
               "seats": self._public_seats(), "g": st["g"], "commit": st["commit"],
               "rolls": st["rolls"]}
        if game is not None:
            out["phase"] = game.phase
            out["cur"] = game.current
            out["roll"] = list(game.roll)
            out["aside"] = list(game.aside)
            out["tt"] = game.turn_total
            out["offer"] = None if game.offer is None else [game.offer[0], list(game.offer[1])]
            out["final"] = game.final
            out["pending"] = list(game.pending)
            out["playoff"] = None if game.playoff is None else list(game.playoff)
            out["winner"] = game.winner
            out["lost"] = game.lost
            out["lost_kind"] = game.lost_kind
            out["legal"] = [list(a) if a[0] != "keep" else ["keep", list(a[1])]
                            for a in game.legal_actions()]
            out["game"] = st["game"]  # Game.to_data(): a client's engine mirrors it whole
            out["standin_at"] = self._standin_due()
            if st["status"] == "over":
                out["secret"] = st["secret"]
                out["rematch"] = self.rematch_yes()
        records = st.get("records")
        out["records"] = [rec["g"] for rec in records] if records else []
        if st["status"] == "over":
            out["records"].append(st["g"])
        return out

    def _public_seats(self):
        """The seats' rows of `public`, made again only when a seat or its
        game figures changed: most events are a roll or a keep within a
        turn, which change neither. The key is what the rows are made of:
        copies of the state's seat dicts and the game's seat lists of
        Game.to_data() (state["game"], written before every event)."""
        st = self.state
        data = st["game"]
        seats = st["seats"]
        cached = self._seats_cache
        if (cached is not None and cached[1] == seats
                and (data[1] if data is not None else None) == cached[2]):
            return cached[0]
        game = self.game
        rows = []
        for i, seat in enumerate(seats):
            if seat is None:
                rows.append(None)
                continue
            row = {"name": seat["name"], "kind": seat["kind"], "creator": seat["creator"],
                   "away": seat["away"], "standin": seat["standin"],
                   "gone": seat.get("gone") if seat["away"] else None}
            if game is not None:
                s = game.seats[i]
                row["score"] = s.score
                row["active"] = s.active
                row["entered"] = s.entered
                row["farkles"] = s.farkles
                row["turns"] = s.turns
            rows.append(row)
        self._seats_cache = (rows, [None if seat is None else dict(seat) for seat in seats],
                             None if data is None else [list(v) for v in data[1]])
        return rows

    def standin_at(self, seat):
        """When (epoch seconds) a stand-in takes seat `seat`'s turn if the
        seat is away on it: `wait` after the later of the person going and
        the turn's start."""
        st = self.state
        gone = st["seats"][seat].get("gone") or 0.0
        return round(max(gone, st.get("turn_at", 0.0)) + self.wait, 1)

    def _standin_due(self):
        """standin_at of the seat to move while it is away and nobody plays
        for it yet; None otherwise (the pages count down to it)."""
        game = self.game
        if self.state["status"] != "playing" or game is None or game.phase == "over":
            return None
        seat = self.state["seats"][game.current]
        if seat is None or seat["kind"] or not seat["away"] or seat["standin"]:
            return None
        return self.standin_at(game.current)

    def record(self, g):
        """The dice record of finished game `g` (tools/check_dice.py reads
        it); Refused while that game is not over."""
        st = self.state
        for rec in st.get("records", []):
            if rec["g"] == g:
                return rec
        game = self.game
        if g == st["g"] and st["status"] == "over" and game is not None:
            # Everything a replay through the engine needs (tools/check_dice.py):
            # the seats as the engine got them, every action in order, the
            # dice of every roll, and the outcome the replay must reach.
            return {"code": st["code"], "g": g, "rules": st["rules"], "commit": st["commit"],
                    "secret": st["secret"], "rolls": st["rollog"],
                    "players": [[s.name, s.kind] for s in game.seats],
                    "actions": st.get("actlog", []),
                    "scores": [s.score for s in game.seats], "winner": game.winner}
        raise Refused("no_record")

    # ------------------------------------------------------------ lobby

    def join(self, name):
        """A person takes the first free place: (seat, token)."""
        st = self.state
        if st["status"] != "lobby":
            raise Refused("started")
        name = clean_name(name)
        if name is None:
            raise Refused("name", [MAX_NAME])
        if not visible_name(name):
            raise Refused("name_invisible")
        taken = [s["name"].casefold() for s in st["seats"] if s is not None]
        if name.casefold() in taken:
            raise Refused("name_taken")
        if skeleton(name) in {skeleton(s["name"]) for s in st["seats"] if s is not None}:
            raise Refused("name_lookalike")
        free = [i for i, s in enumerate(st["seats"]) if s is None]
        if not free:
            raise Refused("room_full")
        token = new_token()
        i = free[0]
        st["seats"][i] = _seat(name, "", token_hash(token), False)
        self._emit({"k": "join", "seat": i, "name": name})
        if len(free) == 1:
            self._start()
        return i, token

    def start(self, seat):
        """The creator starts with the people there are (two at least)."""
        st = self.state
        if st["status"] != "lobby":
            raise Refused("started")
        if not st["seats"][seat]["creator"]:
            raise Refused("creator_only")
        people = [s for s in st["seats"] if s is not None and not s["kind"]]
        if len(people) < MIN_PEOPLE:
            raise Refused("people", [MIN_PEOPLE])
        self._start()

    def rematch(self, seat):
        """Seat `seat` says yes to the same seats and rules again, after a
        game is over. The next game starts once every person still in the
        game has said yes (a computer always does; a person away, without
        a connection, holds nobody up: a stand-in plays for them as in any
        game); until then the room stays over, its results and dice check
        in view. A second yes changes nothing."""
        st = self.state
        if st["status"] != "over":
            raise Refused("not_over")
        game = self.game
        assert game is not None
        if not game.seats[seat].active:
            raise Refused("left")
        yes = st.setdefault("rematch", [])
        if seat in yes:
            return
        yes.append(seat)
        yes.sort()
        self._emit({"k": "rematch", "seat": seat})
        self._rematch_if_agreed()

    def rematch_yes(self):
        """The seats that have said yes to a rematch (computers always)."""
        st = self.state
        game = self.game
        if st["status"] != "over" or game is None:
            return []
        said = st.get("rematch", [])
        return [i for i, s in enumerate(st["seats"])
                if s is not None and game.seats[i].active and (s["kind"] or i in said)]

    def _rematch_if_agreed(self):
        """Start the next game when every person in the game still here
        has said yes (and somebody has)."""
        st = self.state
        game = self.game
        if st["status"] != "over" or game is None or not st.get("rematch"):
            return
        for i, s in enumerate(st["seats"]):
            if (s is not None and not s["kind"] and game.seats[i].active and not s["away"]
                    and i not in st["rematch"]):
                return
        st.setdefault("records", []).append(self.record(st["g"]))
        del st["records"][:-RECORDS_KEPT]  # the last few games stay checkable
        st["seats"] = [s if game.seats[i].active else None for i, s in enumerate(st["seats"])]
        self._start()

    def _start(self):
        """A new game of the seats there are. Empty seats (never taken, or
        left) stay in the game as seats that left at once, so every seat
        keeps its index: connections know their seat by it."""
        st = self.state
        secret = fairdice.new_secret()
        st["secret"] = secret.hex()
        st["commit"] = fairdice.commitment(secret)
        st["rolls"] = 0
        st["rollog"] = []
        st["actlog"] = []  # [seat, action] of every action of the game, in order
        st["rematch"] = []  # the seats that said yes to the next game (once this one is over)
        st["g"] += 1
        st["status"] = "playing"
        self.dice = fairdice.CommitDice(secret)
        rules = rules_mod.Rules.decode(st["rules"])
        game = Game(rules, [("-", "") if s is None else (s["name"], s["kind"])
                            for s in st["seats"]], self.dice)
        for i, seat in enumerate(st["seats"]):
            if seat is None:
                game.apply(("leave", i))
                st["actlog"].append([i, ["leave", i]])
        self.game = game
        st["turn_at"] = round(time.time(), 1)
        self._save_game()
        self._emit({"k": "start", "g": st["g"], "commit": st["commit"]})

    # ------------------------------------------------------------ play

    def act(self, seat, action, who="p", at=None):
        """Seat `seat` carries out turn `action` (a tuple) for `who`: "p"
        the person, "c" its computer, "s" the stand-in of an away person.
        A turn it begins is stamped with the time (`at` in the event), or
        with `at` when given (a replay: server.hub.load_room)."""
        st = self.state
        game = self.game
        if st["status"] != "playing" or game is None:
            raise Refused("not_started" if st["status"] == "lobby" else "over")
        if seat != game.current:
            raise Refused("not_your_turn")
        before = game.events_total
        try:
            game.apply(action)  # asks why_not itself: a refused action changes nothing
        except IllegalAction as e:
            raise Refused(e.key, e.values)
        new = game.events[len(game.events) - (game.events_total - before):]
        for ev in new:
            if ev[0] == "roll":
                st["rollog"].append([self.dice.rolls, list(ev[2])])
        st.setdefault("actlog", []).append([seat, _plain(action)])
        began = self._note_turn(new, at)
        sub = st["seats"][seat].get("sub")
        if who == "s" and sub is not None:
            sub["actions"] += 1
        self._save_game()
        # orjson writes the engine's tuples as arrays: no copy as lists
        event = {"k": "act", "seat": seat, "by": who, "a": action, "ev": new}
        if began is not None:
            event["at"] = began
        self._emit(event)
        self._after_play()

    def leave(self, seat):
        """A person leaves for good (engine join/leave rules in a game)."""
        st = self.state
        if st["status"] == "lobby":
            if st["seats"][seat]["creator"]:
                raise Refused("creator_stays")
            st["seats"][seat] = None
            self._emit({"k": "leave", "seat": seat})
            return
        game = self.game
        assert game is not None
        refusal = game.why_not(("leave", seat))
        if refusal is not None:
            raise Refused(refusal[0], refusal[1])
        game.apply(("leave", seat))
        st.setdefault("actlog", []).append([seat, ["leave", seat]])
        self._note_turn(game.events[-1:])
        st["seats"][seat]["token"] = ""  # the seat cannot be taken back
        st["seats"][seat]["standin"] = False
        st["seats"][seat].pop("sub", None)
        self._save_game()
        self._emit({"k": "leave", "seat": seat})
        self._after_play()

    def _note_turn(self, events, at=None):
        """A new turn began among `events`: its start (now, or `at`) is the
        stand-in's clock for an away seat; returned, else None."""
        if any(ev[0] == "turn" for ev in events):
            began = round(time.time(), 1) if at is None else at
            self.state["turn_at"] = began
            return began
        return None

    def _after_play(self):
        game = self.game
        if game is not None and game.phase == "over" and self.state["status"] == "playing":
            self.state["status"] = "over"
            self._emit({"k": "over", "g": self.state["g"], "winner": game.winner,
                        "secret": self.state["secret"]})

    # ------------------------------------------------------------ presence

    def set_away(self, seat, away, at=None):
        """Mark a person's seat away (no connection since `at`, epoch
        seconds) or back. Back, the event says what a stand-in played
        for the person meanwhile (`played`, None when nothing)."""
        s = self.state["seats"][seat]
        if s is None or s["kind"] or s["away"] == away:
            return
        s["away"] = away
        if away:
            s["gone"] = round(at if at is not None else time.time(), 1)
            self._emit({"k": "away", "seat": seat, "at": s["gone"]})
            self._rematch_if_agreed()  # the others said yes: the one gone holds nobody up
            return
        s["gone"] = None
        s["standin"] = False
        played = None
        sub = s.pop("sub", None)
        game = self.game
        if sub is not None and game is not None:
            now = game.seats[seat]
            played = {"actions": sub["actions"], "turns": now.turns - sub["turns"],
                      "points": now.score - sub["score"], "score": now.score}
        self._emit({"k": "back", "seat": seat, "played": played})

    def set_standin(self, seat):
        """A computer plays the away seat's turns until the person is back."""
        s = self.state["seats"][seat]
        if s is None or s["kind"] or s["standin"]:
            return
        s["standin"] = True
        game = self.game
        if game is not None:  # what the person will be told when back
            s["sub"] = {"actions": 0, "turns": game.seats[seat].turns,
                        "score": game.seats[seat].score}
        self._emit({"k": "standin", "seat": seat})

    # ------------------------------------------------------------ events

    def _save_game(self):
        st = self.state
        game = self.game
        assert game is not None and self.dice is not None
        st["game"] = game.to_data()
        st["rolls"] = self.dice.rolls

    def _emit(self, event):
        st = self.state
        st["seq"] += 1
        st["touched"] = time.time()
        now = self.public()
        msg = {"t": "ev", "n": st["seq"], "e": event}
        shown = self._shown
        if shown is None or shown.keys() != now.keys():
            msg["s"] = now
        else:  # most events change a few entries: the dice, the game, what may be done
            msg["d"] = {k: v for k, v in now.items() if not (v is shown[k] or v == shown[k])}
        self._shown = now
        self.messages.append((st["seq"], compact(msg)))

    def rebase(self):
        """The next event carries the whole public state (`s`): after a
        load, whose replay need not have made what the clients were shown."""
        self._shown = None

    def take_messages(self):
        """The (number, text) messages made since the last call."""
        out = self.messages
        self.messages = []
        return out


def compact(msg):
    """A message as JSON text without spaces, keys in the order given
    (every message the server sends starts with `{"t":"KIND"`). orjson
    writes non-ASCII characters as themselves, not as \\u escapes: the
    same JSON to every reader."""
    return orjson.dumps(msg).decode()


def _seat(name, kind, token, creator):
    return {"name": name, "kind": kind, "token": token, "creator": creator,
            "away": False, "standin": False, "gone": None}


def _plain(value):
    """Tuples as lists, for JSON."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def check_token(room, token):
    """The seat of `token` in `room`, or Refused("token")."""
    seat = room.seat_of(token)
    if seat < 0:
        raise Refused("token")
    return seat
