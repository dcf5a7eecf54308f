"""Raspberry Pi Pico with an SSD1306 (128x64) on SPI0 and six buttons to
ground."""

DISPLAY = "ssd1306"
BUS = "spi"
WIDTH = 128
HEIGHT = 64
SPI_ID = 0
SCK = 18  # GP18
MOSI = 19  # GP19
CS = 17  # GP17
DC = 16  # GP16
RES = 20  # GP20
BAUDRATE = 10_000_000
BUTTONS = {"UP": 10, "DOWN": 11, "LEFT": 12, "RIGHT": 13, "A": 14, "B": 15}
BUZZER = None
VSYS_ADC = 29
