"""The MacroPad RP2040 on CircuitPython: its keys, encoder, key lights and speaker.

The device of circuitpy.host on boards/macropad_rp2040.py with fakes: the
SH1106 on a fake SPI bus into the OLED model, a scanner recording what
`keypad.Keys` would (Blinka's real EventQueue) for the six buttons, the
encoder's switch and the six die keys, an encoder whose `position` the
test turns, the NeoPixel bytes the lights write, and a `machine` whose
PWM records the speaker's notes.
"""

import keypad

from circuitpy.host import start
from circuitpy.keys import Keys
from circuitpy.lights import DIM, PICKED, Lights, pixel_map
from engine.dice import SeededDice
from firmware.board import load_board
from firmware.buttons import BITS, NAMES
from firmware.store import DirFS, Store
from simulator.host import ROOT
from tests.cpython.circuitpy_fakes import frame_of, spi_panel
from tools.mp.app_run import Policy

BOARD = load_board("macropad_rp2040")
SWITCH = len(NAMES)  # the scanner's key number of the encoder's switch
FIRST_DIE = SWITCH + 1


class Scanner:
    """keypad.Keys after a scan: its `events`; `press`/`release` a key number."""

    def __init__(self):
        self.events = keypad.EventQueue(64)

    def press(self, n):
        self.events.keypad_eventqueue_record(n, True)

    def release(self, n):
        self.events.keypad_eventqueue_record(n, False)

    def reset(self):
        pass


class Encoder:
    """rotaryio.IncrementalEncoder: `position`, one count a detent."""

    def __init__(self):
        self.position = 0


class Clock:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        self.now += ms


class Machine:
    """circuitpy.power.Machine's shape; PWM records (hz, duty) changes."""

    def __init__(self):
        self.notes = []
        machine = self

        class PWM:
            def __init__(self, gpio):
                machine.gpio = gpio

            def freq(self, hz):
                machine.notes.append(hz)

            def duty_u16(self, value):
                pass

        self.PWM = PWM

    @staticmethod
    def Pin(gpio):  # noqa: N802
        return gpio

    def lightsleep(self, ms):
        pass


class Rig:
    """The MacroPad device on the fakes."""

    def __init__(self, tmp_path, monkeypatch, seed=7):
        self.oled, spi, self.wires = spi_panel(BOARD, monkeypatch)
        self.scanner = Scanner()
        self.encoder = Encoder()
        self.written = []
        self.lights = Lights(lambda buf: self.written.append(bytes(buf)), pixel_map(BOARD))
        self.machine = Machine()
        self.clock = Clock()
        self.dev = start(BOARD, spi=spi, scanner=self.scanner, clock=self.clock,
                         encoder=self.encoder, lights=self.lights, machine=self.machine,
                         dice=SeededDice(seed), store=Store(DirFS(str(tmp_path))),
                         tables=DirFS(str(ROOT / "tables")), watchdog=False)
        assert self.dev is not None

    def loop(self, steps):
        """The device loop as circuitpy.host.run runs it (lights before each step)."""
        lights = self.lights
        self.dev.loop(steps, lambda dev: lights.update(dev.app) and False)

    def tap(self, n):
        """Press and let go key `n`; loop on till a tap of it is done
        (circuitpy.taps.TAP_MS held, as long let go)."""
        self.scanner.press(n)
        self.loop(3)
        self.scanner.release(n)
        self.loop(20)

    def top(self):
        return self.dev.app.top()

    def to_my_pick(self):
        """Play by the scripted policy until the person picks dice from a
        roll on the play screen."""
        policy = Policy("profi")
        for _ in range(4000):
            top = self.top()
            if top.name == "play" and top.game.phase == "keep" and top.person_to_move() \
                    and not any(top.sel):
                self.loop(40)  # the roll's animation ends
                return self.top()
            key = policy.key(self.dev.app)
            if key is None:
                self.loop(1)
            else:
                self.tap(NAMES.index(_name(key)))
        raise AssertionError("never reached a pick")


def _name(bit):
    for name, b in BITS.items():
        if b == bit:
            return name
    raise KeyError(bit)


def test_the_key_map_six_buttons_then_the_dice_and_the_lights_under_them():
    assert BOARD.BUTTONS == {"B": 1, "UP": 2, "A": 3, "LEFT": 4, "DOWN": 5, "RIGHT": 6}
    assert BOARD.DIE_KEYS == (7, 8, 9, 10, 11, 12)
    assert pixel_map(BOARD) == (12, (6, 7, 8, 9, 10, 11))  # KEY7..KEY12's pixels


def test_a_die_key_picks_and_drops_its_die_and_lights_its_key(tmp_path, monkeypatch):
    rig = Rig(tmp_path, monkeypatch)
    play = rig.to_my_pick()
    roll = play.game.roll
    die = next(i for i, d in enumerate(roll) if d in (1, 5))  # a die that scores alone
    rig.tap(FIRST_DIE + die)
    play = rig.top()
    assert play.sel[die] and sum(play.sel) == 1 and play.cursor == die
    shown = rig.written[-1]
    for i in range(len(roll)):
        at = 3 * (6 + i)
        assert tuple(shown[at:at + 3]) == (PICKED if i == die else DIM), i
    assert shown[:18] == bytes(18)  # the six buttons' keys stay dark
    assert rig.oled.shows(frame_of(rig.dev.display))
    rig.tap(FIRST_DIE + die)  # again: dropped
    assert not any(rig.top().sel)
    assert tuple(rig.written[-1][3 * (6 + die):3 * (6 + die) + 3]) == DIM


