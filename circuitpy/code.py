"""The game's entry point on a CIRCUITPY drive (copied there as /code.py).

Loads the board named in board.txt (default pico_ssd1306_i2c: boards are
data, firmware.board.load_board) and runs the device loop on
CircuitPython's modules (circuitpy.host).
"""

from circuitpy.host import run
from firmware.board import load_board

run(load_board())
