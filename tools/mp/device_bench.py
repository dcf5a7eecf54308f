"""Device figures under the MicroPython Unix port, on the fake machine.

    micropython -X heapsize=512k tools/mp/device_bench.py MPY_DIR

With the device code compiled by mpy-cross (MPY_DIR) and the fakes of
tools/fakes, as in tools/mp/boot_run.py. Prints `name value` lines:
- boot_us: imports, display set-up, the entropy self-test, the app and the
  title screen's first frame handed to the display (the bytes go to the
  fake bus, whose own cost is small);
- press_us: median of 40 button presses on the title screen: the loop step
  that sees the new button bits (the first edge counts), from reading the
  pins to the changed windows handed to the display;
- fake_show_us: what handing one whole frame to the fake bus costs (the
  model decodes every byte in Python); a press sends only a few windows,
  so press_us holds less of it.
The real clock times the work; the loop's own sleeps use a virtual clock.
"""

import sys

sys.path.insert(0, sys.argv[1])
sys.path.insert(0, "tools/fakes")

from time import ticks_diff, ticks_us  # noqa: E402

t0 = ticks_us()
import machine  # noqa: E402  the fake
import oled  # noqa: E402  the display controller model on the fake bus

from engine.dice import SeededDice  # noqa: E402
from firmware import board as board_mod  # noqa: E402
from firmware import device  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402

BOARD = "pico_ssd1306_i2c"


def main():
    """Boot, press, print."""
    board = board_mod.load_board(BOARD)
    oled.Oled(board.DISPLAY, board.WIDTH, board.HEIGHT).attach(machine, "i2c", board.I2C_ID,
                                                               board.ADDR)
    clock = machine.Clock()
    machine.use_clock(clock)
    dev = device.start(board, machine, clock, dice=SeededDice(1), store=Store(MemFS()),
                       tables=None)
    dev.step()
    boot = ticks_diff(ticks_us(), t0)
    assert dev.shows == 1 and dev.app.top().name == "title"
    print("boot_us", boot)
    times = []
    pins = board.BUTTONS
    for i in range(40):
        pin = pins["DOWN" if i % 2 == 0 else "UP"]
        machine.press(pin)
        clock.advance(30)  # past the lockout of the last change
        shows = dev.shows
        start = ticks_us()
        dev.step()  # the first edge counts: the menu moves, the frame goes out
        spent = ticks_diff(ticks_us(), start)
        assert dev.shows == shows + 1
        times.append(spent)
        machine.release(pin)
        for _ in range(3):
            dev.step()
    times.sort()
    print("press_us", times[len(times) // 2])
    shows = []
    for _ in range(20):  # what the fake bus and controller model cost per whole frame
        dev.display.refresh()
        start = ticks_us()
        dev.display.show()
        shows.append(ticks_diff(ticks_us(), start))
    shows.sort()
    print("fake_show_us", shows[len(shows) // 2])


main()
