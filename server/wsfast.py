"""uvicorn's WebSocket protocol (websockets-sansio) with two shortcuts
for the room server, where every seat of a room gets the same event
frames and sends many small messages.

- Sending: `text_frame` encodes a text message as a whole WebSocket
  frame once (a server's frames are not masked: the same bytes for every
  connection), and the connection's `write` callable, offered to the app
  in the ASGI scope's extensions under EXTENSION, hands those bytes to
  the socket at once: no ASGI send, no frame built per connection, no
  writer task woken. It refuses (False) whenever the ordinary path must
  be taken: before the handshake, after a close, or while the socket's
  buffer is over its high-water mark (uvicorn's send waits for it then).
- Receiving: uvicorn pauses reading after every message and resumes it
  when the app takes it (two changes of the event loop's poller per
  message). Here reading pauses only when `ws_max_queue` messages wait
  unread, and resumes once the app has taken half of them: a client still
  cannot make the server hold more than that.
- Taking: the app may read the messages with the protocol's own
  `receive` (offered as "receive", without Starlette's WebSocket layer),
  and may offer a `handler(text) -> bool` (through "listen") that gets
  each plain text message first, while no message waits unread before it:
  True when it dealt with the message there and then (the room server
  answers a ping and carries out an action so, without waking the
  connection's task), False to
  queue it for `receive` as usual.
- Parsing: the bytes that come are cut into whole frames here (a header
  of 2 to 14 bytes says how long a frame is). A whole, masked, unfragmented
  text frame of valid UTF-8 while the connection is open (every message a
  page sends) is unmasked and handed to the app at once; every other frame
  (pings, pongs, close, binary, fragments, bad UTF-8, bad bits) goes whole
  to websockets' parser as before, which therefore always stands at a
  frame's start. A frame longer than `ws_max_size` goes to websockets at
  once (it refuses it), so nothing larger is ever buffered here.

Everything else (handshake, pings, close, bad frames) is uvicorn's. At
the debug log level both shortcuts are off: websockets then logs every
frame (server/logsafe.py keeps only its kind and size)."""

import logging
import struct

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

try:
    from websockets.speedups import apply_mask
except ImportError:  # websockets without its C extension
    from websockets.utils import apply_mask

EXTENSION = "zehntausend.frames"  # scope["extensions"][EXTENSION]["write"]


def text_frame(data):
    """The whole unmasked, unfragmented text frame of UTF-8 `data` (bytes)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, n) + data
    return struct.pack("!BBQ", 0x81, 127, n) + data


def frame_end(buf, i, max_size):
    """Where the frame starting at buf[i] ends: an index, None while it is
    not all there, -1 when its payload is longer than `max_size`."""
    have = len(buf) - i
    if have < 2:
        return None
    size = buf[i + 1] & 0x7F
    head = 2
    if size == 126:
        head = 4
        if have < head:
            return None
        size = (buf[i + 2] << 8) | buf[i + 3]
    elif size == 127:
        head = 10
        if have < head:
            return None
        size = int.from_bytes(buf[i + 2:i + 10], "big")
    if size > max_size:
        return -1
    if buf[i + 1] & 0x80:
        head += 4  # the mask
    end = i + head + size
    return end if end <= len(buf) else None


class FramesProtocol(WebSocketsSansIOProtocol):
    """See the module docstring."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # websockets logs each frame it reads or writes at the debug level
        self.shortcuts = not self.conn.logger.isEnabledFor(logging.DEBUG)
        self.handed_over = False  # uvicorn's HTTP protocol handed the request over
        # False: every byte straight to websockets (after a huge frame, or debugging)
        self.cutting = self.shortcuts
        self.unread = b""  # the start of a frame not all there yet
        self.handler = None  # the app's handler(text) -> bool (see the module docstring)

    def handle_connect(self, event):
        """uvicorn's, and the `write` callable in the scope it hands the app
        (the app's task has not run yet)."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None and self.shortcuts:
            scope["extensions"][EXTENSION] = {"write": self.write, "receive": self.receive,
                                              "listen": self.listen}

    def listen(self, handler):
        """Offer each plain text message to `handler(text) -> bool` first
        (None: no more); see the module docstring."""
        self.handler = handler

    def write(self, frame):
        """Write a whole frame (text_frame) now; False when it must go
        through the ASGI send instead (see the module docstring)."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or self.initial_response is not None or not self.writable.is_set()
                or self.transport.is_closing()):
            return False
        self.transport.write(frame)
        return True

    def data_received(self, data):
        """The first call is the handshake's request (uvicorn's HTTP
        protocol hands over exactly that, nothing after it): websockets'.
        Then frames, cut here (see the module docstring)."""
        if not self.handed_over or not self.cutting:
            self.handed_over = True
            super().data_received(data)
            if self.conn.reader.buffer:  # more than a request came: never cut
                self.cutting = False
            return
        buf = self.unread + data if self.unread else data
        self.unread = b""
        i = 0
        while i < len(buf):
            end = frame_end(buf, i, self.config.ws_max_size)
            if end is None:
                self.unread = buf[i:]
                return
            if end < 0:  # too long: websockets closes with 1009
                self.cutting = False
                super().data_received(buf[i:])
                return
            if not self.text_to_app(buf, i, end):
                super().data_received(buf[i:end])
            i = end

    def text_to_app(self, buf, i, end):
        """Hand the whole frame buf[i:end] to the app when it is a plain
        text message (see the module docstring); False when websockets
        must read it."""
        if (buf[i] != 0x81 or not buf[i + 1] & 0x80 or self.close_sent
                or self.conn.state is not State.OPEN or self.conn.current_size is not None):
            return False  # not FIN + text without RSV bits, not masked, or not open
        size = buf[i + 1] & 0x7F
        head = i + (2 if size < 126 else 4 if size == 126 else 10)
        try:
            text = apply_mask(buf[head + 4:end], buf[head:head + 4]).decode()
        except UnicodeDecodeError:
            return False  # websockets and uvicorn close with 1007
        handler = self.handler
        if handler is None or not self.queue.empty() or not handler(text):
            self.queue.put_nowait({"type": "websocket.receive", "text": text})
            self.maybe_pause()
        return True

    def send_receive_event_to_app(self):
        """uvicorn's, pausing only when the app is `ws_max_queue` messages behind."""
        paused = self.read_paused
        self.read_paused = True  # uvicorn's pauses only when not paused yet
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        self.maybe_pause()

    def maybe_pause(self):
        """Pause reading when `ws_max_queue` messages wait for the app."""
        if not self.read_paused and self.queue.qsize() >= self.config.ws_max_queue:
            self.read_paused = True
            self.transport.pause_reading()

    async def receive(self):
        """The next message for the app; reading resumes once half the
        waiting ones are taken."""
        message = await self.queue.get()
        if self.read_paused and self.queue.qsize() <= self.config.ws_max_queue // 2:
            self.read_paused = False
            self.transport.resume_reading()
        return message
