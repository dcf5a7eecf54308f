"""The computer levels: the one list that the engine, the device and the
tools read. Adding a level touches this table (plus its class and its
`level_KEY` texts); see "A computer level" in docs/contributing.md.

Each level is a key (used in saves, commands and statistics), the module
and factory that build it, and what it needs:

    PLAN    it plays from the Expert's plan (engine.turnplan), which the
            caller passes in or which is solved (on the device: shipped,
            cached on flash or solved with a progress bar)
    TABLES  it reads table files (the Master's `master-*.bin`)

A factory is called as `factory(rules, plan, tables)`. The module is
imported only when a bot of the level is made, so reading the list costs
nothing on the device.
"""

PLAN = 1
TABLES = 2

# (key, module, factory, needs), in the order the screens offer them
_LEVELS = (
    ("vorsichtig", "bots", "make_cautious", 0),
    ("mutig", "bots", "make_bold", 0),
    ("profi", "bots", "make_expert", PLAN),
    ("meister", "master", "make_master", PLAN | TABLES),
)

LEVELS = tuple([level[0] for level in _LEVELS])


def _level(key):
    for level in _LEVELS:
        if level[0] == key:
            return level
    raise ValueError("unknown computer level %r; levels are %s" % (key, ", ".join(LEVELS)))


def needs(key, what):
    """True when level `key` needs `what` (PLAN or TABLES); ValueError for
    an unknown key."""
    return bool(_level(key)[3] & what)


def factory(key):
    """The function that builds a bot of level `key`: `f(rules, plan, tables)`."""
    level = _level(key)
    package = __import__("engine." + level[1])  # the package; the module is its attribute
    return getattr(getattr(package, level[1]), level[2])
