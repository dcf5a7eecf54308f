"""Redis pub/sub between server processes (only with --redis).

Channels:
    zt:ev        every room's saved events: {"code", "m": [[n, text], ...]};
                 each process passes them to its own connections of the room
    zt:p:PROC    requests for one process: a forwarded client message
                 ("msg"), a seat's connection coming or going ("up",
                 "down"), an answer for one connection ("reply"), a
                 connection to close ("kick")
    zt:who       a new owner of a room asks every process which of the
                 room's seats it serves ("up" again for each)

A process that dies (kill -9, a crash) leaves its zt:p:PROC channel at
once: Redis drops the subscription with the closed connection. A message
for it then reaches nobody (PUBLISH answers 0), and whoever finds that
takes the room over at once (Hub._own with `dead`) instead of waiting for
the dead owner's lease to run out; a machine that vanished without
closing its connections still leaves by the lease.

Key zt:epoch: a random mark set once into a Redis; a process that finds
it gone (or changed) knows that Redis came back empty (see `forgot`).
"""

import asyncio
import json
import logging
import secrets

from server.store import STORE_ERRORS

log = logging.getLogger("server")


def persistence_problem(url):
    """Why the Redis at `url` would forget the rooms on a restart (no AOF
    and no RDB snapshots), or "" when it keeps them. Asked once at
    start-up, before serving (a Redis that forbids CONFIG counts as a
    problem: nobody can tell). ConnectionError when it does not answer."""
    import redis

    r = redis.Redis.from_url(url, decode_responses=True, socket_timeout=5)
    try:
        config = r.config_get("appendonly")
        config.update(r.config_get("save"))
    except redis.exceptions.ConnectionError as e:
        raise ConnectionError("Redis at %s is not reachable (%s)" % (url, e)) from None
    except redis.exceptions.RedisError as e:
        return "Redis does not say how it keeps data (CONFIG GET: %s)" % e
    finally:
        r.close()
    if config.get("appendonly") == "yes" or config.get("save", "").strip():
        return ""
    return "Redis keeps nothing on disk (appendonly no, save \"\")"


