"""TinyCircuits Thumby: a 72x40 SSD1306 (SPI on most units, I2C on early
ones, told apart by the hardware id pins), six buttons, a buzzer."""

DISPLAY = "ssd1306"
BUS = "auto"  # SPI or I2C, chosen by the hardware id (firmware reads ID_PINS)
WIDTH = 72
HEIGHT = 40
COLUMN_OFFSET = 28  # the 72 columns sit in the middle of the 128
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
ID_PINS = (15,)  # pulled low on SPI units
BUTTONS = {"UP": 4, "DOWN": 6, "LEFT": 3, "RIGHT": 5, "A": 27, "B": 24}
BUZZER = 28
VSYS_ADC = None
DISPLAY_INIT = (0xAD, 0x30)  # extra init command: internal current reference (as TinyCircuits')
