"""TinyCircuits Thumby: a 72x40 SSD1306, six buttons, a buzzer.

The display sits on SPI on most units and on I2C on early ones; the units
tell which by their hardware id on GPIO 15, 14, 13 and 12 (id 0: I2C, see
firmware.board.hardware_id). The pins, the reset lines (GPIO 20 on SPI,
18 on I2C), the I2C clock, the extra init commands and the brightness
range are those of TinyCircuits' own Thumby library.
"""

DISPLAY = "ssd1306"
BUS = "auto"  # SPI or I2C, chosen by the hardware id on ID_PINS
WIDTH = 72
HEIGHT = 40
COLUMN_OFFSET = 28  # the 72 columns sit in the middle of the 128 (RAM columns 28..99)
SPI_ID = 0
SCK = 18
MOSI = 19
CS = 16
DC = 17
RES = 20
I2C_ID = 0
SDA = 16
SCL = 17
ADDR = 0x3C
FREQ = 1_000_000
I2C_RES = 18
ID_PINS = (15, 14, 13, 12)  # bits 0..3 of the hardware id; a pin tied low sets its bit
BUTTONS = {"UP": 4, "DOWN": 6, "LEFT": 3, "RIGHT": 5, "A": 27, "B": 24}
BUZZER = 28
VSYS_ADC = None
# After the driver's init: VCOMH deselect level 0x20 and the internal current
# reference (0xAD 0x30), as the Thumby's library sets them.
DISPLAY_INIT = (0xDB, 0x20, 0xAD, 0x30)
CONTRAST_MAX = 0x7F  # the Thumby's library drives the panel at contrast 0..127
