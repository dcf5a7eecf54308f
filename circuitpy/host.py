"""The board set up on CircuitPython: the panel, from the board's boards/ data.

Boards stay data: the same boards/NAME.py a MicroPython device reads
(GPIO numbers) names the pins here through circuitpy.pins. `make_display(board,
i2c=None, spi=None)` gives the app's canvas (circuitpy.canvas.BitmapCanvas)
on the board's panel: `adafruit_displayio_ssd1306.SSD1306` or
`adafruit_displayio_sh1106.SH1106` over `i2cdisplaybus.I2CDisplayBus` or
`fourwire.FourWire` (SPI); `i2c` is a `busio.I2C`, `spi` a `busio.SPI`
(made from the board's pins when None; tests hand in fake buses whose
bytes feed tools/fakes/oled.py).

A board whose bus is "auto" (the Thumby, SPI or I2C by its hardware id)
gets SPI: CircuitPython's own board definition of the Thumby
(tinycircuits_thumby) wires the panel on SPI only. On a board whose
firmware set a display up at boot (board.DISPLAY on the MacroPad and the
Thumby), `displayio.release_displays()` gives its pins back first.

The canvas keeps the `busio` object (`canvas.buses`) for as long as it
lives, which is the program's life. On the chip an `I2CDisplayBus` or
`FourWire` does not keep the bus it was made on alive for the garbage
collector: with only a local name for the `busio.I2C`, a collection while
the display driver starts frees it, and the driver then waits for the bus
forever (the staged game hung so before its first frame).
"""

from circuitpy import pins
from circuitpy.canvas import BitmapCanvas


def _bus(board, i2c, spi):
    """(display bus, busio bus) on the board's wiring (see the module docstring)."""
    pin = pins.pin
    if board.BUS == "i2c":
        import i2cdisplaybus

        if i2c is None:
            import busio

            i2c = busio.I2C(pin(board.SCL), pin(board.SDA),
                            frequency=getattr(board, "FREQ", 400000))
        return i2cdisplaybus.I2CDisplayBus(i2c, device_address=board.ADDR), i2c
    import fourwire

    if spi is None:
        import busio

        spi = busio.SPI(pin(board.SCK), MOSI=pin(board.MOSI))
    res = getattr(board, "RES", None)
    return fourwire.FourWire(spi, command=pin(board.DC), chip_select=pin(board.CS),
                             reset=None if res is None else pin(res),
                             baudrate=getattr(board, "BAUDRATE", 10_000_000)), spi


def make_display(board, i2c=None, contrast=None, spi=None):
    """The canvas on the board's panel (see the module docstring); ValueError
    for a panel this host does not drive."""
    if board.DISPLAY not in ("ssd1306", "sh1106"):
        raise ValueError("CircuitPython host: no driver for %s" % board.DISPLAY)
    import displayio

    displayio.release_displays()
    bus, wire = _bus(board, i2c, spi)
    # auto_refresh off: the device loop sends a frame when the app drew one.
    kwargs = {"width": board.WIDTH, "height": board.HEIGHT, "auto_refresh": False}
    if board.DISPLAY == "sh1106":
        from adafruit_displayio_sh1106 import SH1106 as Driver

        kwargs["colstart"] = getattr(board, "COLUMN_OFFSET", 2)  # 128 of its 132 columns
    else:
        from adafruit_displayio_ssd1306 import SSD1306 as Driver  # (72x40: its own offset)
    panel = Driver(bus, **kwargs)
    for command in getattr(board, "DISPLAY_INIT", ()):
        bus.send(command, b"")  # one command byte each (the Thumby's extra set-up)
    # the buses kept for the display's life (see the module docstring)
    canvas = BitmapCanvas(panel, board.WIDTH, board.HEIGHT,
                          getattr(board, "CONTRAST_MAX", 255), (wire, bus))
    if contrast is None:
        from firmware.files import CONTRAST

        contrast = CONTRAST
    canvas.contrast(contrast)
    return canvas


def start(board, i2c=None, scanner=None, clock=None, spi=None, encoder=None, lights=None,
          machine=None, **options):
    """The device (firmware.device.start) on CircuitPython's modules: the
    canvas on the panel, the keys from `keypad` (`scanner`: a keypad.Keys,
    made from the board's BUTTONS, encoder switch and DIE_KEYS when None;
    circuitpy.taps for the last two and `encoder`, the board's rotaryio
    encoder when None), the clock from
    `supervisor` (`clock`: circuitpy.clock when None), dice from
    `os.urandom`, saves in /data of the CIRCUITPY drive (writable only as
    circuitpy/boot.py leaves it), the key lights (`lights`: a
    circuitpy.lights.Lights, made from PIXELS when None) and the speaker
    (SPEAKER_ENABLE driven high). `options` go on to firmware.device.start
    (tests: store, tables, dice, entropy). Returns the Device (the lights
    as its `keys.lights`), or None when the entropy self-test failed."""
    from circuitpy.keys import Keys, make_keys
    from firmware import device

    display = make_display(board, i2c, spi=spi)
    if scanner is None:
        scanner = make_keys(board)
    import keypad

    if clock is None:
        from circuitpy import clock
    taps = None
    if hasattr(board, "ENCODER") or hasattr(board, "DIE_KEYS"):
        from circuitpy.taps import TapKeys, make_encoder  # (only on a board with them)

        if encoder is None:
            encoder = make_encoder(board)
        keys = taps = TapKeys(scanner, keypad.Event(), hasattr(board, "ENCODER"),
                              len(getattr(board, "DIE_KEYS", ())), encoder, clock.ticks_ms)
    else:
        keys = Keys(scanner, keypad.Event())
    if lights is None and hasattr(board, "PIXELS"):
        from circuitpy.lights import make_lights

        lights = make_lights(board)
    if machine is None:
        from circuitpy.power import Machine

        machine = Machine()
    if getattr(board, "SPEAKER_ENABLE", None) is not None:
        import digitalio

        amp = digitalio.DigitalInOut(pins.pin(board.SPEAKER_ENABLE))
        amp.switch_to_output(value=True)
        machine.amp = amp  # kept: a collected DigitalInOut is deinited, the speaker then off
    if "store" not in options:
        from circuitpy.saves import make_store

        options["store"] = make_store()
    dev = device.start(board, machine, clock, display=display, keys=keys, **options)
    if dev is not None and taps is not None:
        taps.app = lambda: dev.app  # (a restart after a failure makes a new App)
    keys.lights = lights
    return dev


def run(board, max_steps=None, hook=None, **options):
    """`start` the device and loop it (firmware.device.Device.loop, errors
    going the supervisor's way), the key lights updated before each step;
    returns the Device."""
    dev = start(board, **options)
    if dev is not None:
        lights = getattr(dev.keys, "lights", None)

        def each(dev):
            if lights is not None:
                lights.update(dev.app)
            return hook is not None and hook(dev)

        dev.loop(max_steps, each, guard=True)
    return dev
