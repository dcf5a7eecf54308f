"""Adafruit MacroPad RP2040: a 1.3" SH1106 (128x64) on SPI, 12 keys with a
NeoPixel under each, a rotary encoder with a push switch, a speaker.

Held with the panel at the top, the keys are four rows of three, KEY1 to
KEY12 on GPIO 1 to 12. The top two rows are the six buttons (B UP A /
LEFT DOWN RIGHT), the bottom two a key per die (KEY7..KEY12: dice 1..6,
read on CircuitPython by circuitpy.taps, lit by circuitpy.lights while
picked). The encoder (CircuitPython): a turn moves like UP and DOWN, a
push is A. Pins and the panel's set-up (SPI1, 10 MHz, column 2 of 132)
are those of CircuitPython's board definition (adafruit_macropad_rp2040);
the speaker is switched on by SPEAKER_ENABLE.
"""

DISPLAY = "sh1106"
BUS = "spi"
WIDTH = 128
HEIGHT = 64
COLUMN_OFFSET = 2
SPI_ID = 1
SCK = 26
MOSI = 27
CS = 22
DC = 24
RES = 23
BAUDRATE = 10_000_000
BUTTONS = {"B": 1, "UP": 2, "A": 3, "LEFT": 4, "DOWN": 5, "RIGHT": 6}
DIE_KEYS = (7, 8, 9, 10, 11, 12)  # KEY7..KEY12: dice 1..6
ENCODER = (17, 18, 0)  # A, B and the push switch
PIXELS = 19  # the 12 NeoPixels' data line, in key order (KEY1 first)
BUZZER = 16
SPEAKER_ENABLE = 14
VSYS_ADC = None
