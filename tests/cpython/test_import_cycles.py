"""No import circle in engine/, firmware/, boards/, simulator/ and web/,
counting the imports inside functions too.

Screens import each other inside methods (their modules are released when
the app goes home), so a circle there would not fail at import time; it
would tie the modules' order of loading and their heap together. Steps that
run between screens go down into firmware.flow (reached as `app.flow`),
and the screens' bases live in firmware/screen.py, so no module needs one
that needs it.
"""

import ast
from pathlib import Path

from tools.imports import imported_in

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("engine", "firmware", "boards", "simulator", "web")


def modules():
    """{dotted module name: parsed source} of every .py file in PACKAGES."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = ast.parse(path.read_text(), str(path))
    return out


def graph(mods):
    """{module: sorted modules of `mods` it imports}."""
    return {name: sorted(t for t in imported_in(tree) if t in mods and t != name)
            for name, tree in mods.items()}


def find_cycle(edges):
    """One import circle of `edges` as a list of names (first == last), or None."""
    state = {}  # name -> 1 while on the path, 2 when done
    path = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for nxt in edges[node]:
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for name in sorted(edges):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def test_the_checker_finds_a_circle_through_a_function_level_import():
    mods = {
        "firmware.a": ast.parse("import firmware.b\n"),
        "firmware.b": ast.parse("def f():\n    from firmware import c\n"),
        "firmware.c": ast.parse("def g():\n    __import__('firmware.a')\n"),
        "firmware.d": ast.parse("from firmware import a\n"),
    }
    assert find_cycle(graph(mods)) == ["firmware.a", "firmware.b", "firmware.c", "firmware.a"]
    mods["firmware.c"] = ast.parse("def g():\n    __import__('engine.x')\n")
    assert find_cycle(graph(mods)) is None


def test_no_import_circle_counting_imports_inside_functions():
    cycle = find_cycle(graph(modules()))
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])
