"""The Starlette app: the HTTP API under /api, the WebSocket under /ws,
and the built page at / (docs/protocol.md)."""

import asyncio
import contextlib
import hmac
import ipaddress
import logging
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from server import gcfreeze, jsonsafe, keepsmemo
from server.hub import (
    CLOSE_NO_ROOM,
    CLOSE_PROTOCOL,
    CLOSE_SLOW,
    CLOSE_TOKEN,
    PROTOCOL,
    Conn,
    Hub,
    frames_offer,
)
from server.limits import Counts, Window, address_key
from server.names import CODE_RE
from server.reasons import TEXTS
from server.room import WAITS, Refused
from server.static import Page
from server.store import STORE_ERRORS, RedisStore, SqliteStore
from server.verifier import source as verifier_source

log = logging.getLogger("server")
# HTTP status of a refusal by its reason (the rest: 400).
STATUS = {"no_room": 404, "no_record": 404, "too_many_rooms": 429, "too_many_guesses": 429,
          "too_big": 413, "server": 503, "retry": 503}
GAME_DIGITS = 9  # a game number in a record's URL has at most this many digits
NO_PAGE = """<!doctype html><meta charset="utf-8"><title>Zehntausend</title>
<p>The page is not built: run <code>make web</code> (or <code>make serve</code>,
which builds it). The room API is at <code>/api</code>, the WebSocket at
<code>/ws/CODE</code> (docs/protocol.md).</p>"""


def origin_ok(settings, origin, host, scheme):
    """True for no Origin (not a browser), one of the allowed origins
    (--origin), or the server's own scheme and host (`scheme` of the
    request: http or https, ws and wss count as those; behind a TLS proxy
    the scheme is believed from X-Forwarded-Proto only when the proxy is
    named) when that host is an address or localhost. A host name is not
    believed from the Host header: a page whose name was made to point
    at this server (DNS rebinding) sends its own name there; a server
    reached by a name is given it with --origin."""
    if origin is None:
        return True
    if origin in settings.origins:
        return True
    own = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    parts = urlsplit(origin)
    return (bool(host) and parts.netloc == host and parts.scheme == own
            and literal_host(parts.hostname or ""))


def literal_host(name):
    """True for an IP address or localhost: names no DNS can point elsewhere."""
    if name == "localhost":
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def refusal(e, status=None):
    """A refusal as a JSON answer (its status from STATUS unless given).
    A body refused (too big, too slow, not JSON) closes the connection:
    what is left of it is never read."""
    status = status or STATUS.get(e.key, 400)
    headers = {"Connection": "close"} if e.key in ("too_big", "message") else None
    return JSONResponse({"why": e.key, "values": list(e.values)}, status_code=status,
                        headers=headers)


def address_of(conn):
    """The client's address as the limits count it (uvicorn put the
    forwarded one here only when the request came from a proxy named with
    --proxy): server.limits.address_key of the peer's."""
    return address_key(conn.client.host if conn.client else "")


def guarded(name, handler):
    """`handler` answering every failure with a refusal: Refused as
    itself, a store that is down with "server" (503) and one log line,
    anything else with "server" too (logged with its traceback: a bug).
    `name` stands for the endpoint in the log (its path holds a code)."""

    async def handle(request):
        try:
            return await handler(request)
        except Refused as e:
            return refusal(e)
        except ClientDisconnect:  # the client went mid-body: nobody to answer, nothing to log
            return refusal(Refused("message"))
        except STORE_ERRORS as e:
            log.warning("%s: the store failed (%s)", name, type(e).__name__)
            return refusal(Refused("server"))
        except Exception:
            log.exception("%s failed", name)
            return refusal(Refused("server"))

    handle.__name__ = name
    return handle


