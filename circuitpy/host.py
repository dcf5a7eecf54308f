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
