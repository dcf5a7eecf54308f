"""Bounded bookkeeping for the limits a stranger could otherwise grow
without end: per-address windows (rooms made, codes guessed), per-address
connection counts, and a small least-recently-used table (solved plans).

Every table here has a ceiling on its entries: when it is full the
oldest entry goes, so memory does not grow with the number of addresses
(or rule sets) that strangers send."""

import ipaddress
import time
from collections import OrderedDict


def address_key(host):
    """What the per-address limits count of a client's address `host`
    (text): an IPv4 address as it is, an IPv6 address as its /64
    network, since one home or server gets a whole /64 and could pick any
    address in it."""
    if ":" in host:
        try:
            return str(ipaddress.ip_network(host + "/64", strict=False))
        except ValueError:
            return host
    return host


class Lru(OrderedDict):
    """A dict that keeps at most `size` entries, dropping the one used
    least recently (`get` and setting count as use)."""

    def __init__(self, size):
        super().__init__()
        self.size = size

    def get(self, key, default=None):
        """The value of `key` (marked as used), or `default`."""
        if key in self:
            self.move_to_end(key)
            return self[key]
        return default

    def __setitem__(self, key, value):
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


# The key that counts for every address a full Window has no row for.
OVERFLOW = "*"


class Window:
    """At most `limit` events per address within `seconds`, for at most
    `addresses` addresses at a time. A row is forgotten only once its
    window is over (`prune`): while the table is full, the addresses it
    has no row for share one row (OVERFLOW), so that many addresses
    sending once cannot push out the row of one that is limited."""

    def __init__(self, limit, seconds, addresses=10000, clock=time.monotonic):
        self.limit = limit
        self.seconds = seconds
        self.clock = clock
        self.addresses = addresses
        self.times = {}  # address -> times of its events in the window

    def _key(self, address):
        """The row that counts for `address`."""
        if address in self.times or len(self.times) < self.addresses:
            return address
        self.prune()
        return address if len(self.times) < self.addresses else OVERFLOW

    def _recent(self, key, now):
        times = [t for t in self.times.get(key, ()) if t > now - self.seconds]
        if times:
            self.times[key] = times
        else:
            self.times.pop(key, None)
        return times

    def full(self, address):
        """True when `address` used its allowance in the window."""
        return len(self._recent(self._key(address), self.clock())) >= self.limit

    def add(self, address):
        """Count one event of `address`."""
        now = self.clock()
        key = self._key(address)
        times = self._recent(key, now)
        times.append(now)
        self.times[key] = times[-self.limit:]  # older ones can no longer matter

    def prune(self):
        """Forget the addresses with nothing in the window (the clock calls it)."""
        now = self.clock()
        old = now - self.seconds
        for address in [a for a, ts in self.times.items() if not ts or ts[-1] <= old]:
            del self.times[address]


class Counts:
    """How many connections each address has open, capped per address."""

    def __init__(self, cap):
        self.cap = cap
        self.open = {}  # address -> open connections (entries at 0 are removed)

    def take(self, address):
        """Count a new connection of `address`; False (not counted) past the cap."""
        n = self.open.get(address, 0)
        if n >= self.cap:
            return False
        self.open[address] = n + 1
        return True

    def give(self, address):
        """A connection of `address` ended."""
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)
