"""Run the simulator: `python -m simulator [options]` (or `make sim`).

Window (pygame-ce): the OLED pixel-true and scaled, six clickable buttons,
keyboard arrows, X for A and Z for B (printed in the window), F12 writes a
screenshot into screenshots/ (the title bar and the console say which).
Headless: `--headless` with `--keys`, `--screenshot` and
`--state`, for tests and for people without a display:

    python -m simulator --headless --board pico_ssd1306_i2c --seed 7 \\
        --keys "A,RIGHT,A,B" --screenshot out.png --state out.json
"""

import argparse
import sys

from firmware.board import DEFAULT_BOARD
from simulator.host import Sim, board_names, unknown_board


def parse(argv):
    """The command line."""
    p = argparse.ArgumentParser(prog="python -m simulator", description=__doc__.splitlines()[0])
    p.add_argument("--board", default=DEFAULT_BOARD,
                   help="board from boards/: %s (thumby is 72x40)" % ", ".join(board_names()))
    p.add_argument("--seed", type=int, default=None, help="seeded dice (default: OS randomness)")
    p.add_argument("--data", default=None, help="folder for saves (default: per-user folder)")
    p.add_argument("--headless", action="store_true", help="no window")
    p.add_argument("--keys", default="", help='keys to press, e.g. "A,RIGHT,A,WAIT:1000,B"')
    p.add_argument("--screenshot", default=None, help="write a PNG of the screen at the end")
    p.add_argument("--state", default=None, help="write the screen and engine state as JSON")
    p.add_argument("--scale", type=int, default=4, help="screenshot pixels per OLED pixel")
    args = p.parse_args(argv)
    problem = unknown_board(args.board)
    if problem:
        p.error(problem)
    return args


def main(argv=None):
    """Start the window or run headless."""
    args = parse(argv)
    sim = Sim(args.board, args.data, args.seed, guard=not args.headless)
    try:
        sim.keys(args.keys)
    except ValueError as e:
        print("simulator: %s" % e, file=sys.stderr)
        return 2
    if not args.headless:
        from simulator.window import run

        run(sim, args.scale)
    if args.screenshot:
        sim.png(args.screenshot, args.scale)
    if args.state:
        sim.save_state(args.state)
    if args.headless and not (args.screenshot or args.state):
        print(sim.state()["screen"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
