"""Die faces from the hardware-style byte source are fair; `b % 6` is not.

`ByteDice(os.urandom)` (what the device uses) gives one million faces whose
chi-square against 1/6 each stays below 20.52, the critical value for 5
degrees of freedom at p = 0.001. A fair source fails that by chance once in
a thousand runs, so a failure is confirmed on a second, independent million
before the test fails (a fair source fails both once in a million runs).

Plain `b % 6` over uniform bytes is biased: of the 256 byte values, 43 give
each of faces 1..4 and 42 each of faces 5 and 6. Shown exactly over all 256
values, and statistically over six million random bytes, where the
chi-square against fair faces is about 737.
"""

import os

from engine.dice import ByteDice

CRITICAL_DF5_P001 = 20.52  # chi-square, 5 degrees of freedom, p = 0.001


def chi_square(counts):
    """Chi-square of `counts` against equal probabilities."""
    total = sum(counts)
    expected = total / len(counts)
    return sum((c - expected) ** 2 / expected for c in counts)


def chi_square_expected(counts, probs):
    """Chi-square of `counts` against the probabilities `probs`."""
    total = sum(counts)
    return sum((c - total * p) ** 2 / (total * p) for c, p in zip(counts, probs, strict=True))


def bytedice_counts(n, chunk=4096):
    """Face counts of `n` faces of ByteDice over os.urandom."""
    dice = ByteDice(os.urandom, chunk)
    counts = [0] * 6
    face = dice.face
    for _ in range(n):
        counts[face() - 1] += 1
    return counts


def test_bytedice_over_urandom_passes_chi_square():
    counts = bytedice_counts(1_000_000)
    chi = chi_square(counts)
    if chi >= CRITICAL_DF5_P001:  # one in a thousand for a fair source: look again
        counts = bytedice_counts(1_000_000)
        chi = chi_square(counts)
    assert chi < CRITICAL_DF5_P001, (chi, counts)
    assert sum(counts) == 1_000_000


def test_bytedice_maps_each_accepted_byte_value_to_exactly_42_per_face():
    every = bytes(range(256))
    dice = ByteDice(lambda n: every, 256)
    counts = [0] * 6
    for face in dice(252):  # one pass over all 256 values: 252 accepted
        counts[face - 1] += 1
    assert counts == [42] * 6


def test_modulo_over_all_byte_values_is_biased_exactly():
    counts = [0] * 6
    for b in range(256):
        counts[b % 6] += 1
    assert counts == [43, 43, 43, 43, 42, 42]  # faces 1..4: 43/256, faces 5, 6: 42/256


def test_modulo_bias_is_visible_in_six_million_random_bytes():
    data = os.urandom(6_000_000)
    per_value = [data.count(bytes((v,))) for v in range(256)]
    counts = [0] * 6
    for v, c in enumerate(per_value):
        counts[v % 6] += c
    n = len(data)
    # Against fair faces the bias is plain: the expected chi-square is about 737.
    chi = chi_square(counts)
    assert chi > 100, (chi, counts)
    # Against the exact biased expectation the counts fit (41.04: p about 1e-7).
    probs = [43 / 256] * 4 + [42 / 256] * 2
    assert chi_square_expected(counts, probs) < CRITICAL_DF5_P001 * 2
    # Faces 1..4 together got more than 4/6 of the bytes, by about 27 sigma.
    low = sum(counts[:4])
    assert low - n * 4 / 6 > 15 * (n * (4 / 6) * (2 / 6)) ** 0.5, counts
