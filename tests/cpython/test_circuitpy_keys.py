"""The buttons on CircuitPython: keypad's event queue read as firmware.buttons bits.

The queue is Blinka's real `keypad.EventQueue` (the scanner thread of
`keypad.Keys` needs pins, so a fake scanner records the events a scan
would); circuitpy.keys.Keys reads it, alone and inside the device loop
of firmware.device with the CircuitPython canvas on the OLED model.
"""

import keypad

from circuitpy.host import start
from circuitpy.keys import Keys
from engine.dice import SeededDice
from firmware.board import load_board
from firmware.buttons import BITS, NAMES
from firmware.store import DirFS, Store
from simulator.host import ROOT
from tests.cpython.circuitpy_fakes import FakeI2C, frame_of
from tools.fakes.oled import Oled


class Scanner:
    """What keypad.Keys would be after scanning: its `events` queue;
    `press`/`release` record a scan's change; `reset` as keypad's."""

    def __init__(self, max_events=64):
        self.events = keypad.EventQueue(max_events)
        self.resets = 0

    def press(self, name):
        self.events.keypad_eventqueue_record(NAMES.index(name), True)

    def release(self, name):
        self.events.keypad_eventqueue_record(NAMES.index(name), False)

    def reset(self):
        self.resets += 1


def _keys():
    scanner = Scanner()
    return scanner, Keys(scanner, keypad.Event())


def test_a_held_button_reads_until_it_is_let_go():
    scanner, keys = _keys()
    assert keys.read() == 0 and not keys.caught
    scanner.press("A")
    assert keys.caught
    assert keys.read() == BITS["A"]
    assert not keys.caught
    assert keys.read() == BITS["A"]  # still held: no new event
    scanner.press("LEFT")
    assert keys.read() == BITS["A"] | BITS["LEFT"]
    scanner.release("A")
    assert keys.read() == BITS["LEFT"]
    scanner.release("LEFT")
    assert keys.read() == 0


def test_a_tap_between_two_reads_counts_once():
    scanner, keys = _keys()
    scanner.press("B")
    scanner.release("B")
    assert keys.caught
    assert keys.read() == BITS["B"]
    assert keys.read() == 0


def test_an_overflowed_queue_starts_again_from_a_scan():
    scanner = Scanner(max_events=2)
    keys = Keys(scanner, keypad.Event())
    for _ in range(3):
        scanner.press("UP")
        scanner.release("UP")
    keys.read()
    assert scanner.resets == 1 and keys.held == 0 and not keys.caught


class Clock:
    """A virtual clock for the device loop (sleep_ms moves it on)."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms


def test_a_keypad_press_moves_the_device_from_the_title(tmp_path):
    board = load_board("pico_ssd1306_i2c")
    oled = Oled("ssd1306", 128, 64)
    scanner = Scanner()
    clock = Clock()
    dev = start(board, FakeI2C(oled), scanner, clock, dice=SeededDice(3),
                store=Store(DirFS(str(tmp_path))), tables=DirFS(str(ROOT / "tables")))
    assert dev is not None
    dev.loop(40)
    assert dev.app.top().name == "title"
    title = oled.frame()
    assert oled.shows(frame_of(dev.display))
    scanner.press("A")
    dev.loop(20)
    scanner.release("A")
    dev.loop(40)
    assert dev.app.top().name != "title"
    assert oled.frame() != title
    assert oled.shows(frame_of(dev.display))

