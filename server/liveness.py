"""Who is still there: a seat's connection that sent nothing for a few
heartbeats counts as gone, long before TCP or WebSocket pings would
tell (a frozen network keeps the socket open for minutes).

The page sends a heartbeat every 3 s (server/client.py does the same
when it has sent nothing else): `{"t": "beat"}`, which wants no answer,
when the server's messages reached it within those 3 s (events show the
line works both ways), else `{"t": "ping"}`, answered by a pong. A
connection silent for SILENT_AFTER seconds has missed two heartbeats:
the hub closes it and the seat's away clock starts from its last
message, not from the moment this was noticed. Times shown to players
are the server's wall clock (seconds since the epoch), the same on every
page; the hub's own clocks are monotonic, and `wall` turns one into the
other.
"""

import time

SILENT_AFTER = 7.0  # seconds without any message: two missed pings and a margin
CLOSE_SILENT = 4005  # the close code of a connection found silent


def silent(conns, now):
    """The seat connections among `conns` (Conn objects) that have sent
    nothing since `now - SILENT_AFTER` (monotonic) and are still open."""
    return [c for c in conns
            if c.seat >= 0 and not c.closed and now - c.heard >= SILENT_AFTER]


def wall(mono, now_mono=None, now_wall=None):
    """The wall-clock time (epoch seconds, rounded to 0.1 s) of the
    monotonic time `mono`."""
    now_mono = time.monotonic() if now_mono is None else now_mono
    now_wall = time.time() if now_wall is None else now_wall
    return round(now_wall - (now_mono - mono), 1)
