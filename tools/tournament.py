"""Bot tournaments: many seeded games between computer players (CPython only).

Usage (from the repository root):

    .venv/bin/python -m tools.tournament --rules zehntausend --bots profi,mutig \\
        --games 200000 --seed 1
    .venv/bin/python -m tools.tournament --rules zehntausend:finish=immediate,target=5000 \\
        --bots profi,profi,vorsichtig --games 3000 --json
    .venv/bin/python -m tools.tournament --rules farkle4000:small_straights=500/750 \\
        --bots mybots/greedy.py:Greedy,profi --games 1000 --jobs 2 --progress

Bots (`--bots`, 2 to 8 seats, comma-separated) are computer levels of
engine.bots (vorsichtig, mutig, profi, ...) or a user's bot given as
`path/file.py:ClassName`: a class with `decide(view) -> action` (see
engine.bots), instantiated with no arguments, or with `rules=` when its
`__init__` has a `rules` parameter. A bot may appear more than once; every
entry gets its own instance (and a name like `profi#2`).

Rules (`--rules`) are a preset key (engine.rules.PRESETS), optionally with
changed options: `KEY:opt=value,opt=value`. Values are read by the option's
type: ints (`target=5000`), booleans (`takeover=true`, also yes/no/on/off/1/0),
words (`finish=immediate`) and pairs (`small_straights=500/750`).

Fairness and reproducibility: in game g the seats are rotated by g % seats
(seat i is played by bot (i + g) % seats), so every bot sits in every seat
equally often; a --games value that is not a multiple of the seat count is
rounded up (with a note on stderr). Game g rolls SeededDice(seed * 1000003 + g),
so results depend only on --rules, --bots, --games and --seed, never on --jobs
(as long as user bots do not carry state from one game to the next).

Figures per bot: wins and win rate with a 95% Wilson score interval; turns per
game (that bot's turns, farkled ones included, per game); points per turn (its
final banked total over its turns: a farkled turn counts as 0, a penalty
lowers it, and points taken over from the previous player count for the
taker). The mean game length is the number of turns of all seats per game.

`--json` prints one object: rules (the rules encoding), preset (its key or
null), seed, games, mean_game_turns, elapsed (seconds) and bots, a list of
{name, games, wins, win_rate, ci_low, ci_high, turns_per_game,
points_per_turn} in --bots order.

Exit codes: 0 done; 1 a bot broke the rules (an illegal action, an exception
in `decide`, or a game longer than MAX_ACTIONS actions); 2 bad arguments.
"""

import argparse
import importlib.util
import inspect
import json
import math
import multiprocessing
import os
import sys
import time

from engine import bots, levels
from engine.dice import SeededDice
from engine.game import MAX_SEATS, Game, IllegalAction
from engine.plan_solver import solve_plan
from engine.rules import DEFAULTS, PRESETS, Rules, RulesError, preset
from engine.turnplan import TurnPlan
from engine.view import View
from tools.texts.explain import english, rules_problem

MAX_ACTIONS = 20000  # a game longer than this means a bot never finishes
SEED_FACTOR = 1000003
Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
PROGRESS_EVERY = 0.25  # seconds between progress bar updates
TRUE_WORDS = ("1", "true", "yes", "on")
FALSE_WORDS = ("0", "false", "no", "off")


class UsageError(Exception):
    """A bad command-line argument (exit code 2)."""


class BotFailure(Exception):
    """A bot broke the rules or the game ran away (exit code 1)."""


# ---------------------------------------------------------------- rules


def parse_value(key, text):
    """The value of rule option `key` from its text, typed like its default."""
    default = DEFAULTS[key]
    text = text.strip()
    if isinstance(default, bool):
        low = text.lower()
        if low in TRUE_WORDS:
            return True
        if low in FALSE_WORDS:
            return False
        raise UsageError("rule option '%s' takes true or false (got %r)" % (key, text))
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise UsageError("rule option '%s' takes a whole number (got %r)" % (key, text))
    if isinstance(default, tuple):
        parts = text.strip("()[]").replace("/", ",").split(",")
        try:
            return tuple(int(p) for p in parts)
        except ValueError:
            raise UsageError("rule option '%s' takes numbers like 500/750 (got %r)" % (key, text))
    return text


def split_options(text):
    """`opt=value,opt=value` as (key, value text) pairs; a piece without '='
    continues the previous value (so `small_straights=500,750` works)."""
    pairs = []
    for piece in text.split(","):
        if "=" in piece:
            key, value = piece.split("=", 1)
            pairs.append([key.strip(), value])
        elif pairs and piece.strip():
            pairs[-1][1] += "," + piece
        elif piece.strip():
            raise UsageError("rule options are opt=value pairs (got %r)" % piece)
    return pairs


