"""Raspberry Pi Pico with a 1.3" SH1106 (128x64, 132 columns, offset 2) on
I2C0 at 0x3C and six buttons to ground."""

DISPLAY = "sh1106"
BUS = "i2c"
WIDTH = 128
HEIGHT = 64
I2C_ID = 0
SDA = 4
SCL = 5
ADDR = 0x3C
FREQ = 400_000
COLUMN_OFFSET = 2
BUTTONS = {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "A": 14, "B": 15}
BUZZER = None
VSYS_ADC = 29
