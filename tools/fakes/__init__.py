"""Stand-ins for the hardware on a PC: a `machine` module and an OLED model (put
this folder on sys.path), and an in-memory file system with power cuts (memfs).
Used by tools/mp and by the tests."""
