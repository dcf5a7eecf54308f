"""Test fakes: a `machine` module and an OLED model (put this folder on sys.path)."""
