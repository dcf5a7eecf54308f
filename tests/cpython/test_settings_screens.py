"""Settings through the headless simulator: changed by key presses, kept
after a restart, applied by the device loop (contrast, sleep, sound), the
dice style drawn, the pace used by the play screen."""

import sys
from pathlib import Path

from engine.dice import ScriptedDice, SeededDice
from engine.game import Game
from engine.rules import preset
from firmware import strings
from firmware.screens.play import ROLL_ANIM_MS, Play
from firmware.screens.settings import CONTRASTS, SLEEPS
from firmware.store import Store
from simulator.host import Sim
from tests.cpython.simdriver import press
from tests.cpython.test_pad_screens import title_to
from tools.fakes.memfs import MemFS

FAKES = str(Path(__file__).resolve().parents[2] / "tools" / "fakes")
if FAKES not in sys.path:
    sys.path.insert(0, FAKES)


def row(sim, key):
    """Highlight the settings row whose label starts like `key`'s text."""
    labels = sim.app.top().labels(sim.app)
    text = sim.app.t(key).split("%")[0]
    target = [i for i, s in enumerate(labels) if s.startswith(text)]
    assert target, (key, labels)
    while sim.state()["index"] != target[0]:
        press(sim, "DOWN")


def test_settings_are_kept_after_a_restart(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1)
    title_to(sim, "settings_title")
    assert sim.state()["screen"] == "settings"
    labels = sim.app.top().labels(sim.app)
    assert labels[0] == "Sprache: Deutsch"
    assert not any(s.startswith("Ton") for s in labels)  # no buzzer on this board
    press(sim, "RIGHT")  # English
    assert sim.app.lang == "en" and sim.app.top().labels(sim.app)[0] == "Language: English"
    row(sim, "set_contrast")
    press(sim, "LEFT", "LEFT")
    row(sim, "set_sleep")
    press(sim, "RIGHT", "RIGHT")
    row(sim, "set_dice")
    press(sim, "A", "A")
    row(sim, "set_speed")
    press(sim, "RIGHT")
    row(sim, "set_tips")
    press(sim, "A")
    expect = {"lang": "en", "contrast": CONTRASTS[1], "sleep": SLEEPS[4], "dice": 2,
              "speed": 2, "tips": True, "sound": True}
    for key, value in expect.items():
        assert sim.app.session.settings[key] == value, key
    assert sim.app.settings_version == 9  # one bump per change
    press(sim, "B")
    assert sim.state()["screen"] == "title"
    assert sim.app.top().labels(sim.app)[0] == strings.text("en", "new_game")

    again = Sim("pico_ssd1306_i2c", str(tmp_path), 2)  # switched off and on
    for key, value in expect.items():
        assert again.app.session.settings[key] == value, key
    assert again.app.lang == "en" and again.app.session.settings["dice"] == 2
    title_to(again, "settings_title")
    labels = again.app.top().labels(again.app)
    assert labels[:5] == ["Language: English", "Contrast: 2/5", "Sleep: 10 min", "Dice: digits",
                          "Pace: fast"]
    assert labels[-2:] == ["Tips: on", "Ask first: on"]


def test_sound_row_on_a_board_with_a_buzzer(tmp_path):
    sim = Sim("thumby", str(tmp_path), 1)
    title_to(sim, "settings_title")
    row(sim, "set_sound")
    assert sim.app.top().labels(sim.app)[sim.state()["index"]] == "Ton: an"
    press(sim, "A")
    assert sim.app.session.settings["sound"] is False
    sim.png(str(tmp_path / "settings.png"))
    again = Sim("thumby", str(tmp_path), 2)
    assert again.app.session.settings["sound"] is False


def test_sleep_never_and_a_foreign_value(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1)
    sim.app.session.settings["sleep"] = 100  # not an option: the nearest one is shown
    title_to(sim, "settings_title")
    row(sim, "set_sleep")
    label = sim.app.top().labels(sim.app)[sim.state()["index"]]
    assert label == "Schlaf: 2 min"
    press(sim, *["RIGHT"] * 3)
    assert sim.app.session.settings["sleep"] == 0
    assert sim.app.top().labels(sim.app)[sim.state()["index"]] == "Schlaf: nie"


def _die_pixels(style, tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path / str(style)), 1)
    sim.app.session.settings["dice"] = style
    game = Game(preset("zehntausend"), ["Anna"], ScriptedDice([1, 2, 3, 4, 5, 6]))
    game.apply(("roll",))
    sim.app.home(Play(sim.app, game))
    sim.run(1000)
    return "".join(sim.rows())


