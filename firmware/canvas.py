"""What a host that draws the frame itself (the browser page, the
simulator) needs: `Canvas`, a `framebuf.FrameBuffer` with the two panel
calls the supervisor's failure message makes (firmware.recovery.show),
which there have nothing to do, and `Hosted`, the supervisor of an app
that the host steps with the held buttons. The device loop needs
neither."""

import framebuf

from firmware.supervisor import Supervisor


class Canvas(framebuf.FrameBuffer):
    """A 1-bit frame buffer with the panel's `refresh` and `show` (no-ops:
    the host draws whatever a step leaves in the buffer)."""

    def refresh(self):
        """Nothing to send: the host always draws the whole frame."""

    def show(self):
        """Nothing to send: the host draws the frame after the step."""


class Hosted(Supervisor):
    """firmware.supervisor.Supervisor for a host that hands in the held
    buttons each step (`guarded_step`)."""

    def guarded_step(self, now, held):
        """One step of the app with the `held` button bits; True when the
        canvas changed. A failure, and a press after it, go the
        supervisor's way (see the module docstring)."""
        if self.recrash.reached(now):  # cleared once passed (see firmware.clock.Due)
            self.recrash.clear()
        try:
            if self.fault is not None:
                if not self.after_fault(now, held):
                    return False
            self.swallow &= held
            # (no app only when a host let go of it: that fails like any step)
            return self.app.step(now, held & ~self.swallow)  # pyright: ignore[reportOptionalMemberAccess]
        except Exception as e:  # the host shows a message instead of dying
            self.failed(e, now, held)
            return True
