"""The CircuitPython host: the same app on CircuitPython's own modules.

CircuitPython has no `framebuf`, no `machine`, no `time.ticks_ms` and no
viper code. This package puts the app on what it has instead:
`circuitpy.canvas` (the frame drawn into a `displayio.Bitmap` with
`bitmaptools`, the panel driven by `adafruit_displayio_ssd1306` or
`adafruit_displayio_sh1106`), `circuitpy.keys` (`keypad.Keys`; the MacroPad's
encoder and die keys in `circuitpy.taps`), `circuitpy.lights` (the MacroPad's key
lights), `circuitpy.clock` (`supervisor.ticks_ms`, which wraps at 2**29),
`circuitpy.saves` (saves on the remounted CIRCUITPY drive),
`circuitpy.power` (sleep and the buzzer's PWM) and `circuitpy.host` (the
board set up from its boards/ data, then the device loop of
firmware.device). Under CPython it runs on Blinka's
displayio; tests/cpython/test_circuitpy_*.py hold it to the simulator's
pixels.
"""
