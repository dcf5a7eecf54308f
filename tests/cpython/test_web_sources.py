"""tools.web's bundle: which modules the page gets, found by following the
imports (tools.imports) rather than from a hand-kept list."""

from tools import imports, web


def test_closure_follows_imports_inside_functions(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text("import os\n\ndef f():\n    from pkg import b\n")
    (tmp_path / "pkg" / "b.py").write_text("from pkg.c import x\n")
    (tmp_path / "pkg" / "c.py").write_text("x = 1\n")
    (tmp_path / "pkg" / "d.py").write_text("import pkg.a\n")
    assert imports.closure(["pkg/a.py"], tmp_path) == {
        "pkg/a.py", "pkg/__init__.py", "pkg/b.py", "pkg/c.py"}


def test_the_page_leaves_out_what_only_the_board_runs():
    skip = web.device_only()
    for rel in ("firmware/main.py", "firmware/device.py", "firmware/display.py",
                "firmware/splash.py", "firmware/native.py"):
        assert rel in skip
    page = imports.closure([web.PAGE_HOST])
    assert skip & page <= {"firmware/native.py"}  # the one a fallback stands in for
    sources = web.app_sources()
    assert not skip & set(sources)
    for rel in ("firmware/app.py", "firmware/screens/play.py", "engine/master.py",
                "firmware/texts_de.py", "web/webhost.py"):
        assert rel in sources
