"""The dice check anyone can run: one Python file, standard library only,
that the room server serves at /check_dice.py (docs/hosting.md, "The
dice check").

It is tools/check_dice.py with the engine modules its replay needs
(engine/crc.py, scoring.py, rules.py, game.py: the one place the rules
live, pure Python) carried inside as their source text, unchanged: the
file makes each a module from its text before the check runs, so
`python3 check_dice.py record.json --commit HEX` needs no copy of this
repository and nothing installed. It is made once per process from the
files this server runs with, so it always replays with the server's own
rules; the dice derivation in it is tools/check_dice.py's, written apart
from the server's (server/fairdice.py).
"""

from functools import lru_cache

from server.config import ROOT

# The engine modules the replay imports, each after those it imports.
MODULES = ("engine", "engine.crc", "engine.scoring", "engine.rules", "engine.game")
CHECK = "tools/check_dice.py"
# check_dice.py's own line that puts the repository on the path: the file
# served carries the engine instead
PATH_LINE = "sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))\n"

HEAD = '''#!/usr/bin/env python3
"""Zehntausend: check a finished online game's dice record with nothing
but Python 3's standard library (served by the room server at
/check_dice.py).

    python3 check_dice.py RECORD.json --commit HEX [--seen SEEN.json]

RECORD: GET /api/rooms/CODE/games/G of the room server; HEX: the
commitment the room showed when the game began; SEEN: the rolls you
saw, [[k, [faces...]], ...]. It checks the secret against the
commitment, every roll against the secret, the rolls you saw, and
replays the whole game through the game's engine. Exit 0 when all
holds, 1 with the first problem named.

The engine's modules (engine/crc.py, scoring.py, rules.py, game.py of
the Zehntausend project) come first below as their source text, each
made a module before the check (tools/check_dice.py) runs.
"""

import sys as _sys
import types as _types

_SOURCES = {}
'''

LOADER = '''

def _install():
    """Each carried source as the module of its name, in order."""
    for name, text in _SOURCES.items():
        module = _types.ModuleType(name)
        module.__file__ = "check_dice.py (%s)" % name
        if name == "engine":
            module.__path__ = []  # a package: its modules are the ones below
        _sys.modules[name] = module
        exec(compile(text, "<%s>" % name, "exec"), module.__dict__)
        if "." in name:
            setattr(_sys.modules["engine"], name.split(".", 1)[1], module)


_install()

# ------------------------------------------------------------ tools/check_dice.py

'''


def _literal(name, text):
    """`text` as a Python literal, a line of the source per line."""
    lines = ["_SOURCES[%r] = (\n" % name]
    lines += ["    %r\n" % line for line in text.splitlines(keepends=True)]
    lines.append(")\n")
    return "".join(lines)


@lru_cache(maxsize=1)
def source():
    """The file's text (made once: from the engine and the check as this
    server has them)."""
    parts = [HEAD]
    for name in MODULES:
        path = ROOT / (name.replace(".", "/") + ("/__init__.py" if name == "engine" else ".py"))
        parts.append("\n" + _literal(name, path.read_text(encoding="utf-8")))
    check = (ROOT / CHECK).read_text(encoding="utf-8")
    if PATH_LINE not in check:
        raise RuntimeError("tools/check_dice.py no longer puts the repository on the path as "
                           "server/verifier.py expects")
    parts.append(LOADER)
    parts.append(check.replace(PATH_LINE, "# (the engine is carried above)\n"))
    return "".join(parts)
