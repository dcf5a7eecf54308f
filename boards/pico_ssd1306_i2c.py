"""Raspberry Pi Pico with a 0.96" SSD1306 (128x64) on I2C0 at 0x3C and six
buttons to ground (the default board)."""

DISPLAY = "ssd1306"
BUS = "i2c"
WIDTH = 128
HEIGHT = 64
I2C_ID = 0
SDA = 4  # GP4, pin 6
SCL = 5  # GP5, pin 7
ADDR = 0x3C
FREQ = 400_000
BUTTONS = {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "A": 14, "B": 15}
BUZZER = None
VSYS_ADC = 29  # the Pico measures VSYS/3 on ADC3 (GP29)
