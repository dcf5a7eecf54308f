"""Assertion helpers that work under CPython and under MicroPython (no pytest)."""


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
            with open("tables/plan-%s.bin" % rules.fingerprint(), "rb") as f:
                _PLANS[key] = TurnPlan.from_file(f, rules)
        except OSError:
            _PLANS[key] = TurnPlan.solve(rules)
    return _PLANS[key]
