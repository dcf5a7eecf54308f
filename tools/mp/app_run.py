"""Play one whole game on the App under the MicroPython Unix port.

    micropython -X heapsize=N tools/mp/app_run.py [--path DIR] [--small]
        [--bot profi|mutig|vorsichtig|meister] [--seed N] [--target N] [--no-tables]
        [--join LEVEL]

Builds `firmware.app.App` on a real `framebuf.FrameBuffer` (128x64
MONO_VLSB, or 72x40 with `--small`), a Store on a MemFS, SeededDice and the
shipped tables of tables/ (`--no-tables`: none, so a computer that needs a
plan solves it), and plays a complete game between one person, played by a
key policy that reads `app.top()` (the scripted player of
tools/mp/scripted_player.py), and one computer of level
`--bot`, purely through `app.step(now, held_bits)` with virtual time
(20 ms frames). With `--join LEVEL` a computer of LEVEL joins from the
standings at the person's first hand-over (three seats from then on).
Prints `ok <steps>` when the winner screen shows. Under MicroPython it
also checks that the game never loads what it does not need
(`absent_modules`: the texts' help book, the plan solver, the odds, the
standings).

`--path DIR` (repeatable) is put first on sys.path, before the repository
root (the current directory): a folder of .mpy files from mpy-cross, as on
the device. Also runs under CPython (with the framebuf stand-in).
"""

import sys

FRAME_MS = 20
HOLD_MS = 40
GAP_MS = 40
MAX_STEPS = 400000


def _options(argv):
    opts = {"path": [], "small": False, "bot": "profi", "seed": 7, "target": 10000,
            "tables": True, "join": ""}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == "--no-tables":
            opts["tables"] = False
        elif a == "--small":
            opts["small"] = True
        elif a in ("--path", "--bot", "--seed", "--target", "--join") and i + 1 < len(argv):
            i += 1
            if a == "--path":
                opts["path"].append(argv[i])
            elif a in ("--bot", "--join"):
                opts[a[2:]] = argv[i]
            else:
                opts[a[2:]] = int(argv[i])
        else:
            raise SystemExit("unknown option %s" % a)
        i += 1
    return opts


def setup_path(paths):
    """Put `paths`, then the repository root, first on sys.path."""
    for p in [""] + list(paths):
        if p in sys.path:
            sys.path.remove(p)
    sys.path.insert(0, ".")
    i = len(paths)
    while i:
        i -= 1
        sys.path.insert(0, paths[i])


def _framebuf():
    try:
        import framebuf
    except ImportError:  # CPython: the simulator's stand-in
        from simulator import framebuf
    return framebuf


