"""CPython-only tests (may use pytest fixtures and hypothesis)."""
