"""The handheld's entry point (deployed as /main.py).

Picks the board chosen at deploy time (`board_choice.BOARD` or `board.txt`,
default pico_ssd1306_i2c) and runs the device loop of firmware.device:
display first, then buttons, entropy self-test, store, app, loop.
`main(machine=..., clock=..., max_steps=..., hook=..., ...)` runs the same
on test fakes and returns the Device.
"""

from firmware import device


def main(machine=None, clock=None, max_steps=None, hook=None, board=None, **options):
    """Run the device loop on `board` (a board name; default: the deployed one)."""
    return device.run(device.load_board(board), machine, clock, max_steps, hook, **options)


if __name__ == "__main__":
    main()
