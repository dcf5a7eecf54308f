"""Boot firmware/main.py on the fake machine and play a game by button pins.

    micropython -X heapsize=N tools/mp/boot_run.py MPY_DIR DATA_DIR [SEED] [TARGET]

Runs under the MicroPython Unix port with the fakes folder (tools/fakes:
`machine`, the OLED model) and MPY_DIR (engine/, firmware/, boards/
compiled by mpy-cross) first on sys.path, so the device code is imported
as .mpy, as on the board. `firmware.main.main` boots the default board
(pico_ssd1306_i2c) through `firmware.device.run`: the SSD1306 driver talks
to the OLED model on the fake I2C bus, the buttons are fake pins, the store
is `device.make_store(DATA_DIR)` (a folder, made when missing), entropy is
os.urandom (the self-test runs on it) and the dice are SeededDice(SEED).

A policy, called by the loop's hook before every step, reads the screen
on top of the app and presses a button pin (held 60 ms, released 60 ms):
New game; the second seat a computer 'mutig'; the target TARGET (default:
the preset's); start; then the person plays as the tools' scripted player
(tools/mp/scripted_player.py: UP rolls on, DOWN banks) and answers
hand-overs and messages with A. Computers are left
to play. Prints `title ok` once the title frame is on the panel, and
`ok steps=... shows=... winner=... scores=...` when the winner screen shows
with the panel equal to the canvas.
"""

import sys

HOLD = 3  # frames a button is held (60 ms: past the 20 ms debounce)
GAP = 3  # frames between presses
MAX_STEPS = 300000
BOARD = "pico_ssd1306_i2c"  # the default board, named so a board.txt here cannot change it


def _root():
    here = sys.argv[0].replace("\\", "/")
    parts = here.split("/")
    parts = parts[:-3] if len(parts) >= 3 else []
    return "/".join(parts) or "."


class Policy:
    """The hook of `device.run`: one button press at a time, chosen from the screen."""

    def __init__(self, machine, board, model, target):
        self.machine = machine
        self.pins = board.BUTTONS
        self.model = model
        self.target = target
        self.key = None
        self.left = 0  # frames left in the current press and gap
        self.last = None
        self.title_ok = False
        self.done = False

    def __call__(self, dev):
        if not self.title_ok:  # no press before the title is on the panel
            if not dev.shows:
                return False
            assert dev.app.top().name == "title"
            assert self.model.shows(dev.display.buffer)
            self.title_ok = True
            print("title ok")
        if self.left:
            self.left -= 1
            if self.left == GAP:
                self.machine.release(self.pins[self.key])
            return False
        name = dev.app.top().name
        if name == "winner":
            self.done = True
            return True
        key = self.choose(dev.app, name)
        if key is not None:
            self.key = key
            self.last = key
            self.machine.press(self.pins[key])
            self.left = HOLD + GAP
        return False

    def choose(self, app, name):
        """The button to press on screen `name`, or None to let time pass."""
        top = app.top()
        if name == "title":
            return "A" if top._entries(app)[top.index] == "new_game" else "DOWN"
        if name == "setup":
            return self.setup(top)
        if name in ("handover", "message"):
            return "A"
        if name == "standings":
            return "B"
        if name == "play":
            return self.play(top)
        raise AssertionError("unexpected screen " + name)

    def setup(self, form):
        """1 person + 1 computer 'mutig', the target, then start."""
        from firmware.screens.setup import KINDS

        if self.target and form.target != self.target:
            if form.index != 1:
                return "DOWN" if form.index < 1 else "UP"
            return "LEFT" if form.target > self.target else "RIGHT"
        if form.seats[1][1] != "mutig":
            if form.index != 4:
                return "DOWN" if form.index < 4 else "UP"
            return "LEFT" if KINDS.index(form.seats[1][1]) > KINDS.index("mutig") else "RIGHT"
        start = form._rows().index("start")
        if form.index != start:
            return "DOWN"
        return "A"

    def play(self, screen):
        """A person's decision (the tools' scripted player); None while a
        computer plays. UP rolls on and DOWN banks, each pressed again when
        the screen asks."""
        from tools.mp.scripted_player import banks, chosen_keep

        game = screen.game
        if game.phase == "over" or game.seat().is_bot:
            return None
        if screen.asking:
            return "UP" if screen.asking[0] == "roll" else "DOWN"
        phase = game.phase
        if phase in ("start", "farkle"):
            return "A"
        if self.last == "DOWN" and screen.msg:  # the bank was refused: roll on
            return "UP"
        # UP or DOWN picks every scoring die first when none is picked
        return "DOWN" if banks(game, chosen_keep(game, screen.selected())) else "UP"


def main(argv):
    """Boot, play, print the result; exit status 1 when the game did not end."""
    if len(argv) < 3:
        print(__doc__)
        return 2
    root = _root()
    sys.path.insert(0, argv[1])
    sys.path.insert(0, root + "/tools/fakes")
    sys.path.append(root)  # tools.mp.scripted_player (the game itself comes from MPY_DIR)
    seed = int(argv[3]) if len(argv) > 3 else 7
    target = int(argv[4]) if len(argv) > 4 else 0

    import gc

    import machine  # the fake
    import oled

    from engine.dice import SeededDice
    from firmware import board as board_mod
    from firmware import device
    from firmware import main as entry
    from firmware.store import DirFS

    board = board_mod.load_board(BOARD)
    model = oled.Oled(board.DISPLAY, board.WIDTH, board.HEIGHT).attach(
        machine, "i2c", board.I2C_ID, board.ADDR)
    clock = machine.Clock()
    machine.use_clock(clock)
    policy = Policy(machine, board, model, target)
    dev = entry.main(machine, clock, MAX_STEPS, policy, BOARD, dice=SeededDice(seed),
                     store=device.make_store(argv[2]), tables=DirFS(root + "/tables"))
    if not policy.done:
        print("the game did not end in %d steps" % MAX_STEPS)
        return 1
    assert policy.title_ok
    assert model.on and model.shows(dev.display.buffer)
    game = dev.app.top().game
    assert game.phase == "over" and game.seats[1].kind == "mutig"
    gc.collect()
    print("ok steps=%d shows=%d ms=%d winner=%d scores=%s free=%d" % (
        dev.steps, dev.shows, clock.now, game.winner, [s.score for s in game.seats],
        gc.mem_free()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
