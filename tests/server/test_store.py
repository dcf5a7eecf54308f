"""The SQLite store on its own: state and events written together,
events read back from a number on, idle rooms expired."""

import asyncio
import sqlite3
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


def test_the_log_starts_over_under_steady_writes(tmp_path):
    """The write-ahead log does not grow without end while rooms keep
    writing during every checkpoint: `settle` copies what a thread's
    checkpoint left, and the next write starts the log over."""
    asyncio.run(_steady_writes(tmp_path))


async def _steady_writes(tmp_path):
    store = SqliteStore(tmp_path)
    wal = tmp_path / "rooms.sqlite3-wal"
    n = {}

    async def write(k):
        for i in range(k):
            code = "r%011d" % (i % 50)
            n[code] = n.get(code, 0) + 1
            await store.save(code, {}, [(n[code], "x" * 600)], full=False)

    # A reader's snapshot stands for the time a thread's checkpoint takes:
    # it copies the frames up to it, not those written after it.
    reader = sqlite3.connect(str(tmp_path / "rooms.sqlite3"), isolation_level=None)
    sizes = []
    for _ in range(8):
        await write(300)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM events").fetchone()
        await write(20)  # written while the checkpoint runs
        left = store.checkpoint()
        reader.execute("COMMIT")
        assert 0 < left <= 100
        assert await store.settle(left)
        sizes.append(wal.stat().st_size)
    # the log stopped growing: later rounds fit where the earlier ones did
    assert sizes[-1] == sizes[-4] and sizes[-1] < 2 * sizes[0], sizes
    reader.close()
    assert not await store.settle(10**6)  # too many to copy at once
    await store.close()
