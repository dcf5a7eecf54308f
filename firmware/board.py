"""The board the game runs on: which one, and its display.

`board_name()` is the board chosen at deploy time, `load_board(name)` its
module in boards/ (pins, bus, display: boards are data), and
`make_display(board, machine)` the display driver on the board's bus,
switched to normal contrast. Small on purpose: the boot imports it first
(firmware.splash) to put the title on the panel before the rest loads.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        """Return `x` (CPython stand-in for micropython.const)."""
        return x


DEFAULT_BOARD = "pico_ssd1306_i2c"
CONTRAST = const(0xCF)  # normal brightness


def board_name():
    """The board module chosen at deploy time: `board_choice.BOARD`, else
    the first line of `board.txt`, else DEFAULT_BOARD."""
    try:
        import board_choice

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
    """The module `boards.<name>` (default: `board_name()`)."""
    name = name or board_name()
    __import__("boards." + name)
    import boards

    return getattr(boards, name)


def make_display(board, machine):
    """The display driver of `board` on its bus (I2C or SPI; the Thumby's
    `BUS = "auto"` asks its hardware-id pins: any pin low means SPI)."""
    from firmware import display

    bus = board.BUS
    if bus == "auto":
        bus = "i2c"
        for pin in board.ID_PINS:
            if not machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP).value():
                bus = "spi"
    if bus == "spi":
        Pin = machine.Pin
        spi = machine.SPI(board.SPI_ID, baudrate=getattr(board, "BAUDRATE", 10000000),
                          sck=Pin(board.SCK), mosi=Pin(board.MOSI))
        link = display.SPIBus(spi, Pin(board.DC), Pin(board.CS),
                              Pin(board.RES) if getattr(board, "RES", None) is not None
                              else None)
    else:
        i2c = machine.I2C(board.I2C_ID, scl=machine.Pin(board.SCL), sda=machine.Pin(board.SDA),
                          freq=getattr(board, "FREQ", 400000))
        link = display.I2CBus(i2c, board.ADDR)
    kind = display.SH1106 if board.DISPLAY == "sh1106" else display.SSD1306
    offset = getattr(board, "COLUMN_OFFSET", 2 if board.DISPLAY == "sh1106" else 0)
    oled = kind(link, board.WIDTH, board.HEIGHT, offset, getattr(board, "DISPLAY_INIT", ()))
    oled.contrast(CONTRAST)
    return oled