async def read_body(request, limit, timeout):
    """The body, refused as too_big from its Content-Length before reading
    and while reading (a body sent without a length), and as `message`
    when it does not come whole within `timeout` seconds."""
    length = request.headers.get("content-length")
    if length is not None:
        if not length.isdigit() or len(length) > 12:
            raise Refused("message")
        if int(length) > limit:
            raise Refused("too_big")
    chunks = []
    size = 0

    async def read():
        nonlocal size
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise Refused("too_big")
            chunks.append(chunk)

    try:
        await asyncio.wait_for(read(), timeout)
    except asyncio.TimeoutError:
        raise Refused("message")
    return b"".join(chunks)


def make_app(settings):
    """The app for `settings`; its hub starts with the app's lifespan."""
    hub_box = {}

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if settings.redis:
            from server.bus import RedisBus

            store = RedisStore(settings.redis, settings.lease, settings.idle_expire)
            hub = Hub(settings, store, RedisBus(store))
        else:
            hub = Hub(settings, SqliteStore(settings.data))
        await hub.start()
        hub_box["hub"] = hub
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    guesses = Window(settings.guess_limit, settings.guess_window)
    sockets = Counts(settings.conn_limit)

    def guessed(address):
        """A code that is no room's, from `address`: counted, and refused
        with no_room, or too_many_guesses once the address is past the
        limit. Only unknown codes count and only they are refused: a
        request for a room that exists is never locked out (the codes'
        72 bits, not the limit, keep rooms from being found)."""
        full = guesses.full(address)
        guesses.add(address)
        raise Refused("too_many_guesses" if full else "no_room")

    def known_code(code, address):
        """Refused unless `code` has the form of a code (a guess)."""
        if not CODE_RE.match(code):
            guessed(address)

    async def counted(address, work):
        """`work` (awaited); a no_room refusal is a guessed code."""
        try:
            return await work
        except Refused as e:
            if e.key == "no_room":
                guessed(address)
            raise

    async def body_of(request):
        if not origin_ok(settings, request.headers.get("origin"),
                         request.headers.get("host"), request.url.scheme):
            raise Refused("origin")
        raw = await read_body(request, settings.max_body, settings.body_timeout)
        try:
            body = jsonsafe.loads(raw or b"{}")
        except (ValueError, RecursionError):
            raise Refused("message")
        if not isinstance(body, dict):
            raise Refused("message")
        return body

    async def create(request: Request):
        body = await body_of(request)
        return JSONResponse(await hub_box["hub"].create(address_of(request), body))

    async def join(request: Request):
        code, address = request.path_params["code"], address_of(request)
        known_code(code, address)
        body = await body_of(request)
        return JSONResponse(await counted(address, hub_box["hub"].join(code, body)))

    async def room(request: Request):
        code, address = request.path_params["code"], address_of(request)
        known_code(code, address)
        return JSONResponse(await counted(address, hub_box["hub"].public(code)))

    async def record(request: Request):
        code, address = request.path_params["code"], address_of(request)
        known_code(code, address)
        g = request.path_params["g"]
        if not (g.isascii() and g.isdigit() and len(g) <= GAME_DIGITS):
            raise Refused("no_record")
        return JSONResponse(await counted(address, hub_box["hub"].record(code, int(g))))

    async def reasons(request: Request):
        return JSONResponse(TEXTS)

    async def health(request: Request):
        hub = hub_box["hub"]
        try:
            await hub.store.get("health-check")  # never a code: any answer will do
        except STORE_ERRORS as e:
            log.warning("health: the store failed (%s)", type(e).__name__)
            return JSONResponse({"ok": False, "why": "store"}, status_code=503)
        out = {"ok": True, "rooms": len(hub.live), "connections": len(hub.conns)}
        if operator(request):  # the host name and process id only for the operator
            out["proc"] = hub.proc
        return JSONResponse(out)

    def operator(request):
        """True when the request carries the operator token (--operator-token)."""
        if not settings.operator_token:
            return False
        given = request.headers.get("authorization", "")
        return hmac.compare_digest(given.encode(), ("Bearer " + settings.operator_token).encode())

    async def stats(request: Request):
        # Counts only: a code is the key to a room. The rooms' codes and
        # who is in them only for the operator.
        hub = hub_box["hub"]
        out = dict(hub.stats, rooms=len(hub.live), connections=len(hub.conns),
                   busy=sum(1 for live in hub.live.values() if live.lock.locked()),
                   present=sum(len(live.present) for live in hub.live.values()),
                   plans=len(hub.plans), bots=len(hub.bots),
                   stored=getattr(hub.store, "stored", 0), timed=len(hub.timed),
                   written=Conn.written, quick=Conn.quick, beats=Conn.beats,
                   gc=gcfreeze.stats(), keeps=keepsmemo.stats())
        if operator(request):
            out["rooms_detail"] = {code: {"busy": live.lock.locked(),
                                          "present": sorted(live.present)}
                                   for code, live in hub.live.items()}
        return JSONResponse(out)

    async def online(request: Request):
        # the page asks: served by the room server (a static host serves
        # the build's own online.json, which says false); the room form
        # offers the stand-in's waits, this server's own first
        return JSONResponse({"rooms": True, "wait": settings.standin_after, "waits": list(WAITS)})

    async def verifier(request: Request):
        # the dice check as one file anyone can run (server/verifier.py)
        return Response(verifier_source(), media_type="text/x-python; charset=utf-8",
                        headers={"Cache-Control": "no-cache"})

    async def socket(ws: WebSocket):
        address = address_of(ws)
        if (not origin_ok(settings, ws.headers.get("origin"), ws.headers.get("host"),
                          ws.url.scheme)
                or not sockets.take(address)):
            await ws.close(code=1008)  # before accept: the handshake gets 403
            return
        try:
            await _serve(ws, address)
        finally:
            sockets.give(address)

    async def _serve(ws, address):
        await ws.accept()
        code = ws.path_params["code"]
        if not CODE_RE.match(code):
            await ws.close(code=1008 if guesses.full(address) else CLOSE_NO_ROOM)
            guesses.add(address)
            return
        hub = hub_box["hub"]
        conn = Conn(ws, settings)
        conn.code = code
        writer = asyncio.create_task(_writer(conn))
        receive = frames_offer(ws, "receive")  # the socket's messages without Starlette's layer
        listen = frames_offer(ws, "listen")
        attached = False
        try:
            try:
                first = await asyncio.wait_for(_next(ws, receive), settings.hello_timeout)
            except asyncio.TimeoutError:
                first = None
            if not isinstance(first, dict) or first.get("t") not in ("hello", "watch"):
                conn.close(CLOSE_PROTOCOL)
                return
            if first.get("v", PROTOCOL) != PROTOCOL:  # written for another version
                conn.refuse("version", [PROTOCOL])
                conn.close(CLOSE_PROTOCOL, "version")
                return
            conn.full = first.get("full") is True
            if hub.store_failing():  # told now, not welcomed from memory and closed after
                conn.close(1013, "store")
                return
            rc = await hub.attach(conn, first)
            if rc:
                if rc in (CLOSE_NO_ROOM, CLOSE_TOKEN):  # a wrong code or token: a guess
                    if guesses.full(address):
                        rc = 1008
                    guesses.add(address)
                conn.close(rc)
                return
            attached = True
            if listen is not None:
                listen(lambda text: quick(hub, conn, text))
            while not conn.closed:
                conn.waiting = True
                msg = await _next(ws, receive)
                conn.waiting = False
                if msg is _GONE:
                    break
                if not conn.allow():
                    conn.refused += 1
                    if conn.refused > 3 * settings.burst:
                        conn.close(CLOSE_SLOW)
                        break
                    conn.refuse("slow")
                    continue
                if not isinstance(msg, dict):
                    conn.refuse("message")
                    continue
                try:
                    await hub.message(conn, msg)
                except Refused as e:
                    conn.refuse(e.key, e.values, msg.get("id"))
                except Exception as e:
                    failed(conn, msg, e)
        except STORE_ERRORS as e:
            log.warning("connection: the store failed (%s)", type(e).__name__)
            conn.close(1013, "store")  # try again later
        except Exception:
            log.exception("connection failed")
            conn.close(1011)
        finally:
            conn.waiting = False
            if listen is not None:
                listen(None)
            if attached:
                await hub.detach(conn)
            conn.close(conn.close_code)
            try:
                await asyncio.wait_for(writer, 2)
            except (asyncio.TimeoutError, Exception):
                writer.cancel()

    routes = [
        Route("/api/rooms", guarded("create", create), methods=["POST"]),
        Route("/api/rooms/{code}", guarded("room", room), methods=["GET"]),
        Route("/api/rooms/{code}/join", guarded("join", join), methods=["POST"]),
        Route("/api/rooms/{code}/games/{g}", guarded("record", record), methods=["GET"]),
        Route("/api/reasons", reasons, methods=["GET"]),
        Route("/api/health", guarded("health", health), methods=["GET"]),
        Route("/api/stats", stats, methods=["GET"]),
        Route("/online.json", online, methods=["GET"]),
        Route("/check_dice.py", verifier, methods=["GET"]),
        WebSocketRoute("/ws/{code}", socket),
    ]
    if (settings.web / "index.html").exists():
        # after the API: its paths are never files of the page
        routes.append(Route("/{path:path}", Page(settings.web).serve, methods=["GET", "HEAD"]))
    else:
        log.warning("%s has no page (run make web); / says so", settings.web)

        async def no_page(request):
            return HTMLResponse(NO_PAGE, status_code=503)

        routes.append(Route("/", no_page))
    return Starlette(routes=routes, lifespan=lifespan)


