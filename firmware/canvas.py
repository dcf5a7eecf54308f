"""The frame buffer of a host that draws the frame itself (the browser
page, the simulator): a `framebuf.FrameBuffer` with the two panel calls
the supervisor's failure message makes (firmware.recovery.show), which
there have nothing to do."""

import framebuf


class Canvas(framebuf.FrameBuffer):
    """A 1-bit frame buffer with the panel's `refresh` and `show` (no-ops:
    the host draws whatever a step leaves in the buffer)."""

    def refresh(self):
        """Nothing to send: the host always draws the whole frame."""

    def show(self):
        """Nothing to send: the host draws the frame after the step."""