def parse_rules(spec):
    """Rules from `KEY` or `KEY:opt=value,...` (UsageError when bad)."""
    key, _, options = spec.partition(":")
    key = key.strip()
    if key not in PRESETS:
        raise UsageError("unknown preset '%s'; presets are %s" % (key, ", ".join(PRESETS)))
    changes = {}
    for opt, value in split_options(options):
        if opt not in DEFAULTS:
            raise UsageError("unknown rule option '%s'; options are %s"
                             % (opt, ", ".join(DEFAULTS)))
        changes[opt] = parse_value(opt, value)
    try:
        return preset(key).replace(**changes) if changes else preset(key)
    except RulesError as e:
        raise UsageError(rules_problem(e))


# ---------------------------------------------------------------- bots


def split_bots(text):
    """The bot entries of `--bots` (UsageError unless 2 to MAX_SEATS)."""
    specs = [s.strip() for s in text.split(",")]
    if any(not s for s in specs):
        raise UsageError("--bots has an empty entry: %r" % text)
    if not 2 <= len(specs) <= MAX_SEATS:
        raise UsageError("--bots needs 2 to %d entries (got %d)" % (MAX_SEATS, len(specs)))
    return specs


def bot_names(specs):
    """Display names: the level key or class name, `#2`... for repeats."""
    names = []
    for spec in specs:
        base = spec.rpartition(":")[2] if ":" in spec else spec
        count = sum(1 for n in names if n == base or n.startswith(base + "#"))
        names.append(base if count == 0 else "%s#%d" % (base, count + 1))
    return names


_MODULES = {}


