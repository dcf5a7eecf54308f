"""firmware.device on the fake machine: entropy self-test, dim/sleep/wake,
buzzer, board choice. Runs under CPython and MicroPython."""

# isort: off
from tests.both.helpers import device_rig  # (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
# isort: on

import framebuf  # noqa: E402  (CPython: the stand-in from tests/conftest.py)

from engine.dice import SeededDice  # noqa: E402
from firmware import board as board_mod  # noqa: E402
from firmware import device, sound  # noqa: E402
from firmware.store import Store  # noqa: E402
from tools.fakes.memfs import MemFS  # noqa: E402


def _urandom(n):
    import os

    return os.urandom(n)


def _rig(board_name="pico_ssd1306_i2c"):
    """Fresh fakes with the model on the board's bus; (board, model, clock)."""
    return device_rig(board_name)


def _start(board_name="pico_ssd1306_i2c", entropy=_urandom):
    board, model, clock = _rig(board_name)
    dev = device.start(board, machine, clock, entropy=entropy, dice=SeededDice(5),
                       store=Store(MemFS()), tables=None)
    return board, model, clock, dev


def _press(dev, board, key, frames=4):
    pin = board.BUTTONS[key]
    machine.press(pin)
    dev.loop(frames)
    machine.release(pin)
    dev.loop(frames)


