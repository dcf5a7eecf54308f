"""Where rooms and their events are kept: one SQLite file (the default:
WAL, one writer) or Redis (several processes, docs/protocol.md "More than
one process").

Both keep per room its state (the JSON of server.room.Room.state) and
its numbered event messages; `save` writes the new messages, and the
state when the hub asks for it (`full`), in one transaction, before any
of them is sent. SQLite writes the state only every few events and with
any event but an action (server.hub.state_due decides): the room is the
state plus the actions after it, which the hub replays on load
(server.hub.load_room; the dice of a roll depend only on the secret and
the roll's number, and an action that began a turn carries its time).
Redis writes the state every time (another process may take the room
over at any moment). Redis also
keeps the room's lease: only the process named in it may save (the check
and the write are one script, so a process that lost its lease can never
write over its successor)."""

import asyncio
import json
import queue
import sqlite3
import threading
import time
from pathlib import Path

import orjson

try:
    from redis.exceptions import RedisError
    from redis.exceptions import TimeoutError as RedisTimeout
except ImportError:  # the server group without Redis
    RedisError = RedisTimeout = OSError

# What a store that is down or broken raises: refused with "server" (503)
# and logged in one line, without a traceback.
STORE_ERRORS = (OSError, sqlite3.Error, RedisError)

# Seconds within which a Redis save must run or never (_SAVE's deadline):
# well inside the socket's 5 s timeout, with room for the clocks of the
# server and Redis to differ by a second or two.
SAVE_DEADLINE = 2.0


class StoreUnsure(OSError):
    """A save whose outcome is unknown (Redis answered nothing after the
    script was sent): the room in memory may no longer be what is saved,
    so the hub forgets it and reads it again (server/pipeline.py)."""


# Frames of the write-ahead log (4 KiB each) `SqliteStore.settle` copies on
# the event loop at most (about a millisecond with its two fsyncs). An
# action writes about 2.5, so the 2 s between checkpoints of 1,000 rooms
# are 5,000; what is written while a thread's checkpoint runs is far less.
SETTLE_MAX = 256
# How long a write waits for a lock another process holds on the file
# before it fails (refused with "server", nothing written): short, since
# every room's writes queue behind it on the one writer thread.
BUSY_MS = 200


