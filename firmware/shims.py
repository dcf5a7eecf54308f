"""CPython stand-ins for MicroPython built-ins the device code uses.

`const` here is micropython.const on the chip (the compiler folds
`NAME = const(value)` by its name, wherever the name comes from) and a
plain function that returns its argument on CPython, so the same modules
run under pytest.
"""

try:
    from micropython import const
except ImportError:  # CPython

    def _const(x):
        """Return `x` (CPython stand-in for micropython.const)."""
        return x

    const = _const  # (assigned, not defined: the stub's signature stays the checked one)
