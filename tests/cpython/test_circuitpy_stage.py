"""tools.circuitpy_stage: the tree for a CIRCUITPY drive."""

import ast

from tools import circuitpy_stage


def test_the_staged_tree_has_the_entry_points_the_modules_and_no_micropython_parts(tmp_path):
    dest = tmp_path / "drive"
    staged = circuitpy_stage.stage("pico_ssd1306_i2c", dest, log=lambda *_: None)
    for name in ("code.py", "boot.py", "board.txt", "requirements.txt",
                 "circuitpy/host.py", "circuitpy/keys.py", "firmware/app.py",
                 "engine/game.py", "boards/pico_ssd1306_i2c.py"):
        assert name in staged and (dest / name).is_file(), name
    assert (dest / "board.txt").read_text() == "pico_ssd1306_i2c\n"
    assert (dest / "data").is_dir()
    for name in ("firmware/native.py", "firmware/display.py", "firmware/main.py",
                 "main.py", "circuitpy/code.py", "boards/thumby.py"):
        assert not (dest / name).exists(), name
    assert "adafruit_displayio_ssd1306" in (dest / "requirements.txt").read_text()
    for name in staged:  # every staged source parses (CircuitPython compiles it at import)
        if name.endswith(".py"):
            ast.parse((dest / name).read_text(encoding="utf-8"))


def test_no_staged_module_imports_what_was_left_out(tmp_path):
    """The CircuitPython host's own modules and code.py never import the
    MicroPython-only parts the stage leaves out."""
    dest = tmp_path / "drive"
    circuitpy_stage.stage("pico_ssd1306_i2c", dest, log=lambda *_: None)
    left = {p[:-3].replace("/", ".") for p in circuitpy_stage.LEFT_OUT if p.startswith("firmware/")}
    for path in list((dest / "circuitpy").glob("*.py")) + [dest / "code.py", dest / "boot.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                mods = {node.module} | {node.module + "." + a.name for a in node.names}
            elif isinstance(node, ast.Import):
                mods = {a.name for a in node.names}
            else:
                continue
            assert not mods & left, (path.name, mods & left)
