"""Pytest setup: make the repository root importable (engine, firmware, tests)
and give CPython the simulator's framebuf stand-in under the name
`framebuf`, as simulator/host.py does for the PC host (firmware/ imports
`framebuf` and never the simulator)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

try:
    import framebuf  # noqa: F401  (a real one, if some package provides it)
except ImportError:
    from simulator import framebuf as _standin

    sys.modules["framebuf"] = _standin
