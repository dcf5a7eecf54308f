"""Fixtures shared by the CPython-only simulator tests."""

import pytest

from firmware.store import DirFS
from simulator import host
from simulator.host import Sim


@pytest.fixture
def mem_sim(monkeypatch):
    """`make(fs, seed)`: a Sim (128x64) whose data folder is the MemFS `fs`."""
    disks = {}
    monkeypatch.setattr(host, "DirFS", lambda path: disks[path] if path in disks else DirFS(path))

    def make(fs, seed):
        disks["/mem"] = fs
        return Sim("pico_ssd1306_i2c", "/mem", seed)

    return make