def test_dice_styles_draw_differently(tmp_path):
    pictures = [_die_pixels(style, tmp_path) for style in (0, 1, 2)]
    assert len(set(pictures)) == 3


def test_pace_sets_the_roll_animation(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1)
    game = Game(preset("zehntausend"), ["Anna"], SeededDice(3))
    for speed in (0, 1, 2):
        sim.app.session.settings["speed"] = speed
        play = Play(sim.app, game)
        sim.app.home(play)
        play._apply(sim.app, [("roll",)])
        assert play.anim.at - sim.app.now == ROLL_ANIM_MS[speed]
        game = Game(preset("zehntausend"), ["Anna"], SeededDice(3))


def test_the_device_loop_applies_contrast_sleep_and_sound():
    import machine  # tools/fakes/machine.py
    import oled  # tools/fakes/oled.py

    from firmware import board as board_mod
    from firmware import device

    machine.reset_fakes()
    board = board_mod.load_board("thumby")
    model = oled.Oled(board.DISPLAY, board.WIDTH, board.HEIGHT,
                      getattr(board, "COLUMN_OFFSET", None))
    for pin in board.ID_PINS:
        machine.level(pin, 0)
    model.attach(machine, "spi", board.SPI_ID, dc=board.DC, cs=board.CS)
    clock = machine.Clock(1000)
    machine.use_clock(clock)
    fs = MemFS()
    store = Store(fs)
    dev = device.start(board, machine, clock, entropy=lambda n: bytes(range(n)),
                       dice=SeededDice(5), store=store, tables=None)
    assert dev.contrast == board_mod.CONTRAST and dev.sleep_after == device.SLEEP_MS
    assert dev.app.has_sound and dev.buzzer.on

    def tap(key):
        pin = board.BUTTONS[key]
        machine.press(pin)
        dev.loop(4)
        machine.release(pin)
        dev.loop(4)

    app = dev.app
    while app.top().labels(app)[app.top().index] != app.t("settings_title"):
        tap("DOWN")
    tap("A")
    tap("DOWN")  # contrast
    tap("RIGHT")  # 5/5
    brightest = board.CONTRAST_MAX  # the Thumby's 0..255 is sent as 0..0x7F
    assert dev.contrast == 0xFF and model.contrast == brightest
    tap("DOWN")  # sleep
    tap("LEFT")  # 1 min
    assert dev.sleep_after == 60000 and dev.dim_after == 30000
    tap("LEFT")  # 30 s: dims after 15 s
    assert dev.sleep_after == 30000 and dev.dim_after == 15000
    for _ in range(3):
        tap("DOWN")  # dice, pace, sound
    tap("A")
    assert not dev.buzzer.on
    # a new start reads them from the settings file
    machine.reset_fakes()
    model = oled.Oled(board.DISPLAY, board.WIDTH, board.HEIGHT,
                      getattr(board, "COLUMN_OFFSET", None))
    for pin in board.ID_PINS:
        machine.level(pin, 0)
    model.attach(machine, "spi", board.SPI_ID, dc=board.DC, cs=board.CS)
    machine.use_clock(clock)
    dev2 = device.start(board, machine, clock, entropy=lambda n: bytes(range(n)),
                        dice=SeededDice(5), store=Store(fs), tables=None)
    assert dev2.contrast == 0xFF and model.contrast == brightest
    assert dev2.sleep_after == 30000 and not dev2.buzzer.on
    # dimmed, then woken: back to the chosen contrast
    dev2.loop(16000 // device.POLL_MS)
    assert dev2.dimmed and model.contrast == device.DIM_CONTRAST * brightest // 255
    pin = board.BUTTONS["B"]
    machine.press(pin)
    dev2.loop(2)
    machine.release(pin)
    dev2.loop(2)
    assert not dev2.dimmed and model.contrast == brightest


def test_a_host_without_a_panel_offers_no_contrast_or_sleep(tmp_path):
    """The browser page (web/webhost.py) has no panel to dim or put to sleep."""
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 1)
    sim.app.has_panel = False
    title_to(sim, "settings_title")
    labels = sim.app.top().labels(sim.app)
    for key in ("set_contrast", "set_sleep"):
        assert not any(s.startswith(sim.app.t(key).split("%")[0]) for s in labels), labels
    row(sim, "set_speed")
    press(sim, "RIGHT")
    assert sim.app.session.settings["speed"] == 2
    assert len(labels) == 5  # language, dice, pace, tips, ask first