def test_two_die_keys_hit_together_pick_two_dice(tmp_path, monkeypatch):
    rig = Rig(tmp_path, monkeypatch)
    play = rig.to_my_pick()
    roll = play.game.roll
    scoring = [i for i, d in enumerate(roll) if d in (1, 5)]
    if len(scoring) < 2:
        scoring = [0, 1]
    for i in scoring[:2]:
        rig.scanner.press(FIRST_DIE + i)
    rig.loop(8)
    for i in scoring[:2]:
        rig.scanner.release(FIRST_DIE + i)
    rig.loop(20)  # the second tap follows the first (circuitpy.taps.TAP_MS)
    assert [i for i, s in enumerate(rig.top().sel) if s] == sorted(scoring[:2])


def test_a_die_key_off_the_pick_does_nothing(tmp_path, monkeypatch):
    rig = Rig(tmp_path, monkeypatch)
    rig.loop(30)
    assert rig.top().name == "title"
    index = rig.top().index
    rig.tap(FIRST_DIE + 2)
    rig.loop(10)
    assert rig.top().name == "title" and rig.top().index == index
    assert rig.written[-1] == bytes(36)  # all dark off the play screen


def test_the_encoder_turns_like_up_and_down_and_its_switch_is_a(tmp_path, monkeypatch):
    rig = Rig(tmp_path, monkeypatch)
    rig.loop(30)
    title = rig.top()
    assert title.name == "title" and title.index == 0
    rig.encoder.position += 3  # three detents clockwise: three DOWNs, 60 ms apart
    rig.loop(40)
    assert rig.top().index == 3 % len(title.labels(rig.dev.app))
    rig.encoder.position -= 1  # one back: UP
    rig.loop(20)
    assert rig.top().index == 2 % len(title.labels(rig.dev.app))
    rig.encoder.position -= 2
    rig.loop(30)
    assert rig.top().index == 0  # "new game"
    rig.tap(SWITCH)  # the push: A
    assert rig.top().name == "setup"


def test_the_speaker_plays_the_devices_sounds(tmp_path, monkeypatch):
    """The roll's click through machine.PWM on the board's BUZZER, with the
    amplifier switched on (SPEAKER_ENABLE high)."""
    rig = Rig(tmp_path, monkeypatch)
    assert rig.wires.pin_level(BOARD.SPEAKER_ENABLE) == 1
    assert rig.dev.app.has_sound
    rig.to_my_pick()
    assert rig.machine.gpio == BOARD.BUZZER
    assert 2000 in rig.machine.notes  # firmware.sound.CLICK on the roll


def test_keys_without_extras_read_as_before():
    scanner = Scanner()
    keys = Keys(scanner, keypad.Event())
    scanner.press(NAMES.index("A"))
    assert keys.read() == BITS["A"]
    scanner.press(6)  # no such key on a board without extras: ignored
    assert keys.read() == BITS["A"]



def test_the_lights_write_through_neopixel_write_on_the_boards_pixel_pin(monkeypatch):
    """make_lights on the MacroPad: digitalio on PIXELS (GPIO 19) as an
    output, neopixel_write with 36 bytes (12 pixels, G R B)."""
    import sys

    import circuitpy.pins
    from circuitpy.lights import make_lights
    from tests.cpython.circuitpy_fakes import Wires, fake_digitalio

    sent = []

    class NeopixelWrite:
        @staticmethod
        def neopixel_write(pin, buf):
            sent.append((pin.pin, pin.direction, bytes(buf)))

    monkeypatch.setitem(sys.modules, "digitalio", fake_digitalio(Wires()))
    monkeypatch.setitem(sys.modules, "neopixel_write", NeopixelWrite)
    monkeypatch.setattr(circuitpy.pins, "pin", lambda n: n)
    lights = make_lights(BOARD)
    assert lights is not None

    class Title:
        name = "title"

    class App:
        def top(self):
            return Title()

    lights.update(App())
    lights.update(App())  # nothing changed: nothing sent
    assert sent == [(19, "out", bytes(36))]
    assert make_lights(load_board("pico_ssd1306_i2c")) is None


def test_the_buzzer_pwm_sets_pwmio_frequency_and_duty():
    from circuitpy.power import Machine

    made = []

    class PWMOut:
        def __init__(self, pin, frequency, duty_cycle, variable_frequency):
            made.append((pin, frequency, duty_cycle, variable_frequency))

    class Pwmio:
        pass

    Pwmio.PWMOut = PWMOut
    pwm = Machine.PWM(Machine.Pin(16), pwmio=Pwmio, pin=lambda n: "GP%d" % n)
    pwm.freq(523)
    pwm.duty_u16(32768)
    assert made == [("GP16", 440, 0, True)]
    assert pwm.out.frequency == 523 and pwm.out.duty_cycle == 32768
