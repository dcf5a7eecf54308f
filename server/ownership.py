"""Ownership and take-over: which rooms this process holds in memory,
loading a room (its lease first, one load at a time), reading a room it
does not own, dropping one, taking the rooms of a dead owner over, and
what to do while Redis fails or came back empty."""

import asyncio
import logging
import time

from server.delivery import CLOSE_NO_ROOM, CLOSE_TRY_LATER
from server.live import Live, load_room
from server.names import code_tag
from server.room import Refused

log = logging.getLogger("server")


class Ownership:
    """The hub's part that owns, loads and hands over rooms (server/hub.py)."""

    async def public(self, code):
        """The public state of room `code` (any process can read it)."""
        live = self.live.get(code)
        if live is not None:
            return live.room.public()
        room, _ = await self._read(code)
        if room is None:
            raise Refused("no_room")
        return room.public()

    async def _read(self, code):
        """(Room, the seq of its written state) of room `code` from the
        store, the events after the state replayed; (None, -1) when none."""
        state = await self.store.get(code)
        if state is None:
            return None, -1
        texts = []
        if self.store.partial:
            texts = await self.store.events(code, state["seq"], 1 << 30)
        return load_room(state, texts), state["seq"]

    async def record(self, code, g):
        """The dice record of finished game `g` of room `code`."""
        live = self.live.get(code)
        room = live.room if live is not None else None
        if room is None:
            room, _ = await self._read(code)
            if room is None:
                raise Refused("no_room")
        return room.record(g)

    async def _own(self, code, dead=""):
        """The Live of room `code`, loading it (and taking its lease) when
        no process owns it, or when `dead` does: a process found gone
        (nobody listens for it, server/bus.py); Refused("no_room") or
        Refused("retry"). One load a room at a time (`loading`)."""
        live = self.live.get(code)
        if live is not None:
            return live
        task = self.loading.get(code)
        if task is None:
            task = asyncio.ensure_future(self._load(code, dead))
            self.loading[code] = task
            task.add_done_callback(lambda t: self.loading.pop(code, None)
                                   if self.loading.get(code) is t else None)
        return await asyncio.shield(task)

    async def _load(self, code, dead):
        """Take room `code`'s lease and load it (see _own)."""
        if not await self.store.acquire(code, self.proc):
            if not dead or not await self.store.replace(code, self.proc, dead):
                raise Refused("retry")
            log.info("room %s: its owner is gone, taken at once", code_tag(code))
        live = self.live.get(code)
        if live is not None:
            return live
        room, saved = await self._read(code)
        if room is None:
            await self.store.release(code, self.proc)
            raise Refused("no_room")
        live = Live(room, time.monotonic(), self.settings)
        live.saved = saved
        self.live[code] = live
        self.timed.add(code)
        log.info("room %s: owned here from event %d on", code_tag(code), live.room.seq)
        if self.bus is not None:
            await self.bus.ask_presence(code)
            # The last owner may have died after saving its last events and
            # before publishing them: publish the last one again, so that
            # every process's connections fill what they missed (deliver).
            seq = live.room.seq
            if seq:
                last = await self.store.events(code, seq - 1, 1)
                if last:
                    await self.bus.publish_events(code, [(seq, last[0])])
        self._kick_bots(live)
        return live

    def _resize(self, live):
        for i in range(len(live.room.state["seats"])):
            live.gone.setdefault(i, time.monotonic())

    def _drop(self, code):
        live = self.live.pop(code, None)
        if live is not None and live.bot_task is not None:
            live.bot_task.cancel()

    async def _take_over(self):
        """Rooms this process serves connections of, whose owner is gone:
        take them over, all at once. Gone: its lease expired, or nobody
        listens for it any more (it died: server/bus.py)."""
        assert self.bus is not None  # (only with Redis)
        codes = [code for code in self.local if code not in self.live]
        if not codes:
            return
        owners = await self.store.owners(codes)
        alive = await self.bus.listening(sorted({o for o in owners if o and o != self.proc}))
        orphans = [(code, owner) for code, owner in zip(codes, owners, strict=True)
                   if owner != self.proc and owner not in alive]
        if not orphans:
            return

        async def one(code, owner):
            try:
                await self._own(code, dead=owner)
                log.info("took room %s over", code_tag(code))
            except Refused:
                pass

        await asyncio.gather(*[one(code, owner) for code, owner in orphans])

    def store_failing(self):
        """True while Redis has failed for --store-patience (a new
        connection is closed with 1013 "store" at once)."""
        return (self.store_down is not None
                and time.monotonic() - self.store_down >= self.settings.store_patience)

    def _store_failing(self, now):
        """Redis failed on this tick: once it has failed for
        --store-patience, every connection here is closed with 1013
        "store" (the page says why and reconnects; the rooms are not
        lost, so not 4003), and so is every new one until Redis answers
        again (app.py)."""
        if self.store_down is None:
            self.store_down = now
        elif now - self.store_down >= self.settings.store_patience and self.conns:
            log.warning("the store has failed for %.0f s: %d connections told",
                        now - self.store_down, len(self.conns))
            for conn in list(self.conns.values()):
                conn.close(CLOSE_TRY_LATER, "store")

    async def _forgotten(self):
        """Redis came back empty: the rooms it no longer has are closed for
        their connections with 4003 "lost" (the page says so) instead of
        refusing each action."""
        for code in set(self.live) | set(self.local):
            if await self.store.get(code) is not None:
                continue
            self._drop(code)
            for conn in list(self.local.get(code, ())):
                conn.close(CLOSE_NO_ROOM, "lost")
