"""circuitpy/requirements.txt stays true: what `circup install -r` puts on a drive is
what the staged game imports beyond CircuitPython itself.

Every module the CircuitPython host (circuitpy/, code.py, boot.py) imports
is the game's own (a staged package), part of CircuitPython (a module
circuitpython-stubs describes, or one of the standard modules its core
has), or named in requirements.txt; and every name there is imported (no
library installed for nothing). The frozen build (tools.cpy_uf2) freezes
the same drivers.
"""

import ast

from tools import circuitpy_stage, cpy_uf2

ROOT = circuitpy_stage.ROOT
CORE = {"gc", "os", "sys", "time", "json", "math", "random", "struct", "errno", "array",
        "collections", "io", "re", "select", "binascii"}  # in CircuitPython's core


def _stub_modules():
    """CircuitPython's own modules: the packages circuitpython-stubs installs."""
    found = set()
    for site in (ROOT / ".venv-cpy" / "lib").glob("python3*/site-packages"):
        found |= {p.name[:-len("-stubs")] for p in site.glob("*-stubs")}
    return found


def _requirements():
    """The library names of requirements.txt, as circup reads them (comments skipped)."""
    text = (ROOT / "circuitpy" / "requirements.txt").read_text()
    return {line.strip().lower() for line in text.splitlines()
            if line.strip() and not line.strip().startswith("#")}


def _imports(path):
    """The top-level names of every module `path` imports (at any depth)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def test_every_import_of_the_host_is_the_games_circuitpythons_or_a_requirement():
    stubs = _stub_modules()
    assert {"displayio", "keypad", "busio", "microcontroller"} <= stubs, "no circuitpython-stubs"
    requirements = _requirements()
    own = set(circuitpy_stage.PACKAGES) | {"boards"}
    imported = set()
    for path in sorted((ROOT / "circuitpy").glob("*.py")):
        imported |= _imports(path)
    outside = imported - own - stubs - CORE
    assert outside == requirements, (outside, requirements)


def test_the_frozen_build_freezes_the_drivers_circup_would_install():
    assert set(cpy_uf2.DRIVERS.values()) == _requirements()