class SqliteStore:
    """Rooms in one SQLite file under `folder` (rooms.sqlite3).

    Every write runs on one writer thread with a connection of its own
    (`_writer`), never on the event loop: a file locked by another
    process, or a full disk, makes the writes wait (at most BUSY_MS) and
    fail there while the loop goes on serving every room. The writes that
    queue up while one runs are committed together, each in a savepoint
    of its own (one failing does not take the others with it). Reads stay
    on the loop's connection: in WAL mode a reader never waits for a
    writer."""

    partial = True  # events may follow the written state (save with full=False)

    def __init__(self, folder):
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "rooms.sqlite3"
        self.db = self._connect()
        self.db.execute("PRAGMA journal_mode=WAL")
        self._checkpointer = None
        self.stored = 0  # characters of state and messages handed to SQLite (GET /api/stats)
        self.db.execute("CREATE TABLE IF NOT EXISTS rooms (code TEXT PRIMARY KEY, "
                        "state TEXT NOT NULL, touched REAL NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS events (code TEXT NOT NULL, "
                        "n INTEGER NOT NULL, msg TEXT NOT NULL, PRIMARY KEY (code, n))")
        self._jobs = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._writer, args=(self._connect(),),
                                        name="sqlite-writer", daemon=True)
        self._thread.start()

    def _connect(self):
        db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA busy_timeout=%d" % BUSY_MS)
        db.execute("PRAGMA synchronous=NORMAL")  # WAL: safe against a crash of the process
        # Checkpoints (copying the log into the file, with an fsync) would
        # stall the writes for a quarter second now and then: a thread
        # with a connection of its own does them instead (`checkpoint`).
        db.execute("PRAGMA wal_autocheckpoint=0")
        return db

    async def get(self, code):
        """The last state written of room `code` (events after its `seq`
        may follow it), or None."""
        row = self.db.execute("SELECT state FROM rooms WHERE code = ?", (code,)).fetchone()
        return None if row is None else orjson.loads(row[0])

    async def events(self, code, after, limit):
        """Up to `limit` messages of room `code` numbered above `after`, in order."""
        rows = self.db.execute("SELECT msg FROM events WHERE code = ? AND n > ? ORDER BY n "
                               "LIMIT ?", (code, after, limit)).fetchall()
        return [r[0] for r in rows]

    def _submit(self, work, alone=False):
        """A future of `work(db)` run on the writer thread: in the shared
        transaction of a batch, or `alone` outside any."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((work, alone, loop, future))
        return future

    async def save(self, code, state, messages, proc="", full=True):
        """Write the new (number, text) messages, and with `full` the
        state, in one transaction on the writer thread; True once written.
        A failure (sqlite3.Error: the file locked past BUSY_MS, the disk
        full ...) means nothing of it was written."""
        return await self._submit(self._save_work(code, state, messages, full))

    def save_waiting(self, code, state, messages, full=True):
        """`save` for a caller without an event loop (tools/serve_floor.py):
        this thread waits until the writer wrote it; True."""
        done = threading.Event()
        outcome = []

        def answer(ok, value):  # called on the writer thread once committed (or not)
            outcome.append((ok, value))
            done.set()

        self._jobs.put((self._save_work(code, state, messages, full), False, None, answer))
        done.wait()
        ok, value = outcome[0]
        if not ok:
            raise value
        return True

    def _save_work(self, code, state, messages, full):
        """The writer's work of a save (see `save`)."""
        rows = [(code, n, text) for n, text in messages]
        self.stored += sum(len(t) for _, t in messages)
        text = None
        if full:
            text = orjson.dumps(state).decode()
            self.stored += len(text)
        touched = time.time()

        def work(db):
            if text is not None:
                db.execute("INSERT OR REPLACE INTO rooms (code, state, touched) VALUES (?, ?, ?)",
                           (code, text, touched))
            db.executemany("INSERT INTO events (code, n, msg) VALUES (?, ?, ?)", rows)
            return True

        return work

    def _writer(self, db):
        """The writer thread: take the waiting jobs, run those of a batch
        in one transaction (each in a savepoint), then those run alone;
        answer each on its event loop. None ends it."""
        while True:
            jobs = [self._jobs.get()]
            while True:
                try:
                    jobs.append(self._jobs.get_nowait())
                except queue.Empty:
                    break
            stop = any(job is None for job in jobs)
            jobs = [job for job in jobs if job is not None]
            batch = [job for job in jobs if not job[1]]
            results = {}
            if batch:
                self._run_batch(db, batch, results)
            for job in jobs:
                if job[1]:
                    try:
                        results[id(job)] = (True, job[0](db))
                    except Exception as e:
                        results[id(job)] = (False, e)
            for job in jobs:
                ok, value = results[id(job)]
                if job[2] is None:  # save_waiting's: a callback on this thread
                    job[3](ok, value)
                else:
                    _answer(job[2], job[3], ok, value)
            if stop:
                db.close()
                return

    @staticmethod
    def _run_batch(db, batch, results):
        """Run `batch` in one transaction, each job in a savepoint: a job
        that fails is rolled back alone; when the transaction cannot
        begin or commit, every job fails with its error."""
        try:
            db.execute("BEGIN IMMEDIATE")
        except Exception as e:
            for job in batch:
                results[id(job)] = (False, e)
            return
        for job in batch:
            try:
                db.execute("SAVEPOINT job")
                value = job[0](db)
                db.execute("RELEASE job")
                results[id(job)] = (True, value)
            except Exception as e:
                try:
                    db.execute("ROLLBACK TO job")
                    db.execute("RELEASE job")
                except sqlite3.Error:
                    pass
                results[id(job)] = (False, e)
        try:
            db.execute("COMMIT")
        except Exception as e:
            try:
                db.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            for job in batch:
                if results[id(job)][0]:
                    results[id(job)] = (False, e)

    def checkpoint(self):
        """Copy the write-ahead log into the file without blocking writers
        (run in a thread: the hub's clock calls it every few seconds); the
        log's frames it left (written meanwhile), for `settle`."""
        if self._checkpointer is None:
            self._checkpointer = self._connect()
        _, log, done = self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return max(0, log - done)

    async def settle(self, left):
        """After `checkpoint`: copy the `left` frames written while it ran,
        on the writer's own connection (so none can come between), when
        they are few (SETTLE_MAX). SQLite starts the log from its
        beginning again only at a write that finds it wholly copied, and a
        thread's checkpoint under steady writes never is: the log then
        grows without end, and every write lands on new file pages the
        kernel must first fill with zeros (some 8% of the process's CPU at
        1,000 rooms). True when it copied them."""
        if left > SETTLE_MAX:
            return False
        await self._submit(lambda db: db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall(),
                           alone=True)
        return True

    async def expire(self, before):
        """Delete the rooms untouched since `before` (a time); their codes."""
        def work(db):
            codes = [r[0] for r in db.execute(
                "SELECT code FROM rooms WHERE touched < ?", (before,)).fetchall()]
            for code in codes:
                db.execute("DELETE FROM events WHERE code = ?", (code,))
                db.execute("DELETE FROM rooms WHERE code = ?", (code,))
            return codes

        return await self._submit(work)

    # A single process owns every room: the lease calls always succeed.
    async def acquire(self, code, proc):
        """Take the room's lease (always granted: one process)."""
        return True

    async def renew(self, codes, proc):
        """Renew leases; the codes whose lease was lost (none here)."""
        return []

    async def release(self, code, proc):
        """Give the room's lease up (nothing to do here)."""

    async def owner(self, code):
        """The process holding the room's lease ("" here: always this one)."""
        return ""

    async def owners(self, codes):
        """The owner of each of `codes` ("" here: always this one)."""
        return [""] * len(codes)

    async def replace(self, code, proc, dead):
        """Take the lease from a dead process (granted: one process)."""
        return True

    async def close(self):
        """Let the writer finish what waits, then close the file."""
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)
        self.db.close()
        if self._checkpointer is not None:
            self._checkpointer.close()


