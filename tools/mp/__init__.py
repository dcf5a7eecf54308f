"""Scripts that run under the MicroPython Unix port (and CPython) for benchmarks."""
