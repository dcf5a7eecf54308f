"""The room pipeline, the one place a room is changed: decide (the request
applied to a copy of the room), save (the copy's new events, and its state
when due), tell (only then is the copy the room and are its events sent).
A save that fails leaves the room as it was: nothing shown, no number
used, the request refused with `server` (or, when the store cannot say
whether it kept it, the connection closed with 1013 `store`)."""

import logging
import time

from engine.levels import PLAN, needs
from server.delivery import CLOSE_LEFT, CLOSE_NO_ROOM, CLOSE_TRY_LATER
from server.live import Live, state_due
from server.names import code_tag, new_code
from server.room import Refused, Room, compact, parse_action, parse_rules, parse_wait
from server.store import STORE_ERRORS, StoreUnsure

log = logging.getLogger("server")


class Pipeline:
    """The hub's part that changes rooms (server/hub.py)."""

    async def create(self, address, body):
        """A new room from a create request (a dict): its code, seat 0, token."""
        if self.created.full(address):
            raise Refused("too_many_rooms")  # its text takes no values
        rules = parse_rules(body.get("preset"), body.get("rules"), body.get("target"))
        computers = body.get("computers", [])
        wait = parse_wait(body.get("wait"), self.settings.standin_after)
        room, token = Room.create(new_code(), body.get("name"), body.get("people", 2),
                                  computers, rules, wait=wait)
        # Counted before anything is awaited: requests sent at once would
        # otherwise all pass the check above while the first plan is solved.
        self.created.add(address)
        for kind in set(computers):
            if needs(kind, PLAN):
                await self._plan(rules)  # solved now, not in the first computer's turn
        code = room.code
        if not await self.store.acquire(code, self.proc):
            raise Refused("retry")
        live = Live(room, time.monotonic(), self.settings)
        await self._keep(live, room, room.take_messages())  # saved before it exists here
        self.live[code] = live
        self.timed.add(code)
        return {"code": code, "seat": 0, "token": token}

    async def join(self, code, body):
        """A person joins room `code`: seat and token (asked of the room's
        owner when that is another process)."""
        if code not in self.live and self.bus is not None:
            owner = await self.store.owner(code)
            if owner and owner != self.proc:
                return await self.bus.call(owner, {"op": "join", "code": code, "body": body})
        live = await self._own(code)
        async with live.lock:
            seat, token = await self._change(live, lambda room: room.join(body.get("name")))
            live.gone[seat] = time.monotonic()
            self.timed.add(code)
            self._resize(live)
        return {"code": code, "seat": seat, "token": token}

    async def _change(self, live, change):
        """Decide, save, tell (the caller holds `live.lock`): `change(room)`
        is done on a copy of the room (Refused: nothing happened); the
        events it made are saved (`_keep`); only then is the copy the room
        and are they sent. A save that fails raises its error and leaves
        the room as it was: no event number used, nothing shown. What
        `change` returns."""
        work = live.room.copy()
        result = change(work)
        messages = work.take_messages()
        if messages:
            await self._keep(live, work, messages)
        else:  # nothing to save or tell
            live.room = work
        return result

    async def _keep(self, live, work, messages):
        """Save `messages` (made by `work`, the room to be) and then make
        `work` the room and send them. A process that lost the lease
        stops owning the room (Refused("retry")). When Redis failed after
        the save was sent (StoreUnsure), what was saved is read back: the
        save stands when it is there, fails when not; when even that
        cannot be read, the room leaves memory (it is read again from
        the store at the next request) and StoreUnsure goes on: the
        caller's connection is told to reconnect (1013 "store"), never
        that nothing happened. The state goes with the events only when
        `state_due` (else they are appended: load_room replays them)."""
        code = work.code
        began = time.perf_counter()
        full = state_due(work, live.saved, messages)
        try:
            ok = await self.store.save(code, work.state, messages, self.proc, full)
        except StoreUnsure as e:
            ok = await self._saved_after_all(live, code, messages, e)
        if not ok:
            log.warning("room %s: lease lost, another process owns it now", code_tag(code))
            self._drop(code)
            raise Refused("retry")
        if full:
            live.saved = work.seq
        live.room = work
        saved = time.perf_counter()
        self.stats["store"] += saved - began
        live.idle_since = time.monotonic()
        self.deliver(code, messages)
        if self.bus is not None:
            try:
                await self.bus.publish_events(code, messages)
            except STORE_ERRORS as e:  # saved all the same: other processes catch up (resync)
                log.warning("room %s: events saved, not published (%s)", code_tag(code),
                            type(e).__name__)
        self.stats["send"] += time.perf_counter() - saved
        self._kick_bots(live)

    async def _saved_after_all(self, live, code, messages, unsure):
        """Whether a save whose outcome was unknown happened (see _keep)."""
        try:
            last = await self.store.saved_up_to(code)
        except STORE_ERRORS:
            last = -1
        if last >= messages[-1][0]:
            log.warning("room %s: the store failed after saving event %d", code_tag(code),
                        messages[-1][0])
            return True
        if last == messages[0][0] - 1:  # not saved, and never will be (the save's deadline)
            raise unsure.__cause__ or unsure
        log.warning("room %s: not known what the store holds: read again at the next request",
                    code_tag(code))
        self._drop(code)
        raise unsure

    def _act(self, room, seat, msg):
        """Seat `seat` carries out the action of `msg` in `room` (Refused
        when it may not), counted in `stats`."""
        began = time.perf_counter()
        room.act(seat, parse_action(msg.get("a")))
        self.stats["actions"] += 1
        self.stats["apply"] += time.perf_counter() - began

    async def request(self, code, seat, msg, proc, conn_id):
        """Carry out a seat's request on the owner; a refusal goes back to
        the connection that sent it: `server` when the store failed (the
        room is as it was), and a close with 1013 "store" when it is not
        known whether the store kept it (see _keep)."""
        try:
            live = await self._own(code)
            t = msg.get("t")
            async with live.lock:
                if t == "act":
                    await self._change(live, lambda room: self._act(room, seat, msg))
                elif t == "start":
                    await self._change(live, lambda room: room.start(seat))
                elif t == "rematch":
                    g = live.room.state["g"]
                    await self._change(live, lambda room: room.rematch(seat))
                    if live.room.state["g"] != g:  # everybody agreed: a new game's clocks
                        now = time.monotonic()
                        live.gone = {i: now for i in range(len(live.room.state["seats"]))}
                        self.timed.add(code)
                else:
                    await self._change(live, lambda room: room.leave(seat))
            if t == "leave":
                await self.kick(proc, conn_id, CLOSE_LEFT)
        except Refused as e:
            await self._refuse(proc, conn_id, msg, e.key, e.values)
            if e.key == "no_room":  # gone under a connected seat: say so, not every action
                await self.kick(proc, conn_id, CLOSE_NO_ROOM)
        except StoreUnsure:
            await self.kick(proc, conn_id, CLOSE_TRY_LATER, "store")
        except STORE_ERRORS as e:
            log.warning("room %s: the store failed (%s): refused, nothing changed",
                        code_tag(code), type(e).__name__)
            await self._refuse(proc, conn_id, msg, "server", [])

    async def _refuse(self, proc, conn_id, msg, key, values):
        """Refuse message `msg` of connection `conn_id` of process `proc`."""
        reply = {"t": "no", "why": key, "values": values}
        if msg.get("id") is not None:
            reply["re"] = msg.get("id")
        try:
            await self.reply(proc, conn_id, compact(reply))
        except STORE_ERRORS:  # Redis down: the other process's connection hears nothing
            log.warning("a refusal for process %s was lost: Redis failed", proc)
