"""The CircuitPython host draws what the simulator draws, pixel for pixel.

`Twin` is the simulator with a second app beside it: the same board,
seed, tables and presses, drawn by circuitpy.canvas into a
`displayio.Bitmap` (Blinka's displayio under CPython) and sent by
adafruit_displayio_ssd1306 or adafruit_displayio_sh1106 over a fake I2C
or SPI bus into the OLED model of tools/fakes/oled.py (the Pico's SSD1306
on I2C, the MacroPad's SH1106 and the Thumby's 72x40 SSD1306 on SPI).
After every step that drew a frame, the panel's picture must equal the
simulator's frame buffer; a step that draws on one side and not on the
other fails too.
"""

from circuitpy.host import make_display
from engine.dice import SeededDice
from firmware.app import make_app
from firmware.board import load_board
from firmware.store import DirFS, Store
from simulator.host import ROOT, Sim
from tests.cpython.circuitpy_fakes import FakeI2C, spi_panel
from tests.cpython.simdriver import new_game, play_to_end
from tools.fakes.oled import Oled


class Twin(Sim):
    """See the module docstring; `screens` maps each screen name seen to
    the frames compared on it, `compared` counts them all."""

    def __init__(self, board, tmp_path, seed, monkeypatch=None):
        profile = load_board(board)
        if profile.BUS == "i2c":
            self.oled = Oled(profile.DISPLAY, profile.WIDTH, profile.HEIGHT)
            self.bus = FakeI2C(self.oled, profile.ADDR)
            self.panel = make_display(profile, self.bus)
        else:  # SPI (the Thumby's "auto" too: see circuitpy.host)
            self.oled, self.bus, self.wires = spi_panel(profile, monkeypatch)
            self.panel = make_display(profile, spi=self.bus)
        cpy_dir = tmp_path / "cpy"
        cpy_dir.mkdir()
        self.cpy = make_app(profile, self.panel, Store(DirFS(str(cpy_dir))), SeededDice(seed),
                            DirFS(str(ROOT / "tables")), 0)
        self.panel.show()
        self.compared = 0
        self.screens = {}
        Sim.__init__(self, board, str(tmp_path / "sim"), seed)

    def step_at(self, now, held):
        drew = Sim.step_at(self, now, held)
        cpy_drew = self.cpy.step(now, held)
        assert bool(drew) == bool(cpy_drew), "one side drew at %d ms, the other not" % now
        if cpy_drew:
            self.panel.show()
            name = self.state()["screen"]
            assert self.oled.shows(self.buf), "screen %s differs at %d ms:\n%s\n--- sim:\n%s" % (
                name, now, "\n".join(self.oled.rows()), "\n".join(self.rows()))
            self.compared += 1
            self.screens[name] = self.screens.get(name, 0) + 1
        return drew


def test_the_panel_is_set_up_upright_and_on(tmp_path):
    twin = Twin("pico_ssd1306_i2c", tmp_path, 1)
    assert twin.oled.on and twin.oled.upright()
    assert twin.oled.shows(twin.buf)  # the title, sent once at the start


def test_title_new_game_and_play_equal_the_simulator(tmp_path):
    twin = Twin("pico_ssd1306_i2c", tmp_path, 7)
    new_game(twin, "zehntausend", ["", "profi"])
    state, _ = play_to_end(twin)
    assert state["screen"] == "winner"
    seen = set(twin.screens)
    assert {"title", "play", "winner"} <= seen, seen
    assert len(seen) >= 4, seen  # the new game's screens between them
    assert twin.compared >= 50, twin.compared


def test_the_macropad_sh1106_on_spi_is_upright_and_equals_the_simulator(tmp_path, monkeypatch):
    """The MacroPad: adafruit_displayio_sh1106 over FourWire into the SH1106
    model (which passes over the 0x20 0x20 of the driver's init, as the
    chip does), 128 of its 132 columns from column 2."""
    twin = Twin("macropad_rp2040", tmp_path, 7, monkeypatch)
    assert twin.oled.kind == "sh1106" and twin.oled.col_offset == 2
    assert twin.oled.on and twin.oled.remap and twin.oled.com_flip and twin.oled.mux == 63
    assert twin.oled.ignored == [0x20, 0x20]
    assert twin.oled.shows(twin.buf)
    new_game(twin, "zehntausend", ["", "profi"])
    state, _ = play_to_end(twin)
    assert state["screen"] == "winner"
    assert {"title", "play", "winner"} <= set(twin.screens)
    assert twin.compared >= 50, twin.compared


def test_the_thumby_72x40_on_spi_equals_the_simulator(tmp_path, monkeypatch):
    """The Thumby under CircuitPython: its 72x40 SSD1306 on SPI (as
    CircuitPython's board definition wires it), columns 28..99, the extra
    set-up commands of DISPLAY_INIT sent after the driver's."""
    twin = Twin("thumby", tmp_path, 5, monkeypatch)
    assert twin.oled.on and twin.oled.upright() and twin.oled.col_offset == 28
    assert twin.oled.shows(twin.buf)
    new_game(twin, "zehntausend", ["", "profi"])
    state, _ = play_to_end(twin)
    assert state["screen"] == "winner"
    assert twin.compared >= 50, twin.compared
