"""The soaks' lengths: a short sample in `make test`, the full length
under `make soak` (the environment variable SOAK=1).

A soak is a test whose worth grows with its length (random presses,
fuzzing counts, long real-time silences). It runs a sample by default, so
that `make test` stays within a quarter of an hour, and is marked
`@pytest.mark.soak`: `make soak` runs just those, each at full length.
Nothing is dropped, only moved (docs/contributing.md, "Soaks")."""

import os

import pytest

# SOAK=1 (make soak): every soak at its full length.
FULL = os.environ.get("SOAK", "") not in ("", "0")


def length(short, full):
    """`full` under make soak (SOAK=1), else `short`."""
    return full if FULL else short


# A test that only makes sense at full length: skipped, with the reason,
# in make test; run by make soak.
only_full = pytest.mark.skipif(not FULL, reason="a soak at full length: make soak runs it")
