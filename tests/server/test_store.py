"""The SQLite store on its own: state and events written together,
events read back from a number on, idle rooms expired."""

import asyncio
import time

from server.store import SqliteStore


def test_save_events_and_expire(tmp_path):
    async def go():
        store = SqliteStore(tmp_path)
        await store.save("a" * 12, {"seq": 2}, [(1, "one"), (2, "two")])
        await store.save("b" * 12, {"seq": 1}, [(1, "uno")])
        assert await store.get("a" * 12) == {"seq": 2}
        assert await store.events("a" * 12, 1, 10) == ["two"]
        assert await store.events("a" * 12, 0, 1) == ["one"]
        store.checkpoint()
        assert await store.expire(time.time() - 3600) == []
        assert sorted(await store.expire(time.time() + 1)) == ["a" * 12, "b" * 12]
        assert await store.get("a" * 12) is None and await store.events("a" * 12, 0, 9) == []
        await store.close()

    asyncio.run(go())
