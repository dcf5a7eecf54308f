"""The title on the panel before the game's code has loaded.

Loading the app's modules takes about 300 ms on the chip, a blank panel
meanwhile. So the boot keeps the title screen's first frame in FILE, beside
the saves (exactly the display buffer's bytes), and `show` puts it on the
panel first thing, with only the board and the display driver loaded. The
app then draws its own title: where it equals the picture (the usual
case) the display sends nothing; where it differs (a game was saved since,
the language changed) the changes follow a moment later, and `remember`
keeps the new picture for the next boot.

The first boot after flashing has no kept picture yet: then SHIPPED, the
title of a fresh device (default settings, no saves) that the simulator
drew when the tree was staged (tools.deploy), goes on the panel instead:
from the file system, or from the ROMFS partition (ROM) when the game's
code is there (tools/romfs.py). A missing or wrong-sized file shows
nothing.
"""

FILE = "/data/title.frm"
SHIPPED = "/firmware/title.frm"
ROM = "/rom"  # where MicroPython mounts a ROMFS partition


def show(display, path=FILE, shipped=SHIPPED):
    """Put the kept title on `display`, else the shipped one (None: no
    fallback) from the file system or the ROMFS partition; True when one
    was shown."""
    if _show(display, path):
        return True
    return shipped is not None and (_show(display, shipped) or _show(display, ROM + shipped))


def _show(display, path):
    """Put the frame kept in `path` on `display`; True when it was one."""
    buf = display.buffer
    try:
        with open(path, "rb") as f:
            if f.readinto(buf) != len(buf) or f.read(1):
                display.fill(0)
                return False
    except OSError:
        return False
    display.show()
    return True


def remember(display, path=FILE):
    """Keep the frame now on `display` for the next boot (written only when
    it differs from the kept one: no flash wear on an ordinary boot)."""
    buf = display.buffer
    try:
        with open(path, "rb") as f:
            if f.read() == buf:
                return
    except OSError:
        pass
    try:
        with open(path, "wb") as f:
            f.write(display.buffer)
    except OSError:  # a full flash: the next boot just starts without it
        pass


def early(machine=None):
    """The board's display with the kept title on it (when there is one).
    For the real boot (firmware.main), before the rest of the game loads."""
    from firmware.board import load_board, make_display

    if machine is None:
        import machine
    display = make_display(load_board(), machine)
    show(display)
    return display
