"""Arrows outside the game: nothing imports tests/, and the hosts
(simulator/, web/) never import tools/ (tools may use the hosts).

Read from the sources with ast: imports at any depth (inside functions
too), and folders put on sys.path by hand, which are imports too.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SKIP_DIRS = {".venv", ".git", "node_modules", "build", "tests", "__pycache__"}


def _sources(top=None):
    base = ROOT / top if top else ROOT
    for path in sorted(base.rglob("*.py")):
        if not SKIP_DIRS & set(path.relative_to(ROOT).parts):
            yield path


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module, node.lineno


def _path_entries(tree):
    """The string parts of every argument to sys.path.insert/append."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("insert", "append")
                and ast.unparse(node.func.value) == "sys.path"):
            for arg in node.args:
                for part in ast.walk(arg):
                    if isinstance(part, ast.Constant) and isinstance(part.value, str):
                        yield part.value, node.lineno


def _top(name):
    return name.split(".")[0]


def test_nothing_outside_tests_imports_tests():
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(ROOT).as_posix()
        found += ["%s:%d imports %s" % (rel, line, name) for name, line in _imports(tree)
                  if _top(name) == "tests"]
        found += ["%s:%d puts %r on sys.path" % (rel, line, text)
                  for text, line in _path_entries(tree) if "tests" in text.split("/")]
    assert found == []


def test_hosts_never_import_tools():
    found = []
    for top in ("simulator", "web"):
        for path in _sources(top):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += ["%s:%d imports %s" % (path.relative_to(ROOT).as_posix(), line, name)
                      for name, line in _imports(tree) if _top(name) == "tools"]
    assert found == []


def test_the_checks_see_an_import_and_a_path_entry():
    """The walkers find what they look for (else the tests above pass on nothing)."""
    tree = ast.parse("import sys\ndef f():\n    from tests.x import y\n"
                     "sys.path.insert(0, root + '/tests/fakes')\n")
    assert [n for n, _ in _imports(tree)] == ["sys", "tests.x"]
    assert [t for t, _ in _path_entries(tree)] == ["/tests/fakes"]
    assert any(p.name == "host.py" for p in _sources("simulator"))
