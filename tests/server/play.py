"""Helpers of the room tests: playing seats with the plain policy of
server.client.choose (or another) until a condition holds."""

import asyncio

from server.client import Client, choose


async def play_until(clients, done, timeout=60, policy=choose):
    """Every client plays its turns until `done(client)` holds for it,
    each move `policy(state)` of the client's public state. Each client
    judges by its own view: a condition on another client could turn true
    while this one waits for a message that never comes."""

    async def seat(c):
        while True:
            await c.until(lambda c: done(c) or c.my_turn(), timeout)
            if done(c):
                return
            await c.play(policy(c.state), timeout)
            assert not c.refusals, c.refusals

    try:
        await asyncio.wait_for(asyncio.gather(*[seat(c) for c in clients]), timeout)
    except asyncio.TimeoutError:
        raise AssertionError("stuck: " + "; ".join(describe(c) for c in clients))


def over(c):
    """A condition: the game is over (for this client)."""
    return c.state is not None and c.state["status"] == "over"


def describe(c):
    """One line of what a client knows, for a test that got stuck."""
    s = c.state or {}
    return "seat %d at event %d: %s phase %s, seat %s to move, last %s, refusals %s" % (
        c.seat, c.n, s.get("status"), s.get("phase"), s.get("cur"),
        c.events[-1:] and c.events[-1][1].get("k"), c.refusals[-3:])


async def play_a_game(base, code, tokens):
    """Seats with `tokens` connect to room `code`, play its game to the end
    with the plain policy and close; their clients."""
    clients = [Client(base, code, token) for token in tokens]
    for c in clients:
        await c.connect()
    await play_until(clients, over)
    for c in clients:
        await c.close()
    return clients
