"""One whole game on the App under CircuitPython's Unix port, with its live heap.

    micropython -X heapsize=N tools/mp/cpy_game.py [--path DIR] [--bot meister]
        [--seed N] [--target N] [--no-tips] [--every N] [--device] [--harness]
        [--frozen]

The game of tools/mp/app_run.py (the scripted person against one computer
of level `--bot`, default the Master, with the shipped tables), drawn on
the CircuitPython host's canvas (circuitpy.canvas.BitmapCanvas: a
`displayio.Bitmap` drawn with `bitmaptools`, both in the port's `coverage`
build; no panel behind it), the person with tips on (the "tips" setting,
which the new-game form reads) unless `--no-tips`. Every `--every` steps
(default 1) and whenever the screen on top changes, the garbage is
collected and the live heap (`gc.mem_alloc()`) taken. With `--device`
the modules the CircuitPython device holds besides the App (DEVICE: the
device loop, the host's keys, saves and power) are imported first, as
the device does. With `--frozen` the game's packages come from the
port's frozen modules (a build with the game frozen in: `.frozen` first
on sys.path, the repository's sources not on it). Prints:

    @start ALLOC FREE        the heap before the game's first import
    @device BYTES            what the DEVICE modules took (with --device)
    @warm ALLOC              live after the warm-up (the device's first steps)
    @peak LIVE SCREEN        the largest live heap seen, and the screen on top
    @least_free FREE SCREEN  the smallest free heap seen
    @modules N               modules loaded at the end
    ok STEPS

ALLOC and LIVE count every byte of the heap in use, the port's own start-up
objects included (ALLOC at @start), and this harness's own modules
(app_run's policy, the scripted player, the MemFS): `--harness` loads the
game modules they import, then them, and prints only `@harness BYTES`,
what they added (to subtract). Runs under CPython too (with Blinka's
displayio; no heap figures there).
"""

import gc
import sys

FREE = getattr(gc, "mem_free", None)
DEVICE = ("firmware.device", "circuitpy.host", "circuitpy.keys", "circuitpy.saves",
          "circuitpy.power")
# The game's modules the harness's modules import, loaded before them by
# --harness so that only the harness is measured.
HARNESS_NEEDS = ("engine.scoring", "firmware.store")
HARNESS = ("tools.mp.app_run", "tools.mp.scripted_player", "tools.fakes.memfs")


def _options(argv):
    opts = {"path": [], "bot": "meister", "seed": 7, "target": 10000, "tips": True, "every": 1,
            "device": False, "harness": False, "frozen": False}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--no-tips":
            opts["tips"] = False
        elif a in ("--device", "--harness", "--frozen"):
            opts[a[2:]] = True
        elif a in ("--path", "--bot", "--seed", "--target", "--every") and i + 1 < len(argv):
            i += 1
            if a == "--path":
                opts["path"].append(argv[i])
            elif a == "--bot":
                opts["bot"] = argv[i]
            else:
                opts[a[2:]] = int(argv[i])
        else:
            raise SystemExit("unknown option %s" % a)
        i += 1
    return opts


class Watch:
    """The largest live heap and the smallest free heap, after a collection."""

    def __init__(self, every):
        self.every = every
        self.count = 0
        self.peak = 0
        self.peak_on = ""
        self.least = -1
        self.least_on = ""
        self.top = ""

    def sample(self, name):
        """Collect, then take the live and the free heap with `name` on top."""
        if FREE is None:
            return
        gc.collect()
        live = gc.mem_alloc()
        free = FREE()
        if live > self.peak:
            self.peak = live
            self.peak_on = name
        if self.least < 0 or free < self.least:
            self.least = free
            self.least_on = name

    def step(self, app, drew):
        """Called after every step (app_run.play_game's `each`)."""
        self.count += 1
        name = app.top().name
        if name != self.top or self.count % self.every == 0:
            self.top = name
            self.sample(name)


def build(seed, tips):
    """The App on a BitmapCanvas of 128x64 (no panel), a MemFS store,
    seeded dice and the shipped tables."""
    from circuitpy.canvas import BitmapCanvas
    from engine.dice import SeededDice
    from firmware.app import App
    from firmware.store import DirFS, Store
    from tools.fakes.memfs import MemFS

    app = App(BitmapCanvas(None, 128, 64), 128, 64, Store(MemFS()), SeededDice(seed),
              DirFS("tables"), 0)
    app.session.settings["tips"] = tips
    return app


def _setup_path(paths, frozen=False):
    """`paths`, then the repository root (the current directory), first on
    sys.path; with `frozen`, `paths` then the frozen modules and no root."""
    for p in ["", ".", ".frozen"] + list(paths):
        while p in sys.path:
            sys.path.remove(p)
    sys.path.insert(0, ".frozen" if frozen else ".")
    for p in reversed(paths):
        sys.path.insert(0, p)


def _imported(names):
    """Import `names`; return the bytes the live heap grew by (0 under CPython)."""
    if FREE is None:
        for name in names:
            __import__(name)
        return 0
    gc.collect()
    before = gc.mem_alloc()
    for name in names:
        __import__(name)
    gc.collect()
    return gc.mem_alloc() - before


def main():
    """Parse the options, play, print the heap lines and `ok <steps>`."""
    opts = _options(sys.argv)
    _setup_path(opts["path"], opts["frozen"])
    if opts["harness"]:
        _imported(HARNESS_NEEDS)
        print("@harness", _imported(HARNESS))
        return
    gc.collect()
    if FREE is not None:
        print("@start", gc.mem_alloc(), FREE())
    if opts["device"]:
        print("@device", _imported(DEVICE))
    from tools.mp import app_run

    watch = Watch(opts["every"])
    app = build(opts["seed"], opts["tips"])
    app_run.warm_up(app)
    gc.collect()
    if FREE is not None:
        print("@warm", gc.mem_alloc())
    policy = app_run.Policy(opts["bot"], opts["target"])
    steps = app_run.play_game(app, policy, watch.step)
    watch.sample("winner")
    game = app.top().game
    assert game.phase == "over" and game.seats[1].kind == opts["bot"]
    assert max(s.score for s in game.seats) >= opts["target"]
    if FREE is not None:
        print("@peak", watch.peak, watch.peak_on)
        print("@least_free", watch.least, watch.least_on)
    print("@modules", len(sys.modules))
    print("ok", steps)


if __name__ == "__main__":
    main()