def build(small=False, seed=7, tables=True):
    """A new App on a real FrameBuffer, a MemFS store and seeded dice, with
    the shipped tables of tables/ (as on the device) unless `tables` is
    False (then a computer that needs a plan solves it)."""
    framebuf = _framebuf()
    from engine.dice import SeededDice
    from firmware.app import App
    from firmware.store import DirFS, Store
    from tools.fakes.memfs import MemFS

    w, h = (72, 40) if small else (128, 64)
    canvas = framebuf.FrameBuffer(bytearray(w * h // 8), w, h, framebuf.MONO_VLSB)
    return App(canvas, w, h, Store(MemFS()), SeededDice(seed),
               DirFS("tables") if tables else None, 0)


class Policy:
    """Which button to press next, from the screen on top; None: wait.

    The form is set to one person against one computer of level `bot`
    with the target `target`; the person plays as the tools' scripted
    player (tools/mp/scripted_player.py), rolling on when the bank is
    refused."""

    def __init__(self, bot="profi", target=10000, join=""):
        self.bot = bot
        self.target = target
        self.join = join  # a computer level that joins at the first hand-over
        self.last = None

    def key(self, app):
        """The button name to press now, or None to let time pass."""
        from firmware import buttons

        top = app.top()
        name = top.name
        k = None
        if name == "title":
            k = buttons.A if top.labels(app)[top.index] == app.t("new_game") else buttons.DOWN
        elif name == "setup":
            k = self._setup(app, top)
        elif name == "handover":
            k = buttons.B if self.join else buttons.A
        elif name == "message":
            k = buttons.A
        elif name == "standings" and self.join:
            k = self._pick(top, top.labels(app).index(app.t("menu_join")))
        elif name == "join":
            from engine.levels import LEVELS

            k = self._pick(top, 1 + LEVELS.index(self.join))
            if k == buttons.A:
                self.join = ""
        elif name in ("standings", "names", "typer", "order"):
            k = buttons.B
        elif name == "play":
            k = self._play(app, top)
        self.last = k
        return k

    @staticmethod
    def _pick(menu, index):
        from firmware import buttons

        return buttons.A if menu.index == index else buttons.DOWN

    def _setup(self, app, form):
        from firmware import buttons
        from firmware.screens.setup import KINDS

        if form.seats[1][1] != self.bot:
            if form.index != 4:
                return buttons.DOWN
            return buttons.RIGHT if KINDS.index(form.seats[1][1]) < KINDS.index(
                self.bot) else buttons.LEFT
        if form.target != self.target:
            if form.index != 1:
                return buttons.UP
            return buttons.LEFT if form.target > self.target else buttons.RIGHT
        if form.index != len(form.labels(app)) - 1:
            return buttons.UP
        return buttons.A

    def _play(self, app, play):
        from firmware import buttons
        from tools.mp.scripted_player import banks, chosen_keep

        game = play.game
        if game.seat().is_bot or game.phase == "over":
            return None
        if play.asking:  # the screen asks: the same key again
            return buttons.UP if play.asking[0] == "roll" else buttons.DOWN
        phase = game.phase
        if phase in ("start", "farkle"):
            return buttons.A
        refused = self.last == buttons.DOWN  # a DOWN that asked nothing: bank refused
        if refused:
            return buttons.UP
        # UP or DOWN picks every scoring die first when none is picked
        return buttons.DOWN if banks(game, chosen_keep(game, play.selected())) else buttons.UP


def play_game(app, policy, each=None):
    """Step `app` until the winner screen; returns the number of steps.
    `each(app, drew)` is called after every step."""
    now = 0
    steps = 0
    while app.top().name != "winner":
        key = policy.key(app)
        if key is None:
            phases = ((0, 1),)
        else:
            phases = ((key, HOLD_MS // FRAME_MS), (0, GAP_MS // FRAME_MS))
        for held, frames in phases:
            for _ in range(frames):
                now += FRAME_MS
                drew = app.step(now, held)
                steps += 1
                if each is not None:
                    each(app, drew)
        if steps > MAX_STEPS:
            raise RuntimeError("the game did not end")
    return steps


def warm_up(app):
    """What the device does right after boot (firmware.app.App.warm_up,
    a module a poll): the names of the game's modules interned while the
    heap is in one piece, so that MicroPython's name pool grows then and
    not late in a game (a pool of 1280 names is one large block). A game
    on the device starts after it."""
    app.step(FRAME_MS, 0)
    app.warm_up()
    while app.warming:
        app.warm_step()


def absent_modules(opts):
    """The modules a game with these options never loads (MicroPython: its
    heap carries only what the game needs): the texts' help book, and with
    the shipped tables the plan solver, and engine.odds unless a level
    that estimates from the odds (vorsichtig, mutig) plays; the standings
    (and the winner: checked until it shows) unless somebody joins."""
    if sys.implementation.name != "micropython":
        return ()  # (CPython: other code in the process may have loaded them)
    out = ["firmware.texts_de_help"]
    if not opts["join"]:
        out.append("firmware.screens.standings")
    if opts["tables"]:
        out.append("engine.plan_solver")
        if opts["bot"] in ("profi", "meister") and opts["join"] in ("", "profi", "meister"):
            out.append("engine.odds")
    return out


def _check_absent(app, absent):
    top = app.top().name
    for name in absent:
        if top == "winner" and name == "firmware.screens.standings":
            continue  # (the winner screen comes from there)
        assert name not in sys.modules, "%s loaded on %s" % (name, top)


def main():
    """Parse the options, play, print `ok <steps>`."""
    opts = _options(sys.argv)
    setup_path(opts["path"])
    app = build(opts["small"], opts["seed"], opts["tables"])
    warm_up(app)
    policy = Policy(opts["bot"], opts["target"], opts["join"])
    absent = absent_modules(opts)
    steps = play_game(app, policy, lambda app, drew: _check_absent(app, absent))
    game = app.top().game
    assert game.phase == "over" and game.seats[1].kind == opts["bot"]
    if opts["join"]:
        assert len(game.seats) == 3 and game.seats[2].kind == opts["join"]
    if sys.implementation.name == "micropython":  # firmware.app.RELEASE
        assert "firmware.screens.setup" not in sys.modules, "the new-game form stayed loaded"
    assert max(s.score for s in game.seats) >= opts["target"]
    print("ok", steps)


if __name__ == "__main__":
    main()
