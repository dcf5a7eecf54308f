"""server/wsfast.py: event frames encoded once and written straight to
the sockets, reading paused only when a client is far ahead of the
server, and frames cut from the bytes as they come, through a real
uvicorn server and real WebSockets."""

import asyncio

from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from server.client import Client, create_room, http, join_room
from server.wsfast import text_frame
from tests.server.play import over, play_until


def parse(raw):
    """The one frame in `raw` as websockets reads a server's frame."""
    reader = StreamReader()
    reader.feed_data(raw)
    parser = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parser)
    except StopIteration as done:
        assert not reader.buffer, "bytes after the frame"
        return done.value
    raise AssertionError("the frame is incomplete")


def test_text_frame_is_what_websockets_reads():
    for size in (0, 1, 125, 126, 127, 65535, 65536, 70000):
        data = ("ä" * size).encode()[:size]
        frame = parse(text_frame(data))
        assert frame.opcode == Opcode.TEXT and frame.fin and frame.data == data


def test_a_game_goes_out_as_frames_written_once(server):
    info = create_room(server.base, "Anna")
    bert = join_room(server.base, info["code"], "Bert")
    before = http(server.base, "GET", "/api/stats")["written"]

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        await play_until([a, b], over)
        await b.until(lambda c: c.n == a.n)
        await a.close()
        await b.close()
        return a, b

    a, b = asyncio.run(go())
    # Client.recv fails on a gap in the numbers; both saw the same events.
    assert a.events == b.events and len(a.events) > 10
    written = http(server.base, "GET", "/api/stats")["written"] - before
    assert written >= len(a.events)  # straight to the sockets, not through the writer


def test_a_client_far_ahead_is_read_with_pauses_and_answered_in_order(server):
    info = create_room(server.base, "Anna")
    join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        await a.connect()
        assert a.ws is not None
        # Far more than uvicorn's 32 unread messages at once: reading
        # pauses and resumes; every one is answered, none lost.
        for i in range(300):
            await a.ws.send('{"t":"ping","id":%d}' % i)
        await a.until(lambda c: c.pongs >= 300, 30)
        await a.send({"t": "ping"})
        await a.until(lambda c: c.pongs >= 301, 10)
        await a.close()
        return a

    a = asyncio.run(go())
    assert a.pongs == 301 and not a.refusals


def test_frames_cut_from_bytes_that_come_one_at_a_time(server):
    info = create_room(server.base, "Anna")
    join_room(server.base, info["code"], "Bert")

    def masked(opcode, data, fin=True):
        return Frame(opcode, data, fin).serialize(mask=True, extensions=[])

    pad = '{"t":"ping","pad":"%s"}'
    raw = b"".join([
        masked(Opcode.TEXT, b'{"t":"ping"}'),
        masked(Opcode.PING, b"beat"),  # a control frame between: websockets answers it
        masked(Opcode.TEXT, (pad % ("x" * 300)).encode()),  # a 16-bit length
        masked(Opcode.TEXT, b'{"t":', fin=False),  # a fragmented message: websockets joins it
        masked(Opcode.CONT, b'"ping"}'),
        masked(Opcode.TEXT, (pad % "\u00e4").encode()),
        masked(Opcode.TEXT, (pad % "ä").encode()),  # UTF-8 beyond ASCII
    ])

    async def go():
        a = Client(server.base, info["code"], info["token"])
        await a.connect()
        assert a.ws is not None
        for i in range(len(raw)):  # one byte a write: every cut a frame can have
            a.ws.transport.write(raw[i:i + 1])
            await asyncio.sleep(0.002)
        await a.until(lambda c: c.pongs >= 5, 10)
        await a.send({"t": "ping"})  # the connection still reads whole frames
        await a.until(lambda c: c.pongs >= 6, 10)
        await a.close()
        return a

    a = asyncio.run(go())
    assert a.pongs == 6 and not a.refusals and a.close_code in (None, 1000)


def test_pings_answered_off_the_socket_and_in_order(server):
    info = create_room(server.base, "Anna")
    join_room(server.base, info["code"], "Bert")
    before = http(server.base, "GET", "/api/stats")["quick"]

    async def go():
        a = Client(server.base, info["code"], info["token"], heartbeat=None)
        await a.connect()
        assert a.ws is not None
        for i in range(20):  # one at a time: the connection's task waits each time
            await a.send({"t": "ping"})
            await a.until(lambda c, i=i: c.pongs > i, 10)
        # A ping behind an action, both sent at once: the action's answer
        # (a refusal: not Anna's turn to keep) comes first, then the pong.
        await a.ws.send('{"t":"act","a":["keep",[1]],"id":7}')
        await a.ws.send('{"t":"ping"}')
        first, second = await a.recv(10), await a.recv(10)
        await a.close()
        return a, first, second

    a, first, second = asyncio.run(go())
    assert first is not None and (first["t"], first["re"]) == ("no", 7)
    assert second is not None and second["t"] == "pong" and a.pongs == 21
    assert http(server.base, "GET", "/api/stats")["quick"] - before >= 20


def test_beats_are_taken_off_the_socket_without_an_answer(server):
    info = create_room(server.base, "Anna")
    join_room(server.base, info["code"], "Bert")
    before = http(server.base, "GET", "/api/stats")

    async def go():
        a = Client(server.base, info["code"], info["token"], heartbeat=None)
        await a.connect()
        for _ in range(10):  # one at a time: each taken off the socket (app.quick)
            await a.send({"t": "beat"})
            await asyncio.sleep(0.02)
        await a.send({"t": "ping"})
        first = await a.recv(10)  # the pong: the beats got no answer
        await a.close()
        return a, first

    a, first = asyncio.run(go())
    assert first is not None and first["t"] == "pong" and not a.refusals
    after = http(server.base, "GET", "/api/stats")
    assert after["beats"] - before["beats"] == 10
    assert after["quick"] - before["quick"] == 11