class RedisBus:
    """The message bus of one process (see the module docstring)."""

    def __init__(self, store):
        self.store = store
        self.r = store.r
        self.hub = None
        self.pubsub = None
        self.task = None
        self.calls = {}  # call id -> future of its answer
        self.next_call = 0
        self.epoch = None  # the zt:epoch mark seen at start

    async def start(self, hub):
        """Subscribe and start listening."""
        self.hub = hub
        self.epoch = await self._epoch()
        self.pubsub = self.r.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe("zt:ev", "zt:who", "zt:p:" + hub.proc)
        self.task = asyncio.create_task(self._listen())

    async def stop(self):
        """Stop listening."""
        if self.task is not None:
            self.task.cancel()
        if self.pubsub is not None:
            await self.pubsub.aclose()

    async def _epoch(self):
        """The Redis's mark (set now when it has none)."""
        await self.r.set("zt:epoch", secrets.token_hex(8), nx=True)
        return await self.r.get("zt:epoch")

    async def forgot(self):
        """True (once) when Redis lost its data since this process last
        looked: the mark is gone or another one (set by a process that
        noticed first). The hub's clock asks every few seconds."""
        mark = await self.r.get("zt:epoch")
        if mark is not None and mark == self.epoch:
            return False
        self.epoch = await self._epoch()
        log.warning("Redis came back without its data: rooms kept only there are lost")
        return True

    async def publish_events(self, code, messages):
        """Send saved events to every other process (the hub delivered
        them here already: server/pipeline.py `_keep`)."""
        assert self.hub is not None
        await self.r.publish("zt:ev", json.dumps({"code": code, "m": messages,
                                                  "p": self.hub.proc}))

    async def to_proc(self, proc, msg):
        """Send `msg` to process `proc`; False when no process listens."""
        return bool(await self.r.publish("zt:p:" + proc, json.dumps(msg)))

    async def listening(self, procs):
        """Which of the processes `procs` listen on their channel (one round
        trip): a process that died is not (see the module docstring)."""
        if not procs:
            return set()
        counts = await self.r.pubsub_numsub(*["zt:p:" + p for p in procs])
        return {channel[len("zt:p:"):] for channel, n in counts if n}

    async def to_owner(self, code, msg):
        """Send `msg` to the room's owner; with no owner, or one that is
        gone (nobody listens for it), become it."""
        hub = self.hub
        assert hub is not None
        owner = await self.store.owner(code)
        if not owner or owner == hub.proc:
            await hub._own(code)
            await self._handle(msg)
            return
        if not await self.to_proc(owner, msg):
            await hub._own(code, dead=owner)
            await self._handle(msg)

    async def call(self, proc, msg, timeout=5.0):
        """Ask process `proc` to carry out `msg` and wait for its answer (a
        dict); a refusal there is raised here as the same Refused."""
        from server.room import Refused

        hub = self.hub
        assert hub is not None
        self.next_call += 1
        rid = self.next_call
        future = asyncio.get_running_loop().create_future()
        self.calls[rid] = future
        try:
            if not await self.to_proc(proc, dict(msg, rid=rid, proc=hub.proc)):
                raise Refused("retry")
            answer = await asyncio.wait_for(future, timeout)
        except asyncio.TimeoutError:
            raise Refused("retry")
        finally:
            self.calls.pop(rid, None)
        if "why" in answer:
            raise Refused(answer["why"], answer["values"])
        return answer["out"]

    async def ask_presence(self, code):
        """After taking a room over: every process re-announces its seats."""
        await self.r.publish("zt:who", json.dumps({"code": code}))

    async def _listen(self):
        assert self.pubsub is not None
        while True:
            try:
                async for item in self.pubsub.listen():
                    try:
                        msg = json.loads(item["data"])
                        if item["channel"] == "zt:ev":
                            if msg.get("p") != self.hub.proc:
                                self.hub.deliver(msg["code"], [tuple(x) for x in msg["m"]])
                        elif item["channel"] == "zt:who":
                            asyncio.create_task(self._announce(msg["code"]))
                        else:
                            asyncio.create_task(self._handle(msg))
                    except Exception:
                        log.exception("bus message")
            except asyncio.CancelledError:
                raise
            except STORE_ERRORS as e:  # Redis down: one line, then listen again
                log.warning("bus listener: Redis failed (%s); listening again",
                            type(e).__name__)
                await asyncio.sleep(0.5)
            except Exception:
                log.exception("bus listener; listening again")
                await asyncio.sleep(0.5)

    async def _announce(self, code):
        hub = self.hub
        for conn in list(hub.local.get(code, ())):
            await self.to_owner(code, {"op": "up", "code": code, "seat": conn.seat,
                                       "proc": hub.proc, "conn": conn.id})

    async def _answer(self, msg, work):
        """Carry out a call's work and send its answer (or refusal) back."""
        from server.room import Refused

        try:
            answer = {"op": "answer", "rid": msg["rid"], "out": await work}
        except Refused as e:
            answer = {"op": "answer", "rid": msg["rid"], "why": e.key, "values": e.values}
        await self.to_proc(msg["proc"], answer)

    async def _handle(self, msg):
        hub = self.hub
        op = msg.get("op")
        try:
            if op == "msg":
                await hub.request(msg["code"], msg["seat"], msg["m"], msg["proc"], msg["conn"])
            elif op in ("up", "down"):
                await hub.presence(msg["code"], msg["seat"], msg["proc"], msg["conn"],
                                   op == "up", msg.get("went"))
            elif op == "reply":
                await hub.reply(hub.proc, msg["conn"], msg["text"])
            elif op == "kick":
                await hub.kick(hub.proc, msg["conn"], msg["code"], msg.get("reason", ""))
            elif op == "join":
                await self._answer(msg, hub.join(msg["code"], msg["body"]))
            elif op == "answer":
                future = self.calls.get(msg["rid"])
                if future is not None and not future.done():
                    future.set_result(msg)
        except STORE_ERRORS as e:  # Redis away: one line, the sender asks again
            log.warning("bus request %s: the store failed (%s)", op, type(e).__name__)
        except Exception:
            log.exception("bus request %s", op)
