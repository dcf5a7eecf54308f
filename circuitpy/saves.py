"""Saves on CircuitPython: the CIRCUITPY drive, remounted for the game at boot.

Chosen over `microcontroller.nvm`: on the RP2040 nvm is one 4 KB flash
sector, and every write erases and reprograms all of it, so two copies
with a CRC in it do not survive a cut inside that erase (both copies go
at once), and each save, one per decision, wears the same sector (no
wear levelling). On the drive the saves are files under /data, written
the way firmware.store writes them on MicroPython's littlefs (a `.new`
written and read back, the old one kept as `.bak`, renames): a cut leaves
the new or the previous game loadable (tests/cpython/test_power_cut.py
proves the protocol on the project's power-cut fakes). The drive's FAT
is not a journaling file system as littlefs is: a cut inside the FAT's
own update can still cost a file; that is the risk every CircuitPython
program that writes the drive takes.

CircuitPython lets code write the drive only after
`storage.remount("/", readonly=False)` in boot.py, and the computer then
sees it read-only. `remount_for_saves` is boot.py's choice: the game
gets the drive unless the player holds B while the board starts, which
leaves it to the computer (to copy a new version of the game; the game
then plays but cannot save, and says so when a save fails).
"""

EROFS = 30  # errno of a write to a read-only file system


def remount_for_saves(storage, usb_wanted):
    """In boot.py: give the drive to the game (writable for code, read-only
    over USB), unless `usb_wanted`; returns True when the game has it."""
    if usb_wanted:
        return False
    storage.remount("/", readonly=False)
    return True


def make_store(root="/data"):
    """The game's Store on folder `root` of the drive. The folder is made
    when missing and the drive is the game's; on a drive left to USB (no
    folder can be made) the Store is still made: loads find no save, a
    save fails with a message, the game plays on."""
    import os

    from firmware.store import DirFS, Store

    try:
        os.stat(root)
    except OSError:
        try:
            os.mkdir(root)
        except OSError as e:
            if not e.args or e.args[0] != EROFS:
                raise
    return Store(DirFS(root))
