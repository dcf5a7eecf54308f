"""Play one random 4-seat game under MicroPython and print `ok` at its end.

    micropython -X heapsize=N tools/mp/game_run.py ROOT

ROOT is the folder to import `engine` and `tools.mp.randomplay` from: the
repository (source) or a folder of compiled .mpy files. `make bench` looks
for the smallest heap at which this passes.
"""

import sys

sys.path.insert(0, sys.argv[1] if len(sys.argv) > 1 else ".")

from engine.rules import preset  # noqa: E402
from tools.mp.randomplay import play  # noqa: E402

game, actions = play(preset("zehntausend"), 4, 9)
assert game.phase == "over"
print("ok", actions)
