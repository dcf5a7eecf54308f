"""The cycle collector kept off the rooms' long-lived objects.

A room server holds its rooms and their connections for hours: at 1,000
rooms some 700,000 objects the collector tracks (a connection's tasks,
coroutines, closures and handshake, a room's game). CPython's full
collection walks all of them, 0.3 to 0.5 s with the event loop stopped,
and it runs whenever a quarter as many objects as the old generation
holds were promoted since the last one: in steady play that counts the
game states that lived a few seconds and were freed long ago, so a full
walk came every few seconds at 1,000 rooms, and the actions that waited
for it were the benchmark's p99 (262 to 563 ms against 250).

After every collection of the oldest generation the survivors are frozen
(`gc.freeze`): later collections walk only what came since. A frozen
object freed by its reference count is freed as before; only a frozen
object that becomes part of an unreachable cycle (a connection's objects
when it closes) waits, so the frozen set is thawed for one full
collection whenever it has grown by a quarter since the last one: the
garbage kept waiting is at most about a quarter of what is live, as with
CPython's own rule, but play that only replaces objects (a room's game,
its messages) no longer brings a full walk.

Young collections come every YOUNG new objects instead of CPython's 700
(see YOUNG).

Installed by `python -m server` only (not in tests that build the app in
their own process)."""

import gc
import time

MIN_GROWTH = 20_000  # objects: about a quarter of what a started server tracks
# Counting the frozen set walks all of it (some 10 ms at 1,000 rooms), and
# once its growth nears the limit every collection of the oldest
# generation (several a second when busy) would count again: at most once
# in this many seconds, which delays a thaw by as much.
COUNT_EVERY = 10.0
# A young collection after this many new container objects, not CPython's
# 700: an action's objects (a game state, its event message) are mostly
# freed by their count before the collector gets to them, so it visits
# fewer of them; a young collection of 20,000 takes a few milliseconds.
# At 1,000 rooms: 0.372, 0.390, 0.385 -> 0.361, 0.375, 0.357 ms of CPU
# an action, p99 61 to 121 -> 19 to 51 ms (alternated runs).
YOUNG = 20_000

_state = {"installed": False, "thawed": False, "base": 0, "added": 0, "full": 0, "thaws": 0,
          "counted_at": 0.0, "counts": 0, "threshold": None}


def _after(phase, info):
    """gc's callback: freeze after each collection of the oldest
    generation, thaw when the frozen set grew by a quarter."""
    if phase != "stop" or info["generation"] != 2:
        return
    if _state["thawed"]:  # this one walked everything
        _state["thawed"] = False
        _state["full"] += 1
        gc.freeze()
        _state["base"] = gc.get_freeze_count()
        _state["added"] = 0
        return
    # Counting the frozen set walks all of it (some 10 ms at 1,000 rooms):
    # only when what was frozen since the last full walk could make a
    # quarter. The oldest generation holds just the survivors to freeze now.
    _state["added"] += len(gc.get_objects(2))
    gc.freeze()
    base = _state["base"]
    limit = max(MIN_GROWTH, base // 4)
    if _state["added"] <= limit:
        return
    now = time.monotonic()
    if now - _state["counted_at"] < COUNT_EVERY:
        return
    _state["counted_at"] = now
    _state["counts"] += 1
    grown = gc.get_freeze_count() - base
    if grown > limit:
        gc.unfreeze()  # the next collection of the oldest generation walks it all
        _state["thawed"] = True
        _state["thaws"] += 1
    else:  # most of it was freed by its count meanwhile
        _state["added"] = max(0, grown)


def install():
    """Freeze what is there (the modules, the app) and keep freezing;
    young collections every YOUNG new objects."""
    if _state["installed"]:
        return
    _state["threshold"] = gc.get_threshold()
    gc.set_threshold(YOUNG, *_state["threshold"][1:])
    gc.collect()
    gc.freeze()
    _state.update(installed=True, thawed=False, base=gc.get_freeze_count(), added=0)
    gc.callbacks.append(_after)


def uninstall():
    """Stop freezing and thaw everything (for tests)."""
    if _state["installed"]:
        gc.callbacks.remove(_after)
        gc.set_threshold(*_state["threshold"])
        gc.unfreeze()
        _state.update(installed=False, thawed=False, base=0, added=0)


def stats():
    """For GET /api/stats: the objects frozen now, the full collections
    since install, the thaws that asked for them and the times the frozen
    set was counted to decide."""
    return {"frozen": gc.get_freeze_count(), "full": _state["full"],
            "thaws": _state["thaws"], "counts": _state["counts"]}
