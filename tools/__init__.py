"""PC-only tools: dependency listing, MicroPython checks, deploy, benchmarks."""
