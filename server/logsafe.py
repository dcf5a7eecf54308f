"""Log lines without secrets: uvicorn logs each WebSocket's path, and a
path holds the room's code. The filter here rewrites every code in a
path to its tag (server.names.code_tag), on the root handler that all
the server's and uvicorn's loggers write to."""

import logging
import re

from server.names import code_tag

_PATH_CODE = re.compile(r"(/ws/|/api/rooms/)([A-Za-z0-9_-]{12})(?![A-Za-z0-9_-])")


def redact(text):
    """`text` with each room code in a path replaced by its tag."""
    return _PATH_CODE.sub(lambda m: m.group(1) + "#" + code_tag(m.group(2)), text)


class Redact(logging.Filter):
    """Rewrites a record's message so it shows no room code."""

    def filter(self, record):
        message = record.getMessage()
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def install():
    """Put the filter on every handler of the root logger."""
    for handler in logging.getLogger().handlers:
        handler.addFilter(Redact())
