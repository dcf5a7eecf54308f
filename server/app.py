"""The Starlette app: the HTTP API under /api, the WebSocket under /ws,
and the built page at / (docs/protocol.md)."""

import asyncio
import contextlib
import json
import logging
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from server.hub import CLOSE_NO_ROOM, CLOSE_PROTOCOL, CLOSE_SLOW, Conn, Hub
from server.names import CODE_RE
from server.reasons import TEXTS
from server.room import Refused
from server.store import RedisStore, SqliteStore

log = logging.getLogger("server")
MAX_BODY = 16 * 1024
NO_PAGE = """<!doctype html><meta charset="utf-8"><title>Zehntausend</title>
<p>The page is not built: run <code>make web</code> (or <code>make serve</code>,
which builds it). The room API is at <code>/api</code>, the WebSocket at
<code>/ws/CODE</code> (docs/protocol.md).</p>"""


def origin_ok(settings, origin, host):
    """True for no Origin (not a browser), the server's own host, or one
    of the allowed origins."""
    if origin is None:
        return True
    if origin in settings.origins:
        return True
    return bool(host) and urlsplit(origin).netloc == host


def refusal(e, status=400):
    """A refusal as a JSON answer."""
    return JSONResponse({"why": e.key, "values": e.values}, status_code=status)


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

    async def body_of(request):
        if request.headers.get("origin") is not None and not origin_ok(
                settings, request.headers.get("origin"), request.headers.get("host")):
            raise Refused("origin")
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise Refused("too_big")
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            raise Refused("message")
        if not isinstance(body, dict):
            raise Refused("message")
        return body

    async def create(request: Request):
        try:
            body = await body_of(request)
            address = request.client.host if request.client else ""
            out = await hub_box["hub"].create(address, body)
        except Refused as e:
            return refusal(e, 429 if e.key == "too_many_rooms" else 400)
        return JSONResponse(out)

    async def join(request: Request):
        code = request.path_params["code"]
        if not CODE_RE.match(code):
            return refusal(Refused("no_room"), 404)
        try:
            body = await body_of(request)
            out = await hub_box["hub"].join(code, body)
        except Refused as e:
            return refusal(e, 404 if e.key == "no_room" else 400)
        return JSONResponse(out)

    async def room(request: Request):
        code = request.path_params["code"]
        try:
            if not CODE_RE.match(code):
                raise Refused("no_room")
            return JSONResponse(await hub_box["hub"].public(code))
        except Refused as e:
            return refusal(e, 404)

    async def record(request: Request):
        code = request.path_params["code"]
        try:
            if not CODE_RE.match(code):
                raise Refused("no_room")
            return JSONResponse(await hub_box["hub"].record(code, request.path_params["g"]))
        except Refused as e:
            return refusal(e, 404)

    async def reasons(request: Request):
        return JSONResponse(TEXTS)

    async def health(request: Request):
        hub = hub_box["hub"]
        return JSONResponse({"ok": True, "proc": hub.proc, "rooms": len(hub.live),
                             "connections": len(hub.conns)})

    async def stats(request: Request):
        hub = hub_box["hub"]
        return JSONResponse(dict(
            hub.stats, rooms=len(hub.live), connections=len(hub.conns),
            busy=[code for code, live in hub.live.items() if live.lock.locked()],
            present={code: sorted(live.present) for code, live in hub.live.items()}))

    async def online(request: Request):
        # the page asks: served by the room server (a static host serves
        # the build's own online.json, which says false)
        return JSONResponse({"rooms": True})

    async def socket(ws: WebSocket):
        if not origin_ok(settings, ws.headers.get("origin"), ws.headers.get("host")):
            await ws.close(code=1008)  # before accept: the handshake gets 403
            return
        await ws.accept()
        code = ws.path_params["code"]
        if not CODE_RE.match(code):
            await ws.close(code=CLOSE_NO_ROOM)
            return
        hub = hub_box["hub"]
        conn = Conn(ws, settings)
        conn.code = code
        writer = asyncio.create_task(_writer(conn))
        attached = False
        try:
            try:
                first = await asyncio.wait_for(_next(ws), settings.hello_timeout)
            except asyncio.TimeoutError:
                first = None
            if not isinstance(first, dict) or first.get("t") not in ("hello", "watch"):
                conn.close(CLOSE_PROTOCOL)
                return
            rc = await hub.attach(conn, first)
            if rc:
                conn.close(rc)
                return
            attached = True
            while not conn.closed:
                msg = await _next(ws)
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
                except Exception:
                    log.exception("message in room %s", code)
                    conn.refuse("server")
        except Exception:
            log.exception("connection to room %s", code)
            conn.close(1011)
        finally:
            if attached:
                await hub.detach(conn)
            conn.close(conn.close_code)
            try:
                await asyncio.wait_for(writer, 2)
            except (asyncio.TimeoutError, Exception):
                writer.cancel()

    routes = [
        Route("/api/rooms", create, methods=["POST"]),
        Route("/api/rooms/{code}", room, methods=["GET"]),
        Route("/api/rooms/{code}/join", join, methods=["POST"]),
        Route("/api/rooms/{code}/games/{g:int}", record, methods=["GET"]),
        Route("/api/reasons", reasons, methods=["GET"]),
        Route("/api/health", health, methods=["GET"]),
        Route("/api/stats", stats, methods=["GET"]),
        Route("/online.json", online, methods=["GET"]),
        WebSocketRoute("/ws/{code}", socket),
    ]
    if (settings.web / "index.html").exists():
        routes.append(Mount("/", StaticFiles(directory=str(settings.web), html=True)))
    else:
        log.warning("%s has no page (run make web); / says so", settings.web)

        async def no_page(request):
            return HTMLResponse(NO_PAGE, status_code=503)

        routes.append(Route("/", no_page))
    return Starlette(routes=routes, lifespan=lifespan)


_GONE = object()


async def _next(ws):
    """The next message as parsed JSON; `_GONE` when the peer went; None
    for a frame that is not JSON text."""
    try:
        msg = await ws.receive()
    except RuntimeError:  # the socket was closed from this side
        return _GONE
    if msg["type"] == "websocket.disconnect":
        return _GONE
    text = msg.get("text")
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


async def _writer(conn):
    """Send what is queued for `conn`, in order; close when told."""
    ws = conn.ws
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                await ws.close(code=conn.close_code)
                return
            await ws.send_text(text)
    except Exception:  # the peer is gone: the reader ends too
        conn.closed = True
