"""The I2C clock the display's bus is asked for: on the RP2040 the SDK's
divider and the I2C block's own cycles make SCL slower than asked, so
firmware.board.i2c_request asks for the frequency that gives the fastest
SCL at or under the panel's limit. Checked against the chip's timing
(pico-sdk i2c_set_baudrate, high HCNT + SPKLEN + 7 clocks, low LCNT + 1).
Runs under CPython and MicroPython.
"""

# isort: off
from tests.both import helpers  # noqa: F401  (first: it puts the fakes on sys.path)
import machine  # (tools/fakes/machine.py)
import oled  # (tools/fakes/oled.py)
# isort: on

from firmware import board as board_mod  # noqa: E402


def _scl(asked, cpu):
    """(SCL Hz, clocks high, clocks low) of the RP2040 asked for `asked` Hz."""
    period = (cpu + asked // 2) // asked
    lcnt = period * 3 // 5
    hcnt = period - lcnt
    spklen = 1 if lcnt < 16 else lcnt // 16
    high = hcnt + spklen + 7
    low = lcnt + 1
    return cpu / (high + low), high, low


def test_the_request_gives_the_fastest_clock_within_the_limit():
    for limit in (100_000, 400_000, 1_000_000):
        for cpu in (48_000_000, 125_000_000, 133_000_000, 150_000_000):
            asked = board_mod.i2c_request(limit, cpu)
            scl, high, low = _scl(asked, cpu)
            assert scl <= limit, (limit, cpu, asked, scl)
            period = (cpu + asked // 2) // asked
            faster = _scl(cpu // (period - 1), cpu)[0]  # one clock shorter
            assert faster > limit, (limit, cpu, asked, faster)
            # the bus spec's shortest low and high phases (fast mode, fast mode plus)
            min_low, min_high = (1.3e-6, 0.6e-6) if limit <= 400_000 else (0.5e-6, 0.26e-6)
            assert low / cpu >= min_low - 1e-9 and high / cpu >= min_high, (limit, cpu)


def test_at_125_mhz_the_default_board_runs_at_just_under_400_khz():
    asked = board_mod.i2c_request(400_000, 125_000_000)
    assert 399_000 < _scl(asked, 125_000_000)[0] <= 400_000
    assert _scl(400_000, 125_000_000)[0] < 377_000  # what asking for 400 kHz gives


def test_make_display_asks_for_the_boards_limit_at_the_chips_clock():
    machine.reset_fakes()
    machine.freq(125_000_000)
    asked = []
    real = machine.I2C

    class Spy(real):
        def __init__(self, *args, **kw):
            asked.append(kw.get("freq"))
            super().__init__(*args, **kw)

    board = board_mod.load_board("pico_ssd1306_i2c")
    oled.Oled("ssd1306").attach(machine, "i2c", board.I2C_ID, board.ADDR)
    machine.I2C = Spy
    try:
        board_mod.make_display(board, machine)
    finally:
        machine.I2C = real
    assert asked == [board_mod.i2c_request(400_000, 125_000_000)]
