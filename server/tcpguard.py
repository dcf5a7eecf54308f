"""Connections per client address at the TCP level, before any HTTP.

The WebSocket cap (--conn-limit) counts sockets the app has seen; a
connection that never finishes its request headers never reaches the
app, and uvicorn keeps it open without a limit: one address held 2,000
of them open (it could go on to the process's file limit, after which
nobody gets in). `guarded(base, ...)` makes uvicorn's HTTP protocol
class refuse a connection beyond `limit` open ones of its address (the
same address key as the other limits, server.limits.address_key) at once,
and close one that has not sent a whole request's headers within
`header_timeout` seconds. Proxies named with --proxy are not counted:
every player behind them shares their address.

A connection upgraded to a WebSocket is served by another protocol
object from then on, so open connections are counted by their transports
(dropped from the count once closing), not by this class's callbacks."""

import asyncio

from server.limits import address_key

SWEEP_EVERY = 256  # connections between sweeps of addresses with none open left


def guarded(base, limit, header_timeout, trusted=()):
    """A subclass of uvicorn's HTTP protocol class `base` with the
    per-address cap `limit` (0: none) and the header timeout (see the
    module docstring)."""
    open_by = {}  # address key -> set of its transports (closing ones dropped lazily)
    made = [0]
    trusted = frozenset(trusted)

    def sweep():
        for key in list(open_by):
            live = {t for t in open_by[key] if not t.is_closing()}
            if live:
                open_by[key] = live
            else:
                del open_by[key]

    class Guarded(base):
        """uvicorn's HTTP protocol with the cap and the header timeout."""

        admitted = False

        def connection_made(self, transport):
            peer = transport.get_extra_info("peername")
            host = peer[0] if isinstance(peer, tuple) and peer else ""
            if limit and host not in trusted:
                made[0] += 1
                if made[0] % SWEEP_EVERY == 0:
                    sweep()
                key = address_key(host)
                live = {t for t in open_by.get(key, ()) if not t.is_closing()}
                if len(live) >= limit:
                    transport.abort()  # not admitted: uvicorn never saw it
                    return
                live.add(transport)
                open_by[key] = live
            self.admitted = True
            super().connection_made(transport)
            asyncio.get_running_loop().call_later(header_timeout, self._headers_due, transport)

        def _headers_due(self, transport):
            # No request begun on this connection (its headers incomplete
            # or never sent), and it is still ours (not a WebSocket now).
            if (getattr(self, "cycle", None) is None and not transport.is_closing()
                    and transport.get_protocol() is self):
                transport.close()

        def connection_lost(self, exc):
            if self.admitted:
                super().connection_lost(exc)

        def data_received(self, data):
            if self.admitted:
                super().data_received(data)

        def eof_received(self):
            if self.admitted:
                super().eof_received()

    Guarded.__name__ = Guarded.__qualname__ = "Guarded" + base.__name__
    return Guarded
