"""tools/serve_floor.py does the work it stands for: a ping answered, an
action's event written to all four seats of its room and no other; with
--game the action played in a real room and saved before it is sent.
(Its figure, the CPU per action, is a benchmark: `make serve-floor`.)"""

import asyncio
import sqlite3

from tools import serve_bench, serve_floor
from tools.serve_bench import free_port


def test_every_action_reaches_the_four_seats_of_its_room_and_pings_are_answered(monkeypatch):
    # pings within the short run (serve_bench.beat_or_ping's heartbeat)
    monkeypatch.setattr(serve_bench, "PING_EVERY", 0.5)
    port = free_port()
    proc = serve_floor.start_floor(port)
    try:
        sent, events, pongs = asyncio.run(serve_floor.drive(port, 2, 2.2))
    finally:
        proc.terminate()
        proc.wait(10)
    assert sent == 6  # two rooms, three turns
    assert events == 4 * sent
    assert pongs >= 8  # every seat pinged at the first turn at least


def test_with_game_every_action_is_played_stored_and_sent_to_the_four_seats(tmp_path):
    port = free_port()
    proc = serve_floor.start_floor(port, data=tmp_path)
    try:
        sent, events, _ = asyncio.run(serve_floor.drive(port, 2, 2.2))
    finally:
        proc.terminate()
        proc.wait(10)
    assert sent == 6
    assert events >= 4 * sent and events % 4 == 0  # an action's messages, to every seat
    db = sqlite3.connect(tmp_path / "rooms.sqlite3")
    stored = db.execute("SELECT count(*) FROM events").fetchone()[0]
    acts = db.execute("SELECT count(*) FROM events WHERE msg LIKE '%\"k\":\"act\"%'").fetchone()[0]
    assert acts == sent  # each action played by Room.act and saved before it was sent
    assert stored >= acts + 2 * 5  # and each room's open, joins and start
