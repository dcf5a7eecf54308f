"""The board the game runs on: which one, and its display.

`board_name()` is the board chosen at deploy time, `load_board(name)` its
module in boards/ (pins, bus, display: boards are data; a key outside
the board contract is refused), and `make_display(board, machine)` the
display driver on the board's bus, switched to normal contrast. Small on
purpose: the boot imports it first (firmware.splash) to put the title on
the panel before the rest loads.

The board contract (KEYS lists every key; tests/cpython/test_boards.py
checks every board file against it, with types and pin ranges):

- DISPLAY "ssd1306" or "sh1106"; WIDTH, HEIGHT in pixels; BUTTONS a dict
  of the six keys UP DOWN LEFT RIGHT A B to GPIO numbers (to ground);
  BUZZER a GPIO (PWM) or None; VSYS_ADC the GPIO that reads VSYS/3 or None.
- BUS "i2c" (I2C_ID, SDA, SCL, ADDR), "spi" (SPI_ID, SCK, MOSI, CS, DC) or
  "auto": both sets plus ID_PINS, the hardware-id pins (see `hardware_id`).
- Optional: FREQ (the fastest I2C clock the panel takes, in Hz; the bus
  runs as close under it as the chip allows: `i2c_request`), BAUDRATE (SPI
  Hz), RES (reset GPIO on SPI), I2C_RES (reset GPIO on I2C), COLUMN_OFFSET
  (the panel's first RAM column), DISPLAY_INIT (commands sent after the driver's init sequence),
  CONTRAST_MAX (the panel's brightest contrast: brightness 0..255 is scaled
  to 0..CONTRAST_MAX).
- Optional, read by the CircuitPython host only (circuitpy/): DIE_KEYS
  (a key per die, GPIOs), ENCODER (a rotary encoder's A, B and push-switch
  GPIOs), PIXELS (the data GPIO of a NeoPixel chain, one under each key
  in the board's key order: circuitpy.lights), SPEAKER_ENABLE (a GPIO
  driven high to switch the speaker's amplifier on).
"""

from firmware.files import CONTRAST

DEFAULT_BOARD = "pico_ssd1306_i2c"

# Every key a board module may define (the contract: see the module docstring).
KEYS = ("DISPLAY", "BUS", "WIDTH", "HEIGHT", "BUTTONS", "BUZZER", "VSYS_ADC", "I2C_ID", "SDA",
        "SCL", "ADDR", "SPI_ID", "SCK", "MOSI", "CS", "DC", "ID_PINS", "FREQ", "BAUDRATE", "RES",
        "I2C_RES", "COLUMN_OFFSET", "DISPLAY_INIT", "CONTRAST_MAX", "DIE_KEYS", "ENCODER",
        "PIXELS", "SPEAKER_ENABLE")


def board_name():
    """The board module chosen at deploy time: `board_choice.BOARD`, else
    the first line of `board.txt`, else DEFAULT_BOARD."""
    try:
        # An optional module on the board, never in the repository:
        import board_choice  # pyright: ignore[reportMissingImports]

        return board_choice.BOARD
    except ImportError:
        pass
    try:
        with open("board.txt") as f:
            name = f.read().strip()
        if name:
            return name
    except OSError:
        pass
    return DEFAULT_BOARD


def load_board(name=None):
    """The module `boards.<name>` (default: `board_name()`); ValueError
    when it defines a key the board contract does not know."""
    name = name or board_name()
    __import__("boards." + name)
    import boards

    board = getattr(boards, name)
    # A misspelt key would otherwise be ignored without a word. (The module's
    # own dict, not dir(board): a list made at boot costs the game heap.)
    for key in board.__dict__:
        if key[0] != "_" and key not in KEYS:
            raise ValueError("boards/%s.py: unknown key %s (see firmware/board.py)" % (name, key))
    return board


def hardware_id(board, machine):
    """The hardware id on the board's ID_PINS, read the way TinyCircuits'
    Thumby library reads it: each pin as an input with its pull-up, a pin
    that reads low sets its bit (the first pin bit 0, the next bit 1, ...),
    then the pin is left pulled down, so no current flows through the
    pull-up into a pin that is tied low. A Thumby with id 0 has its display
    on I2C, any other id on SPI."""
    Pin = machine.Pin
    hwid = 0
    bit = 1
    for pin in board.ID_PINS:
        p = Pin(pin, Pin.IN, Pin.PULL_UP)
        if not p.value():
            hwid |= bit
        p.init(Pin.IN, Pin.PULL_DOWN)
        bit <<= 1
    return hwid


def i2c_request(limit, cpu_hz):
    """The `freq` to ask `machine.I2C` for so that SCL runs as fast as it
    can without passing `limit` Hz on an RP2040 clocked at `cpu_hz`.

    The chip's I2C block (pico-sdk `i2c_set_baudrate`) makes an SCL period
    of p = round(cpu_hz / freq) system clocks, 3/5 of it low, and adds a
    spike filter and 8 clocks of its own (high: HCNT + SPKLEN + 7, low:
    LCNT + 1): asked for 400 kHz at 125 MHz it runs at 376.5 kHz, 6% of
    every frame's transfer lost. Here p is the shortest period whose real
    length still keeps SCL at or under `limit` (asked 425 kHz: 399.4 kHz)."""
    need = (cpu_hz + limit - 1) // limit  # the fewest clocks an SCL period may last
    p = need
    while p > 24:
        q = p - 1
        lcnt = q * 3 // 5
        if q + (1 if lcnt < 16 else lcnt // 16) + 8 < need:
            break
        p = q
    return cpu_hz // p


def make_display(board, machine):
    """The display driver of `board` on its bus (I2C or SPI; the Thumby's
    `BUS = "auto"` asks `hardware_id`: 0 means I2C, any other id SPI)."""
    from firmware import display

    bus = board.BUS
    if bus == "auto":
        bus = "spi" if hardware_id(board, machine) else "i2c"
    if bus == "spi":
        Pin = machine.Pin
        spi = machine.SPI(board.SPI_ID, baudrate=getattr(board, "BAUDRATE", 10000000),
                          sck=Pin(board.SCK), mosi=Pin(board.MOSI))
        link = display.SPIBus(spi, Pin(board.DC), Pin(board.CS),
                              Pin(board.RES) if getattr(board, "RES", None) is not None
                              else None)
    else:
        freq = getattr(board, "FREQ", 400000)
        cpu = getattr(machine, "freq", None)
        if cpu is not None:
            freq = i2c_request(freq, cpu())
        i2c = machine.I2C(board.I2C_ID, scl=machine.Pin(board.SCL), sda=machine.Pin(board.SDA),
                          freq=freq)
        res = getattr(board, "I2C_RES", None)
        link = display.I2CBus(i2c, board.ADDR, machine.Pin(res) if res is not None else None)
    kind = display.SH1106 if board.DISPLAY == "sh1106" else display.SSD1306
    offset = getattr(board, "COLUMN_OFFSET", 2 if board.DISPLAY == "sh1106" else 0)
    oled = kind(link, board.WIDTH, board.HEIGHT, offset, getattr(board, "DISPLAY_INIT", ()))
    cmax = getattr(board, "CONTRAST_MAX", None)
    if cmax is not None:  # (else the class's 255: no attribute of its own)
        oled.contrast_max = cmax
    oled.contrast(CONTRAST)
    return oled
