"""The game's boot.py on a CIRCUITPY drive (copied there as /boot.py).

Runs once at power-on, before USB starts: the drive goes to the game for
its saves (circuitpy.saves), unless B is held, which leaves the drive
writable from the computer to copy a new version of the game.
"""

import digitalio
import storage

from circuitpy.pins import pin
from circuitpy.saves import remount_for_saves
from firmware.board import load_board

_b = digitalio.DigitalInOut(pin(load_board().BUTTONS["B"]))
_b.switch_to_input(pull=digitalio.Pull.UP)
remount_for_saves(storage, not _b.value)  # held: the pin reads low
_b.deinit()
