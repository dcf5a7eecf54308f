"""Tests for CPython (pytest) and for the MicroPython Unix port."""
