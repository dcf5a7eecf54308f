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


def test_top_closure_leaves_out_imports_inside_functions(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "a.py").write_text(
        "import pkg.b\ntry:\n    import pkg.e\nexcept ImportError:\n    import pkg.f\n"
        "\ndef f():\n    from pkg import c\n")
    for name in "bcef":
        (tmp_path / "pkg" / (name + ".py")).write_text("x = 1\n")
    assert imports.closure(["pkg/a.py"], tmp_path, top=True) == {
        "pkg/a.py", "pkg/b.py", "pkg/e.py", "pkg/f.py"}


def test_the_title_bundle_has_what_the_title_runs_and_not_the_game():
    title = set(web.title_sources())
    assert title < set(web.app_sources())
    for rel in ("web/webhost.py", "web/online.py", "firmware/app.py", "firmware/screens/title.py",
                "firmware/screens/__init__.py", "firmware/ui.py", "firmware/texts_de.py",
                "firmware/texts_en.py", "boards/thumby.py"):
        assert rel in title, rel
    for rel in ("engine/master.py", "engine/bots.py", "firmware/screens/help.py",
                "firmware/texts_de_help.py"):
        assert rel not in title, rel  # a key's work: in more.bin
