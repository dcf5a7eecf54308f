"""Tests that run under CPython pytest and under the MicroPython Unix port."""
