"""A seat whose line freezes (issue 31): no FIN, no RST, the socket stays
open and simply carries nothing. A TCP proxy in the test stands for the
network: it forwards until `freeze()`, then keeps both sockets open and
passes nothing on. The room shows the seat away (the issue: within 10 s
of its last message; the time is printed, and asserted only not before
the silence rule), stamped with the server's time of that message, lets
the stand-in play `--standin-after` seconds from then (not before), and
tells the person coming back what was played for them."""

import asyncio
import time

import pytest

from server.client import Client, create_room, join_room
from server.liveness import SILENT_AFTER
from tests import soak

STANDIN_AFTER = 12.0  # longer than the silence takes to notice
LIMIT_S = 10.0  # the issue: away on every page within 10 s of the last message
HANG_S = 30  # beyond a limit of the issue: only a hang waits that long
QUIET = soak.length(1.5, 2.5)  # silences (x SILENT_AFTER) a heartbeat outlasts


class FreezingProxy:
    """127.0.0.1:port -> target port, byte for byte, until frozen."""

    def __init__(self, target_port):
        self.target_port = target_port
        self.frozen = False
        self.writers = []
        self.server = None
        self.port = 0

    async def start(self):
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    def freeze(self):
        """From now on nothing passes either way; nothing is closed."""
        self.frozen = True

    async def _serve(self, reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self.writers += [writer, up_writer]

        async def pipe(src, dst):
            while True:
                data = await src.read(65536)
                if not data:
                    break
                if not self.frozen:
                    dst.write(data)
                    await dst.drain()
            if not self.frozen:
                dst.close()

        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer),
                                 return_exceptions=True)
        except asyncio.CancelledError:  # the test's loop ends
            pass

    async def stop(self):
        for w in self.writers:
            w.close()
        if self.server is not None:
            self.server.close()


