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

Everything else (handshake, pings, close, bad frames) is uvicorn's."""

import struct

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

EXTENSION = "zehntausend.frames"  # scope["extensions"][EXTENSION]["write"]


def text_frame(data):
    """The whole unmasked, unfragmented text frame of UTF-8 `data` (bytes)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, n) + data
    return struct.pack("!BBQ", 0x81, 127, n) + data


class FramesProtocol(WebSocketsSansIOProtocol):
    """See the module docstring."""

    def handle_connect(self, event):
        """uvicorn's, and the `write` callable in the scope it hands the app
        (the app's task has not run yet)."""
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][EXTENSION] = {"write": self.write}

    def write(self, frame):
        """Write a whole frame (text_frame) now; False when it must go
        through the ASGI send instead (see the module docstring)."""
        if (not self.handshake_complete or self.close_sent or self.disconnected
                or self.initial_response is not None or not self.writable.is_set()
                or self.transport.is_closing()):
            return False
        self.transport.write(frame)
        return True

    def send_receive_event_to_app(self):
        """uvicorn's, pausing only when the app is `ws_max_queue` messages behind."""
        paused = self.read_paused
        self.read_paused = True  # uvicorn's pauses only when not paused yet
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= self.config.ws_max_queue:
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