def load_module(path):
    """Import a user's bot file once per process."""
    path = os.path.abspath(path)
    if path in _MODULES:
        return _MODULES[path]
    if not os.path.isfile(path):
        raise UsageError("bot file not found: %s" % path)
    name = "tournament_bot_%d" % len(_MODULES)
    module_spec = importlib.util.spec_from_file_location(name, path)
    if module_spec is None:
        raise UsageError("cannot import %s (not a .py file?)" % path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as e:
        del sys.modules[name]
        raise UsageError("cannot import %s: %s: %s" % (path, type(e).__name__, e))
    _MODULES[path] = module
    return module


def user_bot(spec, rules):
    """An instance of `path/file.py:ClassName` (with rules= when accepted)."""
    path, _, cls_name = spec.rpartition(":")
    cls = getattr(load_module(path), cls_name, None)
    if not inspect.isclass(cls):
        raise UsageError("%s has no class %r" % (path, cls_name))
    try:
        params = inspect.signature(cls).parameters
    except (TypeError, ValueError):
        params = {}
    try:
        bot = cls(rules=rules) if "rules" in params else cls()
    except Exception as e:
        raise UsageError("cannot create bot %s: %s: %s" % (spec, type(e).__name__, e))
    if not callable(getattr(bot, "decide", None)):
        raise UsageError("bot %s has no decide(view) method" % spec)
    return bot


def _needs_plan(spec):
    """True for a computer level that plays from the Expert's plan (one
    plan, solved once, serves them all)."""
    return spec in levels.LEVELS and levels.needs(spec, levels.PLAN)


def make_bots(specs, rules, plan):
    """One bot instance per entry of `specs` (UsageError when one is bad)."""
    out = []
    for spec in specs:
        if ":" in spec or spec.endswith(".py"):
            if ":" not in spec:
                raise UsageError("a bot file needs a class: %s:ClassName" % spec)
            out.append(user_bot(spec, rules))
            continue
        try:
            out.append(bots.make_bot(spec, rules, plan if _needs_plan(spec) else None))
        except ValueError as e:
            raise UsageError("bot '%s': %s (or give path/file.py:ClassName)" % (spec, e))
    return out


# ---------------------------------------------------------------- playing


def dice_seed(seed, g):
    """The SeededDice seed of game g."""
    return seed * SEED_FACTOR + g


def play_game(rules, bots, names, seed, g):
    """Play game g; return (winning bot, per-bot turns, per-bot points).
    BotFailure names the bot and the dice seed when something goes wrong."""
    n = len(bots)
    order = [(i + g) % n for i in range(n)]  # seat i -> bot order[i]
    game = Game(rules, [("S%d" % (i + 1), "bot") for i in range(n)],
                SeededDice(dice_seed(seed, g)))
    where = "game %d (dice seed %d)" % (g, dice_seed(seed, g))
    for _ in range(MAX_ACTIONS):
        if game.phase == "over":
            break
        b = order[game.current]
        try:
            action = bots[b].decide(View(game))
        except Exception as e:
            raise BotFailure("bot %s raised %s: %s in %s" % (names[b], type(e).__name__, e, where))
        try:
            game.apply(action)
        except IllegalAction as e:
            raise BotFailure("bot %s made an illegal action %r in %s: %s"
                             % (names[b], action, where, english("why_" + e.key, e.values)))
    else:
        raise BotFailure("%s aborted after %d actions (a bot never ends its turns?)"
                         % (where, MAX_ACTIONS))
    turns = [0] * n
    points = [0] * n
    for i, seat in enumerate(game.seats):
        turns[order[i]] = seat.turns
        points[order[i]] = seat.score
    return order[game.winner], turns, points


_WORKER = {}


def init_worker(rules_code, specs, plan_blob):
    """Build the rules and bots of this process once (pool initializer)."""
    rules = Rules.decode(rules_code)
    plan = TurnPlan.from_bytes(plan_blob, rules) if plan_blob else None
    _WORKER["rules"] = rules
    _WORKER["bots"] = make_bots(specs, rules, plan)
    _WORKER["names"] = bot_names(specs)


def run_chunk(task):
    """Play games start..stop-1; the summed figures, or an error text."""
    seed, start, stop = task
    rules, bots, names = _WORKER["rules"], _WORKER["bots"], _WORKER["names"]
    n = len(bots)
    wins, turns, points = [0] * n, [0] * n, [0] * n
    try:
        for g in range(start, stop):
            w, t, p = play_game(rules, bots, names, seed, g)
            wins[w] += 1
            for i in range(n):
                turns[i] += t[i]
                points[i] += p[i]
    except BotFailure as e:
        return {"games": stop - start, "error": str(e)}
    return {"games": stop - start, "wins": wins, "turns": turns, "points": points}


def chunks(seed, games, jobs):
    """Game index ranges as (seed, start, stop) tasks, about 50 per job."""
    size = max(1, min(500, games // (jobs * 50)))
    return [(seed, s, min(games, s + size)) for s in range(0, games, size)]


class Progress:
    """A one-line progress bar on stderr, redrawn at most every
    PROGRESS_EVERY seconds (or not at all when `enabled` is False)."""

    def __init__(self, total, enabled):
        self.total = total
        self.enabled = enabled
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, done, force=False):
        """Show `done` of `total` games with the rate and the time left."""
        now = time.monotonic()
        if not self.enabled or (not force and now - self.last < PROGRESS_EVERY):
            return
        self.last = now
        spent = max(now - self.start, 1e-9)
        rate = done / spent
        eta = (self.total - done) / rate if rate else 0
        width = 30
        fill = width * done // self.total if self.total else width
        sys.stderr.write("\r[%s%s] %d/%d games  %.0f games/s  ETA %s " % (
            "#" * fill, "." * (width - fill), done, self.total, rate, clock(eta)))
        sys.stderr.flush()

    def close(self):
        """End the bar's line."""
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def clock(seconds):
    """Seconds as h:mm:ss or m:ss."""
    s = int(seconds + 0.5)
    if s >= 3600:
        return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)
    return "%d:%02d" % (s // 60, s % 60)


def run_tasks(tasks, jobs, init_args, progress):
    """Run every task (in-process for one job, else in a pool of `jobs`
    processes); the summed figures. BotFailure on the first error."""
    total = {"games": 0}
    if jobs == 1:
        init_worker(*init_args)
        results = map(run_chunk, tasks)
        pool = None
    else:
        pool = multiprocessing.Pool(jobs, init_worker, init_args)
        results = pool.imap_unordered(run_chunk, tasks)
    try:
        for part in results:
            if "error" in part:
                raise BotFailure(part["error"])
            add_figures(total, part)
            progress.update(total["games"])
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    progress.update(total["games"], force=True)
    return total


def add_figures(total, part):
    """Add one chunk's figures to the running total (in place)."""
    total["games"] += part["games"]
    for key in ("wins", "turns", "points"):
        if key not in total:
            total[key] = [0] * len(part[key])
        for i, v in enumerate(part[key]):
            total[key][i] += v


# ---------------------------------------------------------------- results


def wilson(wins, n, z=Z95):
    """The Wilson score interval (low, high) for `wins` out of `n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(rules, seed, names, total, elapsed):
    """The results as the plain dict printed by --json."""
    games = total["games"]
    bots = []
    for i, name in enumerate(names):
        wins, turns = total["wins"][i], total["turns"][i]
        low, high = wilson(wins, games)
        bots.append({
            "name": name, "games": games, "wins": wins, "win_rate": wins / games,
            "ci_low": low, "ci_high": high, "turns_per_game": turns / games,
            "points_per_turn": total["points"][i] / turns if turns else 0.0,
        })
    return {
        "rules": rules.encode(), "preset": rules.preset_key(), "seed": seed, "games": games,
        "mean_game_turns": sum(total["turns"]) / games, "elapsed": elapsed, "bots": bots,
    }


def format_table(result, jobs):
    """The results as a text table."""
    games, elapsed = result["games"], result["elapsed"]
    lines = [
        "rules: %s (%s)" % (result["preset"] or "custom", result["rules"]),
        "%d games, seed %d, %d job%s, %.1f s (%.0f games/s); mean game length %.1f turns"
        % (games, result["seed"], jobs, "" if jobs == 1 else "s", elapsed,
           games / elapsed if elapsed else 0, result["mean_game_turns"]),
        "",
        "%-16s %8s %8s %8s  %-17s %10s %11s" % (
            "bot", "games", "wins", "win rate", "95% interval", "turns/game", "points/turn"),
    ]
    for b in result["bots"]:
        lines.append("%-16s %8d %8d %7.2f%%  %6.2f%% - %6.2f%% %10.2f %11.1f" % (
            b["name"], b["games"], b["wins"], 100 * b["win_rate"], 100 * b["ci_low"],
            100 * b["ci_high"], b["turns_per_game"], b["points_per_turn"]))
    return "\n".join(lines)


# ---------------------------------------------------------------- command line


def build_parser():
    """The argparse parser of the command."""
    p = argparse.ArgumentParser(
        prog="python -m tools.tournament",
        description="Play seeded games between bots and report win rates.",
        epilog="turns/game: a bot's turns (farkled ones included) per game. "
               "points/turn: a bot's final banked total over its turns (a farkled turn "
               "counts 0; penalties lower it; taken-over points count for the taker). "
               "Win rate interval: 95% Wilson score. Game g rotates the seats by "
               "g % seats and rolls SeededDice(seed * 1000003 + g): results do not "
               "depend on --jobs. Exit codes: 1 a bot broke the rules, 2 bad arguments.")
    p.add_argument("--rules", default="zehntausend",
                   help="a preset (%s), or KEY:opt=value,... to change options "
                   "(default: zehntausend)" % ", ".join(PRESETS))
    p.add_argument("--bots", default="profi,mutig",
                   help="2 to 8 comma-separated levels (%s) or path/file.py:ClassName"
                   % ", ".join(levels.LEVELS))
    p.add_argument("--games", type=int, default=1000, help="number of games (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="base seed (default 1)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="worker processes (default: all cores, here %(default)s)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--progress", action="store_true",
                   help="show the progress bar even when stderr is not a terminal")
    return p


def check_counts(args, seats):
    """Validate --games/--jobs/--seed; the game count rounded up to a
    multiple of the seat count (UsageError when bad)."""
    if args.games < 1:
        raise UsageError("--games must be at least 1 (got %d)" % args.games)
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1 (got %d)" % args.jobs)
    if args.seed < 0:
        raise UsageError("--seed must not be negative (got %d)" % args.seed)
    games = -(-args.games // seats) * seats
    if games != args.games:
        print("note: %d games rounded up to %d so every bot plays every seat equally often"
              % (args.games, games), file=sys.stderr)
    return games


def run(argv=None):
    """The command; returns the exit code."""
    args = build_parser().parse_args(argv)
    try:
        rules = parse_rules(args.rules)
        specs = split_bots(args.bots)
        # Cheap checks first: the plan takes a moment to solve.
        make_bots([s for s in specs if not _needs_plan(s)], rules, None)
        needed = any(_needs_plan(s) for s in specs)
        plan_blob = solve_plan(rules).to_bytes() if needed else None
        # Build every bot once here: bad entries fail before any worker starts.
        init_worker(rules.encode(), specs, plan_blob)
        games = check_counts(args, len(specs))
    except UsageError as e:
        print("tournament: error: %s" % e, file=sys.stderr)
        return 2
    jobs = min(args.jobs, games)
    progress = Progress(games, args.progress or sys.stderr.isatty())
    start = time.monotonic()
    try:
        total = run_tasks(chunks(args.seed, games, jobs), jobs,
                          (rules.encode(), specs, plan_blob), progress)
    except BotFailure as e:
        progress.close()
        print("tournament: error: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        progress.close()
        print("tournament: interrupted", file=sys.stderr)
        return 130
    progress.close()
    result = summary(rules, args.seed, bot_names(specs), total, time.monotonic() - start)
    print(json.dumps(result) if args.json else format_table(result, jobs))
    return 0


def main():
    """Entry point for `python -m tools.tournament`."""
    sys.exit(run())


if __name__ == "__main__":
    main()
