"""Import arrows run one way and never in a circle.

engine/ imports only engine/ (and MicroPython built-ins); firmware/ never
imports simulator/ or tools/; and the module-level imports of engine/,
firmware/ and boards/ form no circle (tests/cpython/test_import_cycles.py
counts the imports inside functions too, and simulator/ and web/); the
screens' bases live in firmware/screen.py, which imports neither the app
nor any screen.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("engine", "firmware", "boards")
BUILTINS = {"binascii", "micropython", "framebuf", "time", "gc", "sys", "os", "json", "io",
            "machine", "errno", "struct", "math", "array", "select", "traceback"}


def _modules():
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = ast.parse(path.read_text())
    return out


def _imports(tree, top_only):
    """(module name, line) of each import; `top_only`: module level only."""
    nodes = tree.body if top_only else list(ast.walk(tree))
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, node.lineno))
            for a in node.names:  # "from firmware import buttons" names a module
                found.append((node.module + "." + a.name, node.lineno))
    return found


MODULES = _modules()


def test_engine_imports_only_engine():
    for name, tree in MODULES.items():
        if name.startswith("engine"):
            for target, line in _imports(tree, False):
                root = target.split(".")[0]
                assert root == "engine" or root in BUILTINS, (name, line, target)


def test_firmware_never_imports_hosts():
    for name, tree in MODULES.items():
        if not name.startswith("engine"):
            for target, line in _imports(tree, False):
                assert target.split(".")[0] not in ("simulator", "tools", "tests"), (name, line)


def test_the_screen_bases_import_neither_the_app_nor_a_screen():
    """firmware/screen.py (Screen, Menu) sits below every screen and the app."""
    assert [t for t, _ in _imports(MODULES["firmware.screen"], False)] == [
        "firmware", "firmware.buttons", "firmware.font"]  # (font: is a host's recorder on?)
    for name, tree in MODULES.items():
        for target, line in _imports(tree, False):
            if target in ("firmware.app.Screen", "firmware.screens.menu.Menu",
                          "firmware.screens.seat_pick.Menu"):
                raise AssertionError("%s:%d takes a base from its old home" % (name, line))


def test_no_circles_at_module_level():
    graph = {}
    for name, tree in MODULES.items():
        graph[name] = sorted({t for t, _ in _imports(tree, True) if t in MODULES and t != name})
    done, path = set(), []

    def visit(node):
        if node in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(node):] + [node]))
        if node in done:
            return
        path.append(node)
        for nxt in graph[node]:
            visit(nxt)
        path.pop()
        done.add(node)

    for name in graph:
        visit(name)
