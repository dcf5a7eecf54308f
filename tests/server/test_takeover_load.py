"""A room is loaded once however many want it at once: a take-over meets
the room's reconnecting seats, their forwarded actions and the clock all
together, and two copies of one room in a process would number two
different events alike (the pages would drop one)."""

import asyncio

from engine.rules import Rules
from server.config import Settings
from server.hub import Hub
from server.room import Room
from server.store import SqliteStore


class SlowStore(SqliteStore):
    """The SQLite store with a pause in every read, as a store over the
    network has: the loads that want the room meet there."""

    reads = 0

    async def get(self, code):
        """The state, after a pause."""
        self.reads += 1
        await asyncio.sleep(0.01)
        return await super().get(code)


def test_one_load_for_many_at_once(tmp_path):
    async def go():
        store = SlowStore(tmp_path)
        room, _ = Room.create("c" * 12, "Anna", 2, [], Rules())
        await store.save(room.code, room.state, room.take_messages())
        hub = Hub(Settings(data=tmp_path), store)
        lives = await asyncio.gather(*[hub._own(room.code) for _ in range(5)])
        assert all(live is lives[0] for live in lives)
        assert hub.live[room.code] is lives[0] and store.reads == 1
        assert hub.loading == {}  # nothing left behind
        await store.close()

    asyncio.run(go())
