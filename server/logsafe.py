"""Log lines without secrets and without a stranger's tracebacks: uvicorn
logs each WebSocket's path, and a path holds the room's code; and it logs
a text frame of invalid UTF-8 (which it rightly closes with 1007) as an
error with a traceback, so any client could fill the log with them. The
filter here rewrites every code in a path to its tag
(server.names.code_tag) and makes that one uvicorn record a one-line
warning, on the root handler that the server's and uvicorn's loggers
write to. At the debug level the websockets library logs every frame's
text (a hello holds a seat token, a welcome the room's code): such a line
keeps only the frame's kind and size."""

import logging
import re

from server.names import code_tag

_PATH_CODE = re.compile(r"(/ws/|/api/rooms/)([A-Za-z0-9_-]{12})(?![A-Za-z0-9_-])")


# uvicorn's messages for what a client did wrong, logged with a traceback
_CLIENT_FAULTS = frozenset({"Invalid UTF-8 sequence received from client."})
# websockets' debug lines of a frame sent or received: "< %s" % frame
_FRAME_LINES = frozenset({"< %s", "> %s"})


def redact(text):
    """`text` with each room code in a path replaced by its tag."""
    return _PATH_CODE.sub(lambda m: m.group(1) + "#" + code_tag(m.group(2)), text)


class Redact(logging.Filter):
    """Rewrites a record's message so it shows no room code."""

    def filter(self, record):
        if record.name.startswith("uvicorn") and record.msg in _CLIENT_FAULTS:
            record.exc_info = record.exc_text = None  # the client's fault, not a bug here
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        if record.msg in _FRAME_LINES and record.args:
            frame = record.args[0] if isinstance(record.args, tuple) else record.args
            data = getattr(frame, "data", None)
            if data is not None:  # a frame's payload may hold a token: kind and size only
                kind = getattr(getattr(frame, "opcode", None), "name", "FRAME")
                record.msg, record.args = "%s %s [%d bytes]", (record.msg[0], kind, len(data))
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def install():
    """Put the filter on every handler of the root logger."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redact())
