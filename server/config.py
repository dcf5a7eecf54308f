"""The server's settings: one object the command line fills
(`python -m server --help`) and the tests make with short timings."""

from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def default_data():
    """Where the SQLite file goes unless --data says otherwise."""
    return Path.home() / ".local" / "share" / "zehntausend-server"


@dataclass
class Settings:
    """Every knob of the server (seconds unless named otherwise)."""

    host: str = "127.0.0.1"
    port: int = 8000
    data: Path = field(default_factory=default_data)
    redis: str = ""  # redis://host:port/db: several processes share the rooms
    web: Path = ROOT / "build" / "web"  # the built page, served at /
    tables: Path = ROOT / "tables"  # the Expert's plans and the Master's tables
    away_after: float = 5.0  # a seat without a connection shows as away
    standin_after: float = 30.0  # an away seat's turn is played by a computer (a room may choose)
    standin_level: str = "profi"
    bot_pace: float = 0.65  # between two computer actions (the device's normal pace)
    idle_expire: float = 7 * 24 * 3600.0  # rooms untouched this long are deleted
    unload_after: float = 60.0  # a room nobody is connected to leaves memory
    lease: float = 5.0  # Redis: a room's owner must renew within this
    hello_timeout: float = 10.0  # the first message must come within this
    heartbeat: float = 20.0  # WebSocket pings (uvicorn); a dead peer goes after 2x
    rate: float = 10.0  # messages per second a connection may send on average
    burst: float = 30.0  # ... and at once
    room_limit: int = 20  # new rooms per client address ...
    room_window: float = 600.0  # ... within this many seconds
    origins: tuple = ()  # allowed Origin headers besides the server's own host
    catchup: int = 200  # at most this many missed events are resent, else a snapshot
    # Limits before work (docs/hosting-limits.md):
    max_body: int = 16 * 1024  # bytes of an HTTP body (and of a WebSocket message)
    conn_limit: int = 32  # open WebSockets per client address, spectators included
    tcp_limit: int = 64  # open TCP connections per client address (server/tcpguard.py)
    header_timeout: float = 10.0  # a connection's request headers must come within this
    body_timeout: float = 10.0  # a request's body must come whole within this
    guess_limit: int = 30  # unknown room codes per client address ...
    guess_window: float = 600.0  # ... within this many seconds, then refused
    proxies: tuple = ()  # addresses whose X-Forwarded-For/-Proto are believed
    operator_token: str = ""  # shows rooms' details in /api/stats (Authorization: Bearer)
    may_forget: bool = False  # Redis without persistence allowed: rooms may be lost
    store_patience: float = 15.0  # Redis failing this long: connections closed, 1013 "store"
    plans_kept: int = 8  # solved turn plans kept in memory (least recently used goes)