def test_stuck_entropy_is_refused_with_a_message():
    sources = (lambda n: bytes(n), lambda n: b"\x00\xff" * (n // 2), lambda n: b"\x07" * 10,
               lambda n: bytes(range(2)) * (n // 2))
    for source in sources:
        board, model, clock = _rig()
        assert device.run(board, machine, clock, max_steps=10, entropy=source,
                          store=Store(MemFS())) is None
        buf = bytearray(1024)
        expect = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
        for i, line in enumerate(device.STUCK_LINES):
            expect.text(line, 0, 8 * i, 1)
        assert model.frame() == bytes(buf)
        assert model.on
        assert clock.now == 1000  # no loop ran


def test_good_entropy_starts_the_app_on_the_title_screen():
    board, model, clock, dev = _start()
    assert dev is not None and dev.app.top().name == "title"
    dev.loop(3)
    assert dev.shows == 1  # the title frame once, then nothing changed
    assert model.frame() == bytes(dev.display.buffer)
    assert clock.now == 1000 + 3 * device.POLL_MS


def test_buttons_are_pull_up_inputs_read_active_low():
    board, model, clock = _rig("thumby")
    keys = device.Keys(machine, board.BUTTONS)
    assert keys.read() == 0
    machine.press(board.BUTTONS["B"])
    machine.press(board.BUTTONS["UP"])
    assert keys.read() == 32 | 1
    machine.release(board.BUTTONS["UP"])
    assert keys.read() == 32
    for pin in keys.pins:
        assert machine._modes[pin.id] == machine.Pin.IN


def test_dim_sleep_and_wake_resume_exactly():
    board, model, clock, dev = _start()
    dev.dim_after = 1000
    dev.sleep_after = 3000
    _press(dev, board, "A")  # the new-game form
    _press(dev, board, "DOWN")
    _press(dev, board, "RIGHT")  # a target
    state = dev.app.state()
    assert state["screen"] == "setup" and state["index"] == 1
    frame = bytes(dev.display.buffer)
    dev.loop(1000 // device.POLL_MS)
    assert dev.dimmed and model.contrast == device.DIM_CONTRAST and model.on
    dev.loop(2000 // device.POLL_MS)
    assert dev.asleep and not model.on
    app_time = dev.app.now
    slept = len(machine.lightsleeps)
    dev.loop(40)  # two seconds of light sleep
    assert len(machine.lightsleeps) == slept + 40
    assert machine.lightsleeps[-1] == device.SLICE_MS
    assert dev.asleep and dev.app.now == app_time  # the app did not run
    # A press wakes it: display on, bright, the same frame, the press swallowed.
    pin = board.BUTTONS["DOWN"]
    machine.press(pin)
    dev.loop(1)
    assert not dev.asleep and model.on and model.contrast == board_mod.CONTRAST
    assert dev.wakes == 1
    dev.loop(30)  # held well past the debounce, even a long press
    assert dev.app.state() == state
    assert bytes(dev.display.buffer) == frame and model.frame() == frame
    machine.release(pin)
    dev.loop(5)
    assert dev.app.state() == state
    _press(dev, board, "DOWN")  # now presses count again
    assert dev.app.state()["index"] == 2
    assert model.frame() == bytes(dev.display.buffer)


def test_a_press_on_a_dimmed_screen_brightens_and_counts():
    board, model, clock, dev = _start()
    dev.dim_after = 500
    dev.loop(600 // device.POLL_MS)
    assert dev.dimmed and model.contrast == device.DIM_CONTRAST
    _press(dev, board, "DOWN")
    assert not dev.dimmed and model.contrast == board_mod.CONTRAST
    assert dev.app.state()["index"] == 1


def test_released_buttons_do_not_wake_and_a_held_one_needs_a_new_press():
    board, model, clock, dev = _start()
    dev.sleep_after = 400
    pin = board.BUTTONS["B"]
    machine.press(pin)  # held down (a pocket), then the idle time runs out
    dev.loop(600 // device.POLL_MS)
    assert dev.asleep
    dev.loop(10)
    assert dev.asleep  # still held: no wake
    machine.release(pin)
    dev.loop(10)
    assert dev.asleep  # a release does not wake
    machine.press(pin)
    dev.loop(1)
    assert not dev.asleep


def test_buzzer_sounds_through_pwm_only_when_on_and_never_blocks():
    board, model, clock, dev = _start("thumby")
    buzzer = dev.buzzer
    assert buzzer is not None and buzzer.on
    assert machine.pwm_log == []  # no PWM until the first sound
    pin = board.BUZZER
    t = clock.now
    buzzer.click(t)
    assert machine.pwm_log == [(pin, "init", 0), (pin, "freq", 2000), (pin, "duty_u16", 32768)]
    assert clock.now == t and buzzer.playing  # started, not waited for
    buzzer.tick(t + 3)
    assert buzzer.playing
    buzzer.tick(t + 4)
    assert machine.pwm_log[-1] == (pin, "duty_u16", 0) and not buzzer.playing
    del machine.pwm_log[:]
    buzzer.play(((440, 100), (0, 50), (880, 100)), t)
    for ms in range(0, 300, 5):
        buzzer.tick(t + ms)
    assert machine.pwm_log == [(pin, "freq", 440), (pin, "duty_u16", 32768),
                               (pin, "duty_u16", 0), (pin, "duty_u16", 0),
                               (pin, "freq", 880), (pin, "duty_u16", 32768),
                               (pin, "duty_u16", 0)]
    assert not buzzer.playing and clock.now == t
    buzzer.on = False
    del machine.pwm_log[:]
    buzzer.click(t)
    buzzer.play(((440, 100),), t)
    assert machine.pwm_log == [] and not buzzer.playing
    silent = sound.Buzzer(machine, pin, on=False)
    silent.click(t)
    assert machine.pwm_log == []
    assert _start()[3].buzzer is None  # the Pico boards have no buzzer


def test_a_phrase_plays_while_the_loop_goes_on():
    board, model, clock, dev = _start("thumby")
    dev.loop(3)
    t = clock.now
    dev.play("win")
    steps = dev.steps
    dev.loop(10)  # 10 passes of POLL_MS: the phrase (440 ms) is still playing
    assert dev.steps == steps + 10 and clock.now - t < 100 and dev.buzzer.playing
    dev.loop(600 // device.POLL_MS)
    assert not dev.buzzer.playing
    notes = [e[2] for e in machine.pwm_log if e[1] == "freq"]
    assert notes == [n[0] for n in sound.WIN_NOTES]


def test_board_choice_and_main_entry():
    assert board_mod.board_name() == board_mod.DEFAULT_BOARD  # no board.txt here
    assert board_mod.load_board("thumby").WIDTH == 72
    board, model, clock = _rig()
    from firmware import main

    dev = main.main(machine, clock, max_steps=5, entropy=_urandom, dice=SeededDice(1),
                    store=Store(MemFS()), tables=None)
    assert dev.steps == 5 and dev.app.top().name == "title"
    assert model.frame() == bytes(dev.display.buffer)


def test_loop_stops_when_the_hook_says_so():
    board, model, clock, dev = _start()
    seen = []

    def hook(d):
        seen.append(d.steps)
        return d.steps >= 7

    assert dev.loop(100, hook) == 7
    assert seen[-1] == 7


def test_idle_loop_allocates_nothing():
    import gc

    if not hasattr(gc, "mem_alloc"):
        return  # CPython
    board, model, clock, dev = _start()
    dev.loop(5)  # the title is drawn and shown
    dev.loop(100, lambda d: d.app.warming is None)  # and the warm-up is over
    assert dev.app.warming is None
    gc.collect()
    before = gc.mem_alloc()
    dev.loop(200)
    assert gc.mem_alloc() == before, gc.mem_alloc() - before


def test_a_roll_clicks_and_a_farkle_plays_its_phrase():
    board, model, clock, dev = _start("thumby")
    pin = board.BUZZER
    dev.play("roll")
    assert (pin, "freq", 2000) in machine.pwm_log
    del machine.pwm_log[:]
    dev.play("farkle")
    dev.loop(400 // device.POLL_MS)  # the phrase plays on while the loop runs
    assert [e[2] for e in machine.pwm_log if e[1] == "freq"] == [n[0] for n in
                                                                 sound.FARKLE_NOTES]
    del machine.pwm_log[:]
    dev.app.cue = None
    dev.loop(3)  # nothing asked for: silence
    assert machine.pwm_log == []


def test_the_play_screen_asks_for_a_click_when_the_dice_roll():
    from engine.dice import ScriptedDice
    from engine.game import Game
    from engine.rules import preset
    from firmware.screens.play import Play

    board, model, clock, dev = _start("thumby")
    app = dev.app
    game = Game(preset("zehntausend"), ["Anna"], ScriptedDice([1, 2, 3, 4, 6, 6]))
    app.home(Play(app, game))
    dev.loop(3)
    del machine.pwm_log[:]
    _press(dev, board, "A")  # one seat: A rolls at once
    assert game.phase == "keep"
    assert (board.BUZZER, "freq", 2000) in machine.pwm_log
