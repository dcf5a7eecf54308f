"""Statistics per name: games, wins, turns, Nichts, points, records.

Kept in their own file (`stats`, engine.codec kind 0x54 "T") through
firmware.store, never in the game's save: a damaged game save leaves them
alone, and a damaged statistics file never stops a game (it starts again
from nothing at the next game's end, the damaged copy replaced).

The file is a list of rows (tools/pull_stats.py writes them as CSV): the
first row is the header HEADER, then one row per name and group:

    name, group, games, wins, turns, farkles, points, best_turn,
    best_total, solo_turns

- `name`: a person's name; computers are counted too, by their level and
  not by their seat name ("Profi 2" and "Profi 3" are one computer): the
  name is BOT + the level key, e.g. "*profi" (a typed name cannot start
  with "*"), and the screen shows the level's name.
- `group`: the rules the game was played with, "preset:target" (e.g.
  "zehntausend:10000"; a preset whose target was changed in the new-game
  form keeps its preset key), "custom:target" for other rules, and
  "tafel:target" for a score-pad evening. Records are kept per group,
  because a best total or the turns to the target only compare under the
  same rules.
- `points`: the totals at the end of the games (penalties taken off),
  so points per turn is points / turns; `farkles`: turns that scored
  nothing (farkle, bust, Nichts); `best_turn` and `best_total`: the best
  single turn and the highest final total; `solo_turns`: the fewest turns
  to win a game played alone (0: none yet).

A game is recorded when it ends (the play screen's game-over moment, after
the game save is cleared: a power cut between the two loses that game's
statistics instead of counting it twice); a score-pad evening when its
winner screen is closed. Seats that played no turn are left out. At most
MAX_ROWS rows: beyond that the row with the fewest games goes.
"""

from firmware.files import KIND_STATS, STATS
from firmware.store import NoSave, SaveDamaged, SaveFailed

HEADER = ("name", "group", "games", "wins", "turns", "farkles", "points", "best_turn",
          "best_total", "solo_turns")
NAME, GROUP, GAMES, WINS, TURNS, FARKLES, POINTS, BEST_TURN, BEST_TOTAL, SOLO = range(10)
MAX_ROWS = 120
BOT = "*"


def group_of(rules):
    """The statistics group of a game's rules (see the module docstring)."""
    key = rules.preset_key()
    if key is None:
        from engine.rules import PRESETS, preset

        for k in PRESETS:
            p = preset(k)
            if p.target == rules.target:
                continue
            try:
                same = p.replace(target=rules.target, entry=min(p.entry, rules.target)) == rules
            except ValueError:
                same = False
            if same:
                key = k
                break
    return "%s:%d" % (key or "custom", rules.target)


def _valid(row):
    if not isinstance(row, list) or len(row) != len(HEADER):
        return False
    if not isinstance(row[NAME], str) or not row[NAME] or not isinstance(row[GROUP], str):
        return False
    for v in row[GAMES:]:
        if type(v) is not int or v < 0:
            return False
    return True


