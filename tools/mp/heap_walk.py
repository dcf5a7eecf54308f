"""Random presses through the App on a heap cut into holes (Unix port).

    micropython -X heapsize=700k tools/mp/heap_walk.py [--path DIR] SEED PRESSES HOLE

The audit behind issue 21: builds `firmware.app.App` (a real FrameBuffer,
a Store on a temporary folder, seeded dice, the shipped tables), warms it
up as the device does (App.warm_up: the names of every game module are
interned while the heap is whole), lets it draw the title, then cuts the
free heap into holes of HOLE bytes (tools/mp/heap_holes.py) and presses
random buttons: short, long (700 ms) and B more often, with virtual
time. A request for a block larger than a hole fails; each MemoryError
is printed with its traceback and the app goes home. A heap well above
the game's needs (700k) keeps the walk from running out of heap as a
whole: only a large block can fail. Prints the screens visited and
`done SEED failures N`. `tools/heapwalk.py` runs it over several seeds.
"""

import gc
import sys

FRAME_MS = 50


def _args(argv):
    paths = []
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] == "--path":
            paths.append(argv[i + 1])
            i += 2
        else:
            rest.append(argv[i])
            i += 1
    return paths, int(rest[0]), int(rest[1]), int(rest[2])


def main(argv):
    paths, seed, presses, hole = _args(argv)
    sys.path.insert(0, ".")  # the repository root (run from there)
    for p in reversed(paths):
        sys.path.insert(0, p)
    import os

    import framebuf

    from engine.dice import SeededDice
    from firmware.app import App
    from firmware.store import DirFS, Store
    from tools.mp.heap_holes import Holes

    folder = "/tmp/heapwalk-%d" % seed
    try:
        os.mkdir(folder)
    except OSError:
        pass
    for name in os.listdir(folder):  # a fresh store (a run before may have left saves)
        os.remove(folder + "/" + name)
    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    app = App(canvas, 128, 64, Store(DirFS(folder)), SeededDice(seed), DirFS("tables"), 0)
    now = [0]

    def frames(bits, n):
        for _ in range(n):
            now[0] += FRAME_MS
            app.step(now[0], bits)

    frames(0, 2)
    app.warm_up()
    while app.warming:
        app.warm_step()
    frames(0, 2)
    holes = Holes(hole)
    holes.tighten()
    print("holes of %d bytes at most, %d bytes free" % (holes.largest, gc.mem_free()))
    keys = (1, 2, 4, 8, 16, 32, 32)  # UP DOWN LEFT RIGHT A B, B twice as often
    rng = SeededDice(seed * 7 + 1)
    seen = {}
    failures = 0
    for i in range(presses):
        bit = keys[(rng.face() * 6 + rng.face()) % len(keys)]
        hold = 14 if rng.face() == 6 and rng.face() > 4 else 2  # frames: 700 ms or 100 ms
        try:
            frames(bit, hold)
            frames(0, 1 + rng.face() * 3)
        except MemoryError as e:
            failures += 1
            print("press %d on %s:" % (i, app.top().name))
            sys.print_exception(e)
            app.home()
        name = app.top().name
        seen[name] = seen.get(name, 0) + 1
    print("screens: " + " ".join("%s=%d" % (k, seen[k]) for k in sorted(seen)))
    print("done %d failures %d" % (seed, failures))
    holes.close()


if __name__ == "__main__":
    main(sys.argv[1:])
