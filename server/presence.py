"""Presence and the stand-in clock: seats' connections coming and going,
seats shown away, a stand-in computer for an away seat's turn, silent
connections, and the clock that visits the rooms with a clock running
(and with Redis renews the leases and takes orphaned rooms over). Every
change of a room goes through the pipeline (server/pipeline.py)."""

import asyncio
import logging
import time

from server.delivery import CLOSE_NO_ROOM, CLOSE_REPLACED
from server.liveness import CLOSE_SILENT, silent, wall
from server.names import code_tag
from server.room import Refused
from server.store import STORE_ERRORS

log = logging.getLogger("server")


class Presence:
    """The hub's part that keeps who is there and the clock (server/hub.py)."""

    async def presence(self, code, seat, proc, conn_id, up, went=None):
        """A seat's connection came or went (on the owner, or sent to it).
        `went`: when a connection found silent last said something (the
        wall clock, epoch seconds, so that it can cross to the owner's
        process): the seat went then, not now."""
        live = self.live.get(code)
        if live is None:
            if self.bus is not None:
                msg = {"op": "up" if up else "down", "code": code, "seat": seat, "proc": proc,
                       "conn": conn_id}
                if went is not None:
                    msg["went"] = went
                await self.bus.to_owner(code, msg)
            return
        self.timed.add(code)
        if seat < 0:
            live.watchers += 1 if up else -1
            return
        async with live.lock:
            now = time.monotonic()
            old = live.present.get(seat)
            if up:
                if old is not None and old != (proc, conn_id):
                    await self.kick(old[0], old[1], CLOSE_REPLACED)
                live.present[seat] = (proc, conn_id)
                try:
                    await self._change(live, lambda room: room.set_away(seat, False))
                except STORE_ERRORS as e:  # still shown away: the clock tries again
                    log.warning("room %s: the store failed (%s): seat %d back later",
                                code_tag(code), type(e).__name__, seat)
                    self.timed.add(code)
                except Refused:  # the lease was lost meanwhile: the room's new owner says it
                    return
                self._kick_bots(live)
            elif old == (proc, conn_id):
                del live.present[seat]
                live.gone[seat] = now if went is None else now - max(0.0, time.time() - went)

    async def _ticker(self):
        """Away seats, stand-ins, idle rooms, leases and take-overs."""
        last_renew = 0.0
        last_expire = 0.0
        last_checkpoint = 0.0
        last_store_warning = -10.0
        while True:
            await asyncio.sleep(0.25)
            try:
                now = time.monotonic()
                await self._silence(now)
                for code in list(self.timed):
                    live = self.live.get(code)
                    if live is not None:
                        try:
                            await self._tick(live, now)
                        except Refused:  # the lease was lost meanwhile (_keep dropped the room)
                            pass
                    if live is None or self.live.get(code) is not live \
                            or not self._clock_runs(live):
                        self.timed.discard(code)
                if self.bus is not None:  # this process lives (RedisStore.owner_alive)
                    await self.store.alive(self.proc)
                if self.bus is not None and now - last_renew >= self.settings.lease / 4:
                    last_renew = now
                    for code in await self.store.renew(list(self.live), self.proc):
                        log.warning("room %s: lease lost, another process owns it",
                                    code_tag(code))
                        self._drop(code)
                    if await self.bus.forgot():
                        await self._forgotten()
                    if self.store_down is not None:  # back after a failure
                        self._spawn(self.resync())
                    self.store_down = None  # it answered
                    await self._take_over()
                checkpoint = getattr(self.store, "checkpoint", None)
                if checkpoint is not None and now - last_checkpoint >= 2:
                    last_checkpoint = now
                    left = await asyncio.to_thread(checkpoint)
                    await self.store.settle(left)
                if now - last_expire >= 60:
                    last_expire = now
                    self.created.prune()
                    for code in await self.store.expire(time.time() - self.settings.idle_expire):
                        self._drop(code)
                        for conn in list(self.local.get(code, ())):
                            conn.close(CLOSE_NO_ROOM)  # the room is closed
            except asyncio.CancelledError:
                raise
            except STORE_ERRORS as e:  # down for now: tried again next tick
                if now - last_store_warning >= 10:
                    last_store_warning = now
                    log.warning("clock: the store failed (%s)", type(e).__name__)
                if self.bus is not None:
                    self._store_failing(now)
            except Exception:
                log.exception("ticker")

    async def _silence(self, now):
        """Close the seat connections that stopped talking and count their
        seats gone from their last message (server/liveness.py)."""
        for conn in silent(list(self.conns.values()), now):
            log.info("room %s: seat %d silent for %.1f s: gone", code_tag(conn.code), conn.seat,
                     now - conn.heard)
            conn.close(CLOSE_SILENT)  # a frozen peer may never read it: the seat goes anyway
            try:
                await self.presence(conn.code, conn.seat, self.proc, conn.id, False,
                                    wall(conn.heard, now))
            except Exception:  # the owner may be gone: its successor asks anew
                log.debug("presence lost for %s", code_tag(conn.code), exc_info=True)

    async def _tick(self, live, now):
        async with live.lock:
            if self._clock_due(live, now):
                await self._change(live, lambda room: self._presence_clock(live, room, now))
            self._kick_bots(live)  # (again, after a failed save)
        room = live.room
        if (not live.present and not live.watchers and room.code not in self.local
                and now - live.idle_since >= self.settings.unload_after):
            self._drop(room.code)
            await self.store.release(room.code, self.proc)

    def _clock_runs(self, live):
        """True while the room needs the ticker: a person's seat (with a
        token: not left) has no connection here, or nobody is there at all."""
        if not live.present and not live.watchers:
            return True
        for i, seat in enumerate(live.room.state["seats"]):
            if seat is not None and not seat["kind"] and seat["token"] and i not in live.present:
                return True
        return False

    def _clock_due(self, live, now):
        """True when `_presence_clock` has something to change in live's room."""
        return self._presence_clock(live, live.room, now, dry=True)

    def _presence_clock(self, live, room, now, dry=False):
        """In `room` (a copy of live's): mark seats away after `away_after`
        without a connection (counted from the connection's last message);
        give an away seat's turn to a stand-in at Room.standin_at
        (`standin_after` after the later of the person going and the
        turn's start); mark a connected seat back when the save of its
        coming failed (`presence`). With `dry`, change nothing: True at
        the first change due."""
        st = room.state
        game = room.game
        playing = game is not None and st["status"] == "playing"
        for i, seat in enumerate(st["seats"]):
            if seat is None or seat["kind"] or not seat["token"]:
                continue
            if i in live.present:
                if seat["away"]:
                    if dry:
                        return True
                    room.set_away(i, False)
                continue
            gone = live.gone.get(i, now)
            if not seat["away"] and now - gone >= self.settings.away_after:
                if dry:
                    return True
                room.set_away(i, True, wall(gone, now))
            if (seat["away"] and not seat["standin"] and playing and game.current == i
                    and time.time() >= room.standin_at(i)):
                if dry:
                    return True
                room.set_standin(i)
        return False
