# Zehntausend: the program is in firmware/; this file only starts it.
from firmware.main import main

main()
