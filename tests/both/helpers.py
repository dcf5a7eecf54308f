"""Assertion helpers that work under CPython and under MicroPython (no pytest),
and the fake board: importing this module puts tools/fakes first on sys.path,
so that `import machine` finds the fake (tools/fakes/machine.py)."""

import sys

_FAKES = __file__.replace("\\", "/").rsplit("/", 2)[0] + "/../tools/fakes"
if _FAKES not in sys.path:
    sys.path.insert(0, _FAKES)


def raises(exc_type, fn, *args, **kwargs):
    """Call ``fn(*args, **kwargs)`` and return the ``exc_type`` exception it raises.

    Raises AssertionError when ``fn`` returns normally or raises something else.
    """
    try:
        fn(*args, **kwargs)
    except exc_type as exc:
        return exc
    except Exception as exc:
        other = exc
    else:
        other = None
    # Raised outside the except clause: MicroPython warns about exception chaining.
    if other is None:
        raise AssertionError("expected %s, nothing was raised" % exc_type.__name__)
    raise AssertionError(
        "expected %s, got %s: %s" % (exc_type.__name__, type(other).__name__, other)
    )


def tmpdir(prefix="zt-test"):
    """A new empty folder under /tmp (os.mkdir works on both interpreters)."""
    import os

    if hasattr(os, "getpid"):
        base = "/tmp/%s-%d" % (prefix, os.getpid())
    else:
        import random

        base = "/tmp/%s-%d" % (prefix, random.getrandbits(30))
    n = 0
    while True:
        path = "%s-%d" % (base, n)
        try:
            os.mkdir(path)
            return path
        except OSError:
            n += 1


def rmtree(path):
    """Remove the folder `path` and the files in it (no subfolders)."""
    import os

    for name in os.listdir(path):
        os.remove(path + "/" + name)
    os.rmdir(path)


_PLANS = {}


def shipped_plan(rules):
    """The Expert's plan of a preset as the device reads it (from its file
    in tables/, piece by piece), else solved; one plan is kept at a time,
    which keeps the MicroPython heap small."""
    from engine.turnplan import TurnPlan

    key = rules.encode()
    if key not in _PLANS:
        _PLANS.clear()
        try:
            with open("tables/plan-%s.bin" % rules.plan_rules().fingerprint(), "rb") as f:
                _PLANS[key] = TurnPlan.from_file(f, rules)
        except OSError:
            from engine.plan_solver import solve_plan

            _PLANS[key] = solve_plan(rules)
    return _PLANS[key]


def device_rig(board_name="pico_ssd1306_i2c"):
    """Fresh fakes (tools/fakes, first on sys.path) with the display model on
    the board's bus and a virtual clock at 1000 ms; (board, model, clock)."""
    import machine  # the fake
    import oled

    from firmware import board as board_mod

    machine.reset_fakes()
    board = board_mod.load_board(board_name)
    model = oled.Oled(board.DISPLAY, board.WIDTH, board.HEIGHT,
                      getattr(board, "COLUMN_OFFSET", None))
    if board.BUS == "i2c":
        model.attach(machine, "i2c", board.I2C_ID, board.ADDR)
    else:
        for pin in getattr(board, "ID_PINS", ()):
            machine.level(pin, 0)  # a Thumby on SPI
        model.attach(machine, "spi", board.SPI_ID, dc=board.DC, cs=board.CS)
    clock = machine.Clock(1000)
    machine.use_clock(clock)
    return board, model, clock


def tap(dev, board, key):
    """Press and release `key` on a device of the rig, four guarded loop
    passes each (an app failure goes to firmware.recovery, as on the board)."""
    import machine  # the fake

    pin = board.BUTTONS[key]
    machine.press(pin)
    dev.loop(4, guard=True)
    machine.release(pin)
    dev.loop(4, guard=True)


def encode_pad(pad):
    """A score pad's save blob, as firmware.session writes it (codec kind
    firmware.files.KIND_PAD)."""
    from engine.codec import pack
    from firmware.files import KIND_PAD

    return pack(pad.to_data(), KIND_PAD)


def decode_pad(blob):
    """The ScorePad saved in `blob`, as firmware.session loads it; CodecError
    when it is damaged or invalid."""
    from engine.codec import CodecError, unpack
    from engine.scorepad import ScorePad
    from firmware.files import KIND_PAD

    data = unpack(blob, KIND_PAD)
    try:
        return ScorePad.from_data(data)
    except ValueError as e:
        raise CodecError("save does not hold a valid score pad: %s" % e)
