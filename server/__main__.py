"""python -m server: the room server (docs/protocol.md).

Serves the built page (make web) at /, the API at /api and the
WebSockets at /ws on one port; rooms in SQLite under --data, or in Redis
shared by several processes with --redis."""

import argparse
import logging
import resource
import sys
from pathlib import Path

from server.config import Settings


def parse(argv=None):
    """Settings from the command line."""
    d = Settings()
    p = argparse.ArgumentParser(prog="python -m server", description=__doc__.splitlines()[0])
    p.add_argument("--host", default=d.host, help="address to listen on (default %(default)s)")
    p.add_argument("--port", type=int, default=d.port, help="port (default %(default)s)")
    p.add_argument("--data", type=Path, default=d.data,
                   help="folder of the SQLite file (default %(default)s)")
    p.add_argument("--redis", default="", metavar="URL",
                   help="share rooms with other processes through Redis, e.g. "
                        "redis://127.0.0.1:6379/0 (then --data is unused)")
    p.add_argument("--web", type=Path, default=d.web, help="the built page (default %(default)s)")
    p.add_argument("--away-after", type=float, default=d.away_after,
                   help="seconds without a connection until a seat shows as away "
                        "(default %(default)s)")
    p.add_argument("--standin-after", type=float, default=d.standin_after,
                   help="seconds an away seat's turn waits until a computer plays it "
                        "(default %(default)s)")
    p.add_argument("--standin-level", default=d.standin_level,
                   help="computer level that plays for away people (default %(default)s)")
    p.add_argument("--bot-pace", type=float, default=d.bot_pace,
                   help="seconds between computer actions (default %(default)s)")
    p.add_argument("--idle-expire", type=float, default=d.idle_expire,
                   help="seconds until an untouched room is deleted (default %(default)s)")
    p.add_argument("--unload-after", type=float, default=d.unload_after,
                   help="seconds until a room nobody is connected to leaves memory "
                        "(default %(default)s)")
    p.add_argument("--lease", type=float, default=d.lease,
                   help="Redis: seconds a room's lease lasts unless renewed; a dead "
                        "process's rooms are taken over after it (default %(default)s)")
    p.add_argument("--heartbeat", type=float, default=d.heartbeat,
                   help="seconds between WebSocket pings (default %(default)s)")
    p.add_argument("--rate", type=float, default=d.rate,
                   help="messages per second per connection (default %(default)s)")
    p.add_argument("--burst", type=float, default=d.burst,
                   help="messages a connection may send at once (default %(default)s)")
    p.add_argument("--room-limit", type=int, default=d.room_limit,
                   help="new rooms per client address per --room-window (default %(default)s)")
    p.add_argument("--room-window", type=float, default=d.room_window,
                   help="seconds of the room limit's window (default %(default)s)")
    p.add_argument("--origin", action="append", default=[],
                   help="an allowed Origin besides the server's own host (repeatable)")
    p.add_argument("--proxy", action="append", default=[], metavar="ADDRESS",
                   help="a reverse proxy whose X-Forwarded-For and X-Forwarded-Proto are "
                        "believed (repeatable; default: none, the peer's address counts)")
    p.add_argument("--conn-limit", type=int, default=d.conn_limit,
                   help="open WebSockets per client address, spectators included "
                        "(default %(default)s)")
    p.add_argument("--tcp-limit", type=int, default=d.tcp_limit,
                   help="open TCP connections per client address, WebSockets included, "
                        "before any HTTP is read; 0: no limit; a --proxy is not counted "
                        "(default %(default)s)")
    p.add_argument("--header-timeout", type=float, default=d.header_timeout,
                   help="seconds a new connection has to send its request's headers "
                        "(default %(default)s)")
    p.add_argument("--body-timeout", type=float, default=d.body_timeout,
                   help="seconds a request's body may take to arrive whole "
                        "(default %(default)s)")
    p.add_argument("--guess-limit", type=int, default=d.guess_limit,
                   help="unknown room codes or seat tokens per client address per "
                        "--guess-window before it is refused (default %(default)s)")
    p.add_argument("--guess-window", type=float, default=d.guess_window,
                   help="seconds of the guess limit's window (default %(default)s)")
    p.add_argument("--operator-token", default="", metavar="SECRET",
                   help="GET /api/stats with 'Authorization: Bearer SECRET' also lists "
                        "the rooms' codes (default: counts only, for everyone)")
    p.add_argument("--redis-may-forget", action="store_true",
                   help="start on a Redis without persistence (no appendonly, no save): "
                        "its restart loses every room")
    p.add_argument("--store-patience", type=float, default=d.store_patience,
                   help="seconds Redis may fail before the rooms' connections are closed "
                        "with 1013 'store' and the pages say so (default %(default)s)")
    p.add_argument("--plans-kept", type=int, default=d.plans_kept,
                   help="solved turn plans kept in memory; the least recently used goes "
                        "(default %(default)s)")
    p.add_argument("--log", default="warning", help="log level (default %(default)s)")
    a = p.parse_args(argv)
    return Settings(
        host=a.host, port=a.port, data=a.data, redis=a.redis, web=a.web,
        away_after=a.away_after, standin_after=a.standin_after, standin_level=a.standin_level,
        bot_pace=a.bot_pace, idle_expire=a.idle_expire, unload_after=a.unload_after,
        lease=a.lease, heartbeat=a.heartbeat, rate=a.rate, burst=a.burst,
        room_limit=a.room_limit, room_window=a.room_window, origins=tuple(a.origin),
        proxies=tuple(a.proxy), conn_limit=a.conn_limit, tcp_limit=a.tcp_limit,
        header_timeout=a.header_timeout, body_timeout=a.body_timeout, guess_limit=a.guess_limit,
        guess_window=a.guess_window, operator_token=a.operator_token,
        may_forget=a.redis_may_forget, plans_kept=a.plans_kept,
        store_patience=a.store_patience,
    ), a.log


