"""Pytest setup: make the repository root importable (engine, firmware, tests)
and give CPython the simulator's framebuf stand-in under the name
`framebuf`, as simulator/host.py does for the PC host (firmware/ imports
`framebuf` and never the simulator); the `figure` fixture, whose figures
the run's summary shows."""

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

try:
    import framebuf  # noqa: F401  (a real one, if some package provides it)
except ImportError:
    from simulator import framebuf as _standin

    sys.modules["framebuf"] = _standin


@pytest.fixture
def figure(request):
    """`figure(text)`: a figure the test measured (a time, a size), shown in
    the run's summary under "figures", on one worker or several
    (pytest-xdist hands a test's user_properties to the main process, not
    its output). A figure is printed, never asserted: timings measure the
    machine as much as the code (docs/contributing.md)."""

    def say(text):
        request.node.user_properties.append(("figure", text.strip()))

    return say


def pytest_terminal_summary(terminalreporter):
    """The figures of the tests that ran (the `figure` fixture), by test."""
    found = []
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            for key, text in getattr(report, "user_properties", ()):
                if key == "figure":
                    found.append((report.nodeid, text))
    if found:
        terminalreporter.section("figures (printed, never asserted)")
        for nodeid, text in sorted(found):
            terminalreporter.write_line("%s: %s" % (nodeid.rsplit("::", 1)[-1], text))
