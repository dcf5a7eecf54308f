"""The board set up on CircuitPython: the panel, from the board's boards/ data.

Boards stay data: the same boards/NAME.py a MicroPython device reads
(GPIO numbers) names the pins here as `board.GP<n>`. `make_display(board,
i2c=None)` gives the app's canvas (circuitpy.canvas.BitmapCanvas) on an
`adafruit_displayio_ssd1306.SSD1306` over `i2cdisplaybus.I2CDisplayBus`;
`i2c` is a `busio.I2C` (made from SDA, SCL and FREQ when None; tests
hand in a fake bus whose bytes feed tools/fakes/oled.py).

Only SSD1306 boards on I2C so far: adafruit_displayio_sh1106 and SPI
(`fourwire.FourWire`) are not wired up yet.
"""

from circuitpy.canvas import BitmapCanvas


def pin(n):
    """The CircuitPython pin object of GPIO `n` (`board.GP<n>`)."""
    import board as cpboard  # (CircuitPython's board module, not the game's boards/)

    return getattr(cpboard, "GP%d" % n)


def make_display(board, i2c=None, contrast=None):
    """The canvas on the board's panel (see the module docstring); ValueError
    for a panel or bus this host does not drive yet."""
    if board.DISPLAY != "ssd1306" or board.BUS != "i2c":
        raise ValueError("CircuitPython host: only SSD1306 on I2C so far, not %s on %s"
                         % (board.DISPLAY, board.BUS))
    import displayio
    import i2cdisplaybus
    from adafruit_displayio_ssd1306 import SSD1306

    displayio.release_displays()
    if i2c is None:
        import busio

        i2c = busio.I2C(pin(board.SCL), pin(board.SDA),
                        frequency=getattr(board, "FREQ", 400000))
    bus = i2cdisplaybus.I2CDisplayBus(i2c, device_address=board.ADDR)
    # auto_refresh off: the device loop sends a frame when the app drew one.
    panel = SSD1306(bus, width=board.WIDTH, height=board.HEIGHT, auto_refresh=False)
    canvas = BitmapCanvas(panel, board.WIDTH, board.HEIGHT,
                          getattr(board, "CONTRAST_MAX", 255))
    if contrast is None:
        from firmware.files import CONTRAST

        contrast = CONTRAST
    canvas.contrast(contrast)
    return canvas


def start(board, i2c=None, scanner=None, clock=None, **options):
    """The device (firmware.device.start) on CircuitPython's modules: the
    canvas on the panel, the keys from `keypad` (`scanner`: a keypad.Keys,
    made from the board's BUTTONS when None), the clock from `supervisor`
    (`clock`: circuitpy.clock when None), dice from `os.urandom`, saves in
    /data of the CIRCUITPY drive (writable only as circuitpy/boot.py
    leaves it). `options` go on to firmware.device.start (tests: store,
    tables, dice, entropy). Returns the Device, or None when the entropy
    self-test failed."""
    from circuitpy.keys import Keys, make_keys
    from firmware import device

    display = make_display(board, i2c)
    if scanner is None:
        scanner = make_keys(board)
    import keypad

    keys = Keys(scanner, keypad.Event())
    if clock is None:
        from circuitpy import clock
    from circuitpy.power import Machine

    if "store" not in options:
        from circuitpy.saves import make_store

        options["store"] = make_store()
    return device.start(board, Machine(), clock, display=display, keys=keys, **options)


def run(board, max_steps=None, hook=None, **options):
    """`start` the device and loop it (firmware.device.Device.loop, errors
    going the supervisor's way); returns the Device."""
    dev = start(board, **options)
    if dev is not None:
        dev.loop(max_steps, hook, guard=True)
    return dev
