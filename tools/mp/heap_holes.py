"""A fragmented heap on purpose, for the MicroPython Unix port.

Late in a long session on the chip the heap has plenty free, but only in
small pieces: a request for one block of a few KB fails although tens of
KB are free (issue 21). `Holes(hole)` makes that state. MicroPython's heap
gives the first free run long enough, counted from its start, so:

1. blocks of `hole` bytes fill the free heap, one after another in rising
   addresses; then small ones fill every gap left, until not one more
   byte can be had;
2. from the last block to the first: the block is let go and a small
   "wall" asked for at once, which lands at the start of the space just
   freed (below it all is full, above it only walls start each run).

Until `close()` no free block is longer than `hole`, so a larger request
raises MemoryError with a traceback to its cause, while smaller ones
succeed as usual; nearly all that was free stays free. (Garbage that a
stale pointer on the C stack kept through the first collections can come
free later as one long run: a second pass fills such runs with blocks and
lets every other one go.)

Under CPython (no such heap) it does nothing and `active` is False.
"""

import gc
import sys

MICROPYTHON = sys.implementation.name == "micropython"
WALL = 16  # bytes of a wall between two holes


class Holes:
    """The free heap cut into holes of at most `hole` bytes and an eighth (see the
    module docstring); `largest` is the biggest request that still
    succeeded after cutting (0 under CPython)."""

    def __init__(self, hole):
        self.hole = hole
        self.active = MICROPYTHON
        self.pins = None
        self.largest = 0
        if self.active:
            self._cut()

    def _cut(self, rounds=4):
        for n in range(rounds):
            self._fill(walls=n == 0)
            self.largest = self.biggest_block()
            if self.largest <= self.hole + self.hole // 8:
                return

    def _fill(self, walls):
        gc.collect()
        gc.collect()  # (a second pass frees what the first one's stack kept)
        count = gc.mem_free() // self.hole + 16
        if not walls:  # the heap is cut already: the list must fit in a hole
            count = min(count, self.hole // 16)
        blocks = [None] * count  # (made before the heap is full)
        kept = [None] * count if walls else None
        n = 0
        try:
            while n < count:
                blocks[n] = bytearray(self.hole)
                n += 1
        except MemoryError:
            pass
        if not walls:  # a later pass: every other block stays as the wall
            for i in range(1, n, 2):
                blocks[i] = None
            self.pins = (self.pins, blocks)
            gc.collect()
            return
        rest = None
        for size in (WALL, 0):
            try:
                while True:
                    rest = (rest, bytearray(size) if size else None)
            except MemoryError:
                pass
        while n:
            n -= 1
            blocks[n] = None
            gc.collect()
            try:
                kept[n] = bytearray(WALL)
            except MemoryError:  # (cannot happen: the space was just freed)
                break
        self.pins = (self.pins, kept, rest)
        gc.collect()

    def biggest_block(self, top=None):
        """The largest bytearray the heap gives now (binary search, in steps
        of 16 bytes), up to `top` (default: four holes)."""
        top = 4 * self.hole if top is None else top
        lo, hi = 0, top
        while hi - lo > 16:
            mid = (lo + hi) // 2
            try:
                probe = bytearray(mid)
                probe = None  # noqa: F841  (let it go at once)
                lo = mid
            except MemoryError:
                hi = mid
        return lo

    def tighten(self):
        """Cut again what came free as one long run since (garbage that only
        a collection from the caller's frame lets go); True when no free
        block is longer than a hole and an eighth."""
        if not self.active:
            return True
        for _ in range(4):
            gc.collect()
            self.largest = self.biggest_block()
            if self.largest <= self.hole + self.hole // 8:
                return True
            self._fill(walls=False)
        return False

    def close(self):
        """Let go of the pins: the heap is whole again."""
        self.pins = None
        gc.collect()
