"""The handheld's entry point (deployed as /main.py).

Picks the board chosen at deploy time (`board_choice.BOARD` or `board.txt`,
default pico_ssd1306_i2c) and runs the device loop of firmware.device:
display first (with the kept title on it, firmware.splash), then buttons,
entropy self-test, store, app, loop.
`main(machine=..., clock=..., max_steps=..., hook=..., ...)` runs the same
on test fakes and returns the Device.
"""



def main(machine=None, clock=None, max_steps=None, hook=None, board=None, **options):
    """Run the device loop on `board` (a board name; default: the deployed one).
    On the handheld itself (no fakes passed) the kept title goes on the panel
    before the rest of the game loads (firmware.splash)."""
    if machine is None and board is None and "display" not in options:
        from firmware import splash

        options["display"] = splash.early()
        options["splash"] = splash.FILE
    from firmware import device
    from firmware.board import load_board

    return device.run(load_board(board), machine, clock, max_steps, hook, **options)


if __name__ == "__main__":
    main()