def _answer(loop, future, ok, value):
    """Hand a writer job's outcome to its future on its event loop."""
    def done():
        if future.done():  # the waiter was cancelled
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    try:
        loop.call_soon_threadsafe(done)
    except RuntimeError:  # the loop is closed: nobody waits any more
        pass


# KEYS: state, events, lease. ARGV: proc, state JSON, ttl seconds, the
# number of the first message, the deadline (Redis's clock, ms), messages...
# Written only while `proc` holds the lease, the messages follow the list's
# last one (a number is never given twice, nor a gap left), and before
# the deadline: a script that reaches a frozen Redis after its caller gave
# up on it (RedisStore.save) never writes.
_SAVE = """
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
local now = redis.call('TIME')
if tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000) > tonumber(ARGV[5]) then
  return -2
end
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[4]) - 1 then return -1 end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
for i = 6, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
"""
_RENEW = """
local lost = {}
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i], ARGV[2])
  else
    table.insert(lost, i)
  end
end
return lost
"""
# KEYS: lease. ARGV: the dead owner, this process, ttl ms. Taken only from
# that owner (or when nobody holds it): never from a process that took it since.
_REPLACE = """
local owner = redis.call('GET', KEYS[1])
if owner == ARGV[1] or not owner then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return owner == ARGV[2] and 1 or 0
"""
# KEYS: lease. The owner, and 1 when it said it lives (zt:alive:OWNER).
_OWNER_ALIVE = """
local owner = redis.call('GET', KEYS[1])
if not owner then return {'', 0} end
return {owner, redis.call('EXISTS', 'zt:alive:' .. owner)}
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _not_sent(e):
    """True when Redis error `e` came before a request was sent: no
    connection could be made, or none was free in the pool (redis-py says
    so only in its messages)."""
    text = str(e)
    return "connecting to" in text or "No connection available" in text


# How long a process's word that it lives lasts (zt:alive:PROC): four of
# its clock's ticks, so a busy moment does not count as frozen.
ALIVE_MS = 1000
REDIS_CONNECTIONS = 64  # a process's connections to Redis (the bus's listener's included)


class RedisStore:
    """Rooms in Redis: zt:room:CODE (state), zt:ev:CODE (a list, event n
    at index n - 1), zt:lease:CODE (the owning process, expiring)."""

    partial = False  # the state is written with every event: nothing to replay
    sync = False  # every save is a round trip to Redis

    def __init__(self, url, lease, expire):
        import redis.asyncio as aioredis

        # A Redis that hangs (not down, just silent) fails a request after
        # 5 s, answered 503, instead of holding it for ever; the bus's
        # pub/sub listener waits without a limit all the same (redis-py).
        # At most REDIS_CONNECTIONS at once, and a request waits (up to 5 s)
        # for one to be free: redis-py's plain pool refuses the 101st
        # ("Too many connections"), which a take-over, with hundreds of
        # reconnects and rooms to load at once, met.
        pool = aioredis.BlockingConnectionPool.from_url(
            url, decode_responses=True, socket_timeout=5, socket_connect_timeout=5,
            max_connections=REDIS_CONNECTIONS, timeout=5)
        self.r = aioredis.Redis.from_pool(pool)
        self.lease_ms = int(lease * 1000)
        self.ttl = int(expire)
        self._save = self.r.register_script(_SAVE)
        self._renew = self.r.register_script(_RENEW)
        self._release = self.r.register_script(_RELEASE)
        self._replace = self.r.register_script(_REPLACE)
        self._owner_alive = self.r.register_script(_OWNER_ALIVE)

    async def get(self, code):
        """The state of room `code`, or None."""
        raw = await self.r.get("zt:room:" + code)
        return None if raw is None else json.loads(raw)

    async def events(self, code, after, limit):
        """Up to `limit` messages of room `code` numbered above `after`."""
        return await self.r.lrange("zt:ev:" + code, after, after + limit - 1)

    async def save(self, code, state, messages, proc="", full=True):
        """State and messages in one script, only while process `proc` holds
        the lease: False when it does not (another process took over). The
        state is written every time (`full` is not read): a process taking
        the room over reads it without replaying. Raises StoreUnsure when
        the outcome is unknown (Redis failed after the script was sent,
        or the list does not end where the messages begin); the script
        carries a deadline SAVE_DEADLINE s ahead, well before the socket's
        timeout, so a frozen Redis that wakes later never runs it."""
        deadline = int((time.time() + SAVE_DEADLINE) * 1000)
        args = [proc, json.dumps(state, separators=(",", ":")), self.ttl, messages[0][0],
                deadline]
        args += [text for _, text in messages]
        try:
            ok = await self._save(keys=["zt:room:" + code, "zt:ev:" + code, "zt:lease:" + code],
                                  args=args)
        except RedisError as e:
            if _not_sent(e):  # nothing reached Redis: nothing written
                raise
            raise StoreUnsure(code) from e
        if ok == -1:
            raise StoreUnsure(code)
        if ok == -2:  # it came too late: not written
            raise RedisTimeout("the save reached Redis after its deadline")
        return ok == 1

    async def saved_up_to(self, code):
        """The number of room `code`'s last saved event (after StoreUnsure)."""
        return await self.r.llen("zt:ev:" + code)

    async def expire(self, before):
        """Redis forgets idle rooms by itself (the keys expire)."""
        return []

    async def acquire(self, code, proc):
        """Take the room's lease when nobody holds it; True when this process holds it."""
        key = "zt:lease:" + code
        if await self.r.set(key, proc, nx=True, px=self.lease_ms):
            return True
        return await self.r.get(key) == proc

    async def renew(self, codes, proc):
        """Extend the leases of `codes`; the codes whose lease was lost."""
        if not codes:
            return []
        lost = await self._renew(keys=["zt:lease:" + c for c in codes],
                                 args=[proc, self.lease_ms])
        return [codes[i - 1] for i in lost]

    async def release(self, code, proc):
        """Give the lease up (when the room leaves memory)."""
        await self._release(keys=["zt:lease:" + code], args=[proc])

    async def owner(self, code):
        """The process holding the room's lease, or "" when none does."""
        return await self.r.get("zt:lease:" + code) or ""

    async def alive(self, proc):
        """Say that process `proc` lives, for ALIVE_MS (the hub's clock
        says it every quarter second)."""
        await self.r.set("zt:alive:" + proc, "1", px=ALIVE_MS)

    async def owner_alive(self, code):
        """(the process holding room `code`'s lease or "", whether it said
        it lives within ALIVE_MS), in one round trip: a frozen owner
        (SIGSTOP, a stalled machine) keeps its lease and its listener for
        up to --lease seconds but stops saying it lives."""
        owner, alive = await self._owner_alive(keys=["zt:lease:" + code])
        return owner or "", bool(alive)

    async def owners(self, codes):
        """The owner of each of `codes` ("" where none), in one round trip."""
        if not codes:
            return []
        return [o or "" for o in await self.r.mget(["zt:lease:" + c for c in codes])]

    async def replace(self, code, proc, dead):
        """Take the room's lease from process `dead`, which the caller found
        gone (server.bus.RedisBus.listening); True when this process holds
        it now. Only `dead`'s lease is taken: a process that took the room
        meanwhile keeps it. Its save checks the lease (_SAVE), so `dead`,
        were it alive after all, could not write over this one."""
        return bool(await self._replace(keys=["zt:lease:" + code],
                                        args=[dead, proc, self.lease_ms]))

    async def close(self):
        """Close the connection pool."""
        await self.r.aclose()
