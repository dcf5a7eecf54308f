"""Minimal test runner for the MicroPython Unix port (also runs under CPython).

Usage:
    micropython -X heapsize=288k tests/mprun.py [--mpy DIR] tests/both/test_rules.py [...]

With ``--mpy DIR``, packages compiled by mpy-cross into DIR (for example
DIR/engine/*.mpy) are imported before the sources, as on the device.

For each file: import it (by dotted name when it lies inside the repository,
else by path), call every module-level callable whose name starts with
``test_`` (source definition order, then any others by name), report each
failure with its traceback, and finish with one line ``N passed, N failed``.
Exit status is 1 when a test failed, a module failed to import, or no test
was collected at all.

Only the MicroPython subset is used: no pytest, inspect, importlib, os.path.
"""

import gc
import sys

try:
    from sys import print_exception
except ImportError:  # CPython
    import traceback

    def print_exception(exc):
        """Print a traceback to stdout, like MicroPython's sys.print_exception."""
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stdout)


def _cwd():
    """Return the current directory, or '' when the port cannot tell."""
    try:
        import os

        return os.getcwd()
    except (ImportError, AttributeError, OSError):
        return ""


def _normpath(path):
    """Make ``path`` absolute (against the cwd) and fold '.', '..' and '//'."""
    if not path.startswith("/"):
        path = _cwd() + "/" + path
    parts = []
    for part in path.split("/"):
        if part == "" or part == ".":
            continue
        if part == "..":
            if parts:
                parts.pop()
        else:
            parts.append(part)
    return "/" + "/".join(parts)


def _dirname(path):
    """Return everything before the last '/' ('/' for a top-level entry)."""
    i = path.rfind("/")
    return path[:i] if i > 0 else "/"


def _repo_root():
    """Return the repository root: the parent of the folder holding this file."""
    here = globals().get("__file__") or sys.argv[0]
    return _dirname(_dirname(_normpath(here)))


def _module_name(path, root):
    """Return the importable name of file ``path``; add its folder to sys.path if needed."""
    if path.endswith(".py"):
        path = path[:-3]
    if path.startswith(root + "/"):
        return path[len(root) + 1 :].replace("/", ".")
    folder = _dirname(path)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return path[len(folder) + 1 :]


def _source_order(path):
    """Return the names of ``def test_...`` functions in the order the file defines them."""
    names = []
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("def test_"):
                    names.append(line[4:].split("(")[0].strip())
    except OSError:
        pass
    return names


def collect(module, path):
    """Return [(name, fn)] for the module's callable ``test_*`` attributes."""
    found = {}
    for name in dir(module):
        if name.startswith("test_"):
            obj = getattr(module, name)
            if callable(obj):
                found[name] = obj
    tests = []
    for name in _source_order(path):
        if name in found:
            tests.append((name, found.pop(name)))
    for name in sorted(found):
        tests.append((name, found[name]))
    return tests


def run_file(path, root):
    """Import and run one test file; return (passed, failed, collected)."""
    path = _normpath(path)
    name = _module_name(path, root)
    try:
        __import__(name)
        module = sys.modules[name]
    except Exception as exc:
        print("FAIL import " + name)
        print_exception(exc)
        return 0, 1, 0
    passed = failed = 0
    tests = collect(module, path)
    for test_name, fn in tests:
        gc.collect()
        try:
            fn()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: B036 - a test may raise anything, SystemExit too
            failed += 1
            print("FAIL " + name + "." + test_name)
            print_exception(exc)
        else:
            passed += 1
    return passed, failed, len(tests)


def main(argv):
    """Run the test files named in ``argv``; return the process exit status."""
    if not argv:
        print("usage: micropython tests/mprun.py [--mpy DIR] tests/both/test_x.py [...]")
        return 2
    root = _repo_root()
    if root not in sys.path:
        sys.path.insert(0, root)
    if argv[0] == "--mpy":  # compiled modules (as on the device) come first
        sys.path.insert(0, argv[1])
        argv = argv[2:]
    passed = failed = collected = 0
    for path in argv:
        p, f, c = run_file(path, root)
        passed += p
        failed += f
        collected += c
    print("%d passed, %d failed" % (passed, failed))
    if collected == 0:
        if not failed:
            print("error: no tests collected")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
