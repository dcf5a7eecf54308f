"""Events that reach a connection with a gap (the room's last owner died
between saving events and publishing them) are filled from the store
before anything later is sent: a page never sees a hole in the numbers."""

import asyncio

from server.config import Settings
from server.hub import CLOSE_SLOW, Conn, Hub
from server.store import SqliteStore

CODE = "g" * 12


def queued(conn):
    out = []
    while not conn.queue.empty():
        out.append(conn.queue.get_nowait())
    return out


async def hub_with_conn(tmp_path, saved, last, catchup=200):
    store = SqliteStore(tmp_path)
    await store.save(CODE, {"seq": len(saved)}, [(i + 1, t) for i, t in enumerate(saved)])
    settings = Settings(data=tmp_path, catchup=catchup)
    hub = Hub(settings, store)
    conn = Conn(None, settings)
    conn.code = CODE
    conn.last = last
    hub.local[CODE] = {conn}
    return hub, store, conn


def test_a_gap_is_filled_from_the_store_in_order(tmp_path):
    async def go():
        hub, store, conn = await hub_with_conn(tmp_path, ["e1", "e2", "e3", "e4"], last=1)
        # Event 2 and 3 were saved but never published; 4 comes, then 5.
        hub.deliver(CODE, [(4, "e4")])
        hub.deliver(CODE, [(5, "e5")])  # arrives while the gap is being read
        assert queued(conn) == []  # nothing out of order meanwhile
        await asyncio.gather(*hub.fills)
        assert queued(conn) == ["e2", "e3", "e4", "e5"]
        assert conn.last == 5 and not conn.catching_up and not conn.held
        # Without a gap nothing is read: straight through, repeats dropped.
        hub.deliver(CODE, [(5, "e5"), (6, "e6")])
        assert not hub.fills and queued(conn) == ["e6"]
        await store.close()

    asyncio.run(go())


def test_too_far_behind_closes_for_a_snapshot(tmp_path):
    async def go():
        hub, store, conn = await hub_with_conn(tmp_path, ["e1", "e2", "e3", "e4"], last=1,
                                               catchup=1)
        hub.deliver(CODE, [(4, "e4")])
        await asyncio.gather(*hub.fills)
        assert conn.closed and conn.close_code == CLOSE_SLOW
        await store.close()

    asyncio.run(go())
