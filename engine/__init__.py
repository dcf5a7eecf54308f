"""The Zehntausend rules engine: pure Python in the MicroPython subset."""
