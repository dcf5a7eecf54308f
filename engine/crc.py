"""CRC-32 (the zlib polynomial) for the save format and rule fingerprints.

A module of its own so that the save codec, which the device needs at boot
for its settings, does not load the rules code with it (on the chip every
kilobyte of imported code costs about 8 ms of boot).
"""

try:
    from binascii import crc32 as _crc32
except ImportError:  # pragma: no cover - ports without binascii.crc32
    _crc32 = None


def crc32(data, value=0):
    """CRC-32 of bytes; binascii when present."""
    if _crc32 is not None:
        return _crc32(data, value) & 0xFFFFFFFF
    return crc32_pure(data, value)


def crc32_pure(data, value=0):
    """Bitwise CRC-32 for ports without binascii.crc32 (slow but small)."""
    crc = value ^ 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 & -(crc & 1))
    return crc ^ 0xFFFFFFFF
