"""The rooms in memory: a room this process owns (`Live`), its snapshot
message, when its whole state is written, and how a written room is
read back (`load_room`: the state and the actions saved after it)."""

import asyncio
import logging

import orjson

from server.names import code_tag
from server.room import Room, compact, parse_action

log = logging.getLogger("server")

# The room's whole state is written with its events at least every this
# many events, and whenever an event is not an action; in between only the
# events are appended (load_room replays them).
STATE_EVERY = 16
ACT = '"e":{"k":"act"'  # in the first 48 characters of an action's event message


def state_due(room, saved, messages):
    """True when the room's whole state must be written with `messages`
    (its new event messages; the state was last written at event `saved`):
    STATE_EVERY events since, or an event other than an action (a seat
    joined or went away, a game began or ended ...), which a replay could
    not make again."""
    if room.seq - saved > STATE_EVERY:
        return True
    return not all(text.find(ACT, 0, 48) >= 0 for _, text in messages)


def snap_message(room):
    """The snapshot message of `room`: its whole public state and the
    number of its last event."""
    return compact({"t": "snap", "n": room.seq, "s": room.public()})


def load_room(state, texts):
    """The Room of a written `state` and the event messages saved after it
    (texts, in order): each is an action (Hub._keep wrote the state for
    anything else), carried out again, a turn it began stamped with the
    time it began then (`at`). The dice of a roll depend only on the
    room's secret and the roll's number: the replay rolls what was
    rolled."""
    room = Room(state)
    for text in texts:
        msg = orjson.loads(text)
        e = msg["e"]
        if e.get("k") != "act" or msg["n"] != room.seq + 1:
            log.error("room %s: event %d cannot be replayed", code_tag(room.code), msg["n"])
            break
        room.act(e["seat"], parse_action(e["a"]), e["by"], e.get("at"))
    room.take_messages()
    room.rebase()
    return room


class Live:
    """A room this process owns: the room, its lock, who is connected to
    each seat (process, connection id), and the clocks of away seats."""

    def __init__(self, room, now, settings):
        self.room = room
        # the stand-in's deadline in the state: the room's own wait, else the server's
        room.wait = room.state.get("wait") or settings.standin_after
        self.lock = asyncio.Lock()
        self.present = {}  # seat -> (proc, conn id)
        self.gone = {i: now for i in range(len(room.state["seats"]))}
        self.watchers = 0
        self.bot_task = None
        self.idle_since = now
        self.saved = -1  # the seq of the state last written (-1: none yet)
        self.snap = (None, "")  # (room, its snapshot message): made once per change

    def snap_text(self):
        """The snapshot message of the room as it is (made once per change)."""
        room, text = self.snap
        if room is not self.room:
            text = snap_message(self.room)
            self.snap = (self.room, text)
        return text