def test_a_frozen_line_is_away_within_seconds_and_the_standin_plays_on_time(server_factory,
                                                                            figure):
    server = server_factory("--away-after", "5", "--standin-after", str(STANDIN_AFTER))
    info = create_room(server.base, "Anna", people=2)
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        proxy = FreezingProxy(server.port)
        await proxy.start()
        a = Client(server.base, info["code"], info["token"])
        b = Client("http://127.0.0.1:%d" % proxy.port, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        # Anna's turn to its end: Bert's turn begins, Bert is there.
        while a.my_turn():
            await a.play(a.choose())
        await b.until(lambda c: c.my_turn(), 10)
        # Bert's last message goes through; then the line freezes.
        pongs = b.pongs
        await b.send({"t": "ping"})
        last = time.time()
        await b.until(lambda c: c.pongs > pongs, 5)
        proxy.freeze()
        away = await a.until(lambda c: any(e["k"] == "away" and e["seat"] == 1
                                           for _, e in c.events), LIMIT_S + HANG_S)
        seen_away = time.time()
        at = away["e"]["at"]
        figure("away shown %.1f s after the last message (the issue: within %d s; stamped "
               "%.1f s after it)" % (seen_away - last, LIMIT_S, at - last))
        assert seen_away - last >= SILENT_AFTER - 0.5  # not before the heartbeats were missed
        assert abs(at - last) <= 1.0  # the time it went, not when it was noticed
        state = a.state
        assert state["seats"][1]["away"] and state["seats"][1]["gone"] == at
        assert state["standin_at"] == round(at + STANDIN_AFTER, 1)
        # The stand-in: STANDIN_AFTER from the last message, not from the notice.
        await a.until(lambda c: c.state["seats"][1]["standin"], STANDIN_AFTER + HANG_S)
        started = time.time()
        figure("stand-in began %.1f s after the last message (--standin-after %.0f)"
               % (started - last, STANDIN_AFTER))
        assert started >= at + STANDIN_AFTER - 0.3, started - at  # never before its time
        await a.until(lambda c: c.state["cur"] == 0, 30)  # it played Bert's turn out
        played = [e for _, e in a.events if e["k"] == "act" and e["seat"] == 1]
        assert played and all(e["by"] == "s" for e in played)
        # Bert's page reconnects (a new line): told what was played for him.
        await b.reconnect(server.base)
        await b.until(lambda c: any(e["k"] == "back" and e["seat"] == 1
                                    for _, e in c.events), 10)
        back = next(e for _, e in b.events if e["k"] == "back" and e["seat"] == 1)
        assert back["played"]["actions"] == len(played)
        assert back["played"]["turns"] == 1
        assert back["played"]["score"] == b.state["seats"][1]["score"]
        assert not b.state["seats"][1]["away"] and b.state["seats"][1]["gone"] is None
        await a.close()
        await b.close()
        await proxy.stop()

    asyncio.run(asyncio.wait_for(go(), 240))  # a bound only a hang reaches


@pytest.mark.soak
@pytest.mark.parametrize("beats", [False, True])
def test_a_quiet_client_that_only_sends_heartbeats_stays(server_factory, beats):
    # The heartbeat alone keeps a seat: QUIET x SILENT_AFTER of nothing
    # else (1.5 in make test, 2.5 in make soak), either the client's own
    # (pings: nothing comes to it, so no beats) or a beat every 2 s, which
    # gets no answer.
    server = server_factory("--away-after", "5")
    info = create_room(server.base, "Anna", people=2)
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"], heartbeat=None if beats else 3.0)
        await a.connect()
        await b.connect()
        end = time.monotonic() + QUIET * SILENT_AFTER
        while time.monotonic() < end:
            if not beats:
                await asyncio.sleep(2.0)  # b's own heartbeat pings meanwhile
                continue
            await b.send({"t": "beat"})
            with pytest.raises(asyncio.TimeoutError):
                await b.recv(2.0)  # no answer to a beat
        try:
            while await a.recv(0.5) is not None:  # what Anna was sent meanwhile
                pass
        except asyncio.TimeoutError:
            pass
        assert b.close_code is None
        assert not any(e["k"] == "away" for _, e in a.events), a.events
        await b.close()
        await a.close()

    asyncio.run(asyncio.wait_for(go(), 180))  # a bound only a hang reaches


def test_a_client_that_never_pings_is_closed_and_shown_away(server_factory, figure):
    server = server_factory("--away-after", "5")
    info = create_room(server.base, "Anna", people=2)
    bert = join_room(server.base, info["code"], "Bert")

    async def go():
        a = Client(server.base, info["code"], info["token"])
        b = Client(server.base, info["code"], bert["token"], heartbeat=None)
        await a.connect()
        await b.connect()
        began = time.monotonic()
        try:
            while await b.recv(LIMIT_S + 20) is not None:
                pass
        except asyncio.TimeoutError:
            raise AssertionError("the silent connection was not closed")
        assert b.close_code == 4005
        took = time.monotonic() - began
        figure("the silent connection closed after %.1f s (silence limit %.1f s; the issue: "
               "away within %d s)" % (took, SILENT_AFTER, LIMIT_S))
        assert took >= SILENT_AFTER - 0.5, took  # not before the heartbeats were missed
        await a.until(lambda c: any(e["k"] == "away" and e["seat"] == 1
                                    for _, e in c.events), 5)
        await a.close()

    asyncio.run(asyncio.wait_for(go(), 180))  # a bound only a hang reaches


def test_a_frozen_line_to_the_other_process_is_stamped_by_its_last_message(
        redis_url, server_factory, tmp_path, figure):
    # With Redis the frozen connection may be served by a process that does
    # not own the room: its silence crosses to the owner with its time.
    a_proc = server_factory("--redis", redis_url, "--away-after", "5", data=tmp_path / "a")
    b_proc = server_factory("--redis", redis_url, "--away-after", "5", data=tmp_path / "b")
    info = create_room(a_proc.base, "Anna", people=2)  # owned by A
    bert = join_room(a_proc.base, info["code"], "Bert")

    async def go():
        proxy = FreezingProxy(b_proc.port)
        await proxy.start()
        a = Client(a_proc.base, info["code"], info["token"])
        b = Client("http://127.0.0.1:%d" % proxy.port, info["code"], bert["token"])
        await a.connect()
        await b.connect()
        pongs = b.pongs
        await b.send({"t": "ping"})
        last = time.time()
        await b.until(lambda c: c.pongs > pongs, 5)
        proxy.freeze()
        away = await a.until(lambda c: any(e["k"] == "away" and e["seat"] == 1
                                           for _, e in c.events), LIMIT_S + HANG_S)
        seen_away = time.time()
        figure("other process: away shown %.1f s after the last message (the issue: within "
               "%d s), stamped %+.1f s" % (seen_away - last, LIMIT_S, away["e"]["at"] - last))
        assert abs(away["e"]["at"] - last) <= 1.0
        await a.close()
        await proxy.stop()

    asyncio.run(asyncio.wait_for(go(), 180))  # a bound only a hang reaches