_GONE = object()


def quick(hub, conn, text):
    """A ping answered or a beat taken as it comes off the socket
    (server/wsfast.py's handler), without waking the connection's task:
    True when done so. Only while the task waits for its next message
    (nothing of this connection is half done, so the answer overtakes
    nothing) and the rate limit lets it through; False leaves the message
    to the task, which refuses it if the limit says so. Actions always go
    to the task: they wait for their save (server/pipeline.py, `_change`)."""
    if not conn.waiting or conn.closed or ('"ping"' not in text and '"beat"' not in text):
        return False
    try:
        msg = jsonsafe.loads(text)
    except (ValueError, RecursionError):
        return False
    if not isinstance(msg, dict):
        return False
    t = msg.get("t")
    if t != "ping" and t != "beat":
        return False
    if not conn.allow():
        return False
    hub.heartbeat(conn, t)
    Conn.quick += 1
    return True


def failed(conn, msg, e):
    """Answer a message whose handling failed with `e` (not a refusal)."""
    if isinstance(e, STORE_ERRORS):
        log.warning("message: the store failed (%s)", type(e).__name__)
    else:
        log.error("message failed", exc_info=e)
    conn.refuse("server", ref=msg.get("id"))


async def _next(ws, receive=None):
    """The next message as parsed JSON (`receive`: the socket's own, else
    Starlette's); `_GONE` when the peer went; None for a frame that is not
    JSON text."""
    try:
        msg = await (receive() if receive is not None else ws.receive())
    except RuntimeError:  # the socket was closed from this side
        return _GONE
    if msg["type"] == "websocket.disconnect":
        return _GONE
    text = msg.get("text")
    if text is None:
        return None
    try:
        return jsonsafe.loads(text)
    except (ValueError, RecursionError):
        return None


async def _writer(conn):
    """Send what is queued for `conn`, in order; close when told. While it
    holds a text (`sending`), Conn.send queues behind it."""
    ws = conn.ws
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                await ws.close(code=conn.close_code, reason=conn.close_reason)
                return
            conn.sending = True
            await ws.send_text(text)
            conn.sending = False
    except Exception:  # the peer is gone: the reader ends too
        conn.closed = True