class Stats:
    """The rows of the statistics file (see the module docstring)."""

    def __init__(self, rows=None):
        self.rows = rows or []

    # ------------------------------------------------------------ file

    @classmethod
    def load(cls, store):
        """(stats, note): the saved statistics, and a note for the screen
        when the file (every copy) was damaged and they start again empty,
        or an older copy was used."""
        try:
            value, note = store.load(STATS, KIND_STATS)
        except NoSave:
            return cls(), None
        except SaveDamaged as e:
            return cls(), str(e)
        rows = []
        if isinstance(value, list):
            for row in value[1:] if value and value[0] == list(HEADER) else value:
                if _valid(row):
                    rows.append(row)
        return cls(rows), note

    def save(self, store):
        """Write the file; None, or the reason it failed."""
        try:
            store.save(STATS, KIND_STATS, [list(HEADER)] + self.rows)
        except SaveFailed as e:
            return str(e)
        return None

    @staticmethod
    def reset(store):
        """Delete every copy of the statistics; None, or why it failed."""
        try:
            store.clear(STATS)
        except SaveFailed as e:
            return str(e)
        return None

    # ------------------------------------------------------------ adding

    def row(self, name, group):
        """The row of `name` in `group`, made when missing."""
        for r in self.rows:
            if r[NAME] == name and r[GROUP] == group:
                return r
        if len(self.rows) >= MAX_ROWS:
            fewest = 0
            for i in range(len(self.rows)):
                if self.rows[i][GAMES] < self.rows[fewest][GAMES]:
                    fewest = i
            del self.rows[fewest]
        r = [name, group, 0, 0, 0, 0, 0, 0, 0, 0]
        self.rows.append(r)
        return r

    def add(self, name, group, won, turns, farkles, total, best_turn, solo):
        """Count one game of `name`: won or not, its turns, Nichts, final
        total and best turn; `solo` True for a game played alone."""
        r = self.row(name, group)
        r[GAMES] += 1
        r[TURNS] += turns
        r[FARKLES] += farkles
        r[POINTS] += total
        if won:
            r[WINS] += 1
            if solo and (r[SOLO] == 0 or turns < r[SOLO]):
                r[SOLO] = turns
        if best_turn > r[BEST_TURN]:
            r[BEST_TURN] = best_turn
        if total > r[BEST_TOTAL]:
            r[BEST_TOTAL] = total

    def add_game(self, game):
        """Count a finished engine.game.Game: every seat that played a turn."""
        group = group_of(game.rules)
        solo = len(game.seats) == 1
        for i in range(len(game.seats)):
            s = game.seats[i]
            if s.turns:
                name = BOT + s.kind if s.kind else s.name
                self.add(name, group, i == game.winner, s.turns, s.farkle_turns, s.score,
                         s.best_turn, solo)

    def add_pad(self, pad):
        """Count a finished engine.scorepad.ScorePad evening."""
        group = "tafel:%d" % pad.target
        solo = len(pad.seats) == 1
        for i in range(len(pad.seats)):
            s = pad.seats[i]
            if s.turns:
                self.add(s.name, group, i == pad.winner, s.turns, s.nothing, s.score, s.best,
                         solo)

    # ------------------------------------------------------------ reading

    def names(self):
        """Every name with statistics: people first, then computers; most
        games first, then by name."""
        games = {}
        for r in self.rows:
            games[r[NAME]] = games.get(r[NAME], 0) + r[GAMES]
        out = list(games)
        out.sort(key=lambda n: (n.startswith(BOT), -games[n], n))
        return out

    def person(self, name):
        """The totals of `name` over every group, as a dict: games, wins,
        turns, farkles, points, best_turn, best_total, and `solo`, a list
        of (group, turns) of its solo records."""
        out = {"games": 0, "wins": 0, "turns": 0, "farkles": 0, "points": 0, "best_turn": 0,
               "best_total": 0, "solo": []}
        for r in self.rows:
            if r[NAME] != name:
                continue
            for key, i in (("games", GAMES), ("wins", WINS), ("turns", TURNS),
                           ("farkles", FARKLES), ("points", POINTS)):
                out[key] += r[i]
            out["best_turn"] = max(out["best_turn"], r[BEST_TURN])
            out["best_total"] = max(out["best_total"], r[BEST_TOTAL])
            if r[SOLO]:
                out["solo"].append((r[GROUP], r[SOLO]))
        return out

    def records(self):
        """The records per group, in the order the groups first appear:
        a list of (group, best_turn, best_total, solo); each record is
        (value, name) or None. On a tie the name counted first in the group
        keeps the record."""
        out = []
        index = {}
        for r in self.rows:
            g = r[GROUP]
            if g not in index:
                index[g] = len(out)
                out.append([g, None, None, None])
            rec = out[index[g]]
            if r[BEST_TURN] and (rec[1] is None or r[BEST_TURN] > rec[1][0]):
                rec[1] = (r[BEST_TURN], r[NAME])
            if r[BEST_TOTAL] and (rec[2] is None or r[BEST_TOTAL] > rec[2][0]):
                rec[2] = (r[BEST_TOTAL], r[NAME])
            if r[SOLO] and (rec[3] is None or r[SOLO] < rec[3][0]):
                rec[3] = (r[SOLO], r[NAME])
        return [tuple(rec) for rec in out]


def percent(part, whole):
    """`part` of `whole` in whole percent, rounded (0 when `whole` is 0)."""
    return (part * 100 + whole // 2) // whole if whole else 0


def solo_record(store, game):
    """The fewest turns a solo win of `game`'s seat took so far under the
    same rules (0: none yet); read before the game is recorded, so that
    the winner screen can tell a new record."""
    try:
        stats, _ = Stats.load(store)
    except (OSError, ValueError):
        return 0
    seat = game.seats[0]
    name = BOT + seat.kind if seat.kind else seat.name
    group = group_of(game.rules)
    for r in stats.rows:
        if r[NAME] == name and r[GROUP] == group:
            return r[SOLO]
    return 0


def record_game(store, game):
    """Add a finished game to the statistics file; None, or why it failed.
    Never raises for a damaged or full file: the game's end must go on."""
    try:
        stats, _ = Stats.load(store)
        stats.add_game(game)
        return stats.save(store)
    except (OSError, ValueError) as e:  # a broken folder: no statistics, no crash
        return str(e)


def record_pad(store, pad):
    """Add a finished score-pad evening; as `record_game`."""
    try:
        stats, _ = Stats.load(store)
        stats.add_pad(pad)
        return stats.save(store)
    except (OSError, ValueError) as e:
        return str(e)
