"""tools/serve_floor.py does the work it stands for: a ping answered, an
action's event written to all four seats of its room and no other.
(Its figure, the CPU per action, is a benchmark: `make serve-floor`.)"""

import asyncio

from tools import serve_floor
from tools.serve_bench import free_port


def test_every_action_reaches_the_four_seats_of_its_room_and_pings_are_answered(monkeypatch):
    monkeypatch.setattr(serve_floor, "PING_EVERY", 0.5)  # pings within the short run
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
