"""The import graph of the repository's own modules, read from their sources.

Imports inside functions count too (the app loads screens on use), and
`from a import b` names both `a` and `a.b` (b may be a module). Imports by
a computed name (`__import__("boards." + name)`) are not seen.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def imported_in(tree):
    """The dotted names every import in the parsed module `tree` may load:
    `import a.b`, `from a import b` (a, and a.b when that is a module) and
    `__import__("a.b")` with a literal name."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(node.module + "." + alias.name for alias in node.names)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            names.add(node.args[0].value)
    return names


def imported_names(path, top=False):
    """The dotted names every import of the file `path` names (imported_in);
    with `top` only the imports that run when the module is imported
    (its body, and the `if` and `try` blocks in it), not those in functions."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    if not top:
        return imported_in(tree)
    body = ast.Module(body=[], type_ignores=[])
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.If, ast.Try, ast.ExceptHandler)):
            todo.extend(ast.iter_child_nodes(node))
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Expr, ast.Assign)):
            body.body.append(node)
    return imported_in(body)


def module_file(name, root=ROOT):
    """The source (relative to `root`, posix) of module `name` in the
    repository, or None (a built-in or installed module, or a name that is
    not a module)."""
    base = name.replace(".", "/")
    for rel in (base + ".py", base + "/__init__.py"):
        if (Path(root) / rel).is_file():
            return rel
    return None


def closure(starts, root=ROOT, top=False):
    """The sources (relative, posix) that the files `starts` import,
    directly or through others, the starts included; with `top` only
    through imports that run on import (imported_names)."""
    seen = set()
    todo = list(starts)
    while todo:
        rel = todo.pop()
        if rel in seen:
            continue
        seen.add(rel)
        for name in imported_names(Path(root) / rel, top):
            found = module_file(name, root)
            if found is not None and found not in seen:
                todo.append(found)
    return seen
