"""Helpers of the room tests: playing seats with the plain policy of
server.client.Client.choose until a condition holds."""

import asyncio


async def play_until(clients, done, timeout=60):
    """Every client plays its turns until `done()` holds."""

    async def seat(c):
        while not done():
            await c.until(lambda c: done() or c.my_turn() or c.state["status"] == "over",
                          timeout)
            if done() or c.state["status"] == "over":
                return
            await c.play(c.choose(), timeout)
            assert not c.refusals, c.refusals

    await asyncio.wait_for(asyncio.gather(*[seat(c) for c in clients]), timeout)


def over(*clients):
    """A condition: the game is over for every client."""
    return lambda: all(c.state is not None and c.state["status"] == "over" for c in clients)