def raise_file_limit():
    """As many open files as the hard limit allows (a socket is a file)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def main(argv=None):
    """Run the server until interrupted."""
    settings, level = parse(argv)
    logging.basicConfig(level=level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    from server import logsafe

    logsafe.install()  # uvicorn logs paths, and a path holds a room's code
    raise_file_limit()
    import uvicorn
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    from server.app import make_app
    from server.tcpguard import guarded
    from server.wsfast import FramesProtocol

    if not (settings.web / "index.html").exists():
        print("note: %s has no page (run `make web`); / says so, the API works" % settings.web,
              file=sys.stderr)
    where = settings.redis or str(settings.data)
    print("serving http://%s:%d/ (rooms in %s; Ctrl-C stops)" % (settings.host, settings.port,
                                                                 where), flush=True)
    if settings.redis:
        from server.bus import persistence_problem

        try:
            problem = persistence_problem(settings.redis)
        except ConnectionError as e:
            print("refusing to start: %s" % e, file=sys.stderr)
            return 2
        if problem and not settings.may_forget:
            print("refusing to start: %s (rooms would be lost when Redis restarts; "
                  "turn on appendonly or save, or pass --redis-may-forget)" % problem,
                  file=sys.stderr)
            return 2
        if problem:
            print("warning: %s: a restart of Redis loses every room" % problem,
                  file=sys.stderr)
    # Forwarded headers only from the proxies named: uvicorn's default
    # believes them from 127.0.0.1, so a local stranger could pick any
    # address for the per-address limits.
    # Connections per address and the header timeout before any HTTP is read.
    http = guarded(AutoHTTPProtocol, settings.tcp_limit, settings.header_timeout,
                   settings.proxies)
    app = make_app(settings)
    from server import gcfreeze, keepsmemo

    keepsmemo.install()  # the keeps of a roll remembered for every room (see there)
    gcfreeze.install()  # full collections only when the long-lived objects grew (see there)
    uvicorn.run(app, host=settings.host, port=settings.port, http=http,
                proxy_headers=bool(settings.proxies),
                forwarded_allow_ips=list(settings.proxies) or None,
                ws=FramesProtocol,  # uvicorn's websockets-sansio, frames written once
                ws_max_size=settings.max_body, ws_per_message_deflate=False,
                ws_ping_interval=settings.heartbeat, ws_ping_timeout=settings.heartbeat,
                log_config=None,  # uvicorn's loggers write to the root handler (logsafe)
                log_level=level, access_log=False, server_header=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
