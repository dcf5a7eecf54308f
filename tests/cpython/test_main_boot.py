"""Boot firmware/main.py under the MicroPython Unix port and play to the winner.

tools/mp/boot_run.py runs `firmware.main.main` (the default board,
pico_ssd1306_i2c) on the fake machine with the OLED model on the fake I2C
bus, from .mpy files compiled with `mpy-cross -march=armv6m`; a scripted
policy presses button pins until the winner screen. The run must pass at
CAP_KIB and the smallest passing cap, in 4k steps, is searched and printed
(the Unix port is 64-bit: an upper bound for the RP2040, whose own figures
come from `make chipbench`).

CAP_KIB is 288, the MP_HEAP of the rest of the checks (it was 272): the
boot grows MicroPython's qstr table to 2550 entries while the heap is in
one piece (firmware.app.WARM, one module a poll), 14 KB in one block on
this port (9 KB on the chip), which a session needs sooner or later
anyway; and the play screen's race, the three-farkle warnings and the
final round's words (about 3 KB of bytecode on the game path) took the
game past 280k here.
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import mptest  # noqa: E402

MP = mptest.find_micropython()
CAP_KIB = 288
pytestmark = pytest.mark.skipif(MP is None, reason="micropython (Unix port) not installed")


@pytest.fixture(scope="module")
def mpy_dir():
    with tempfile.TemporaryDirectory() as tmp:
        mptest.compile_packages(tmp)
        yield tmp


def boot(mpy, kib, seed=7):
    """Run the boot at heap `kib` KiB in a fresh data folder; (ok, output)."""
    data = tempfile.mkdtemp()
    try:
        proc = subprocess.run(
            [MP, "-X", "heapsize=%dk" % kib, "tools/mp/boot_run.py", mpy, data + "/data",
             str(seed)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    out = proc.stdout + proc.stderr
    return proc.returncode == 0 and "\nok " in "\n" + out, out


def test_boot_shows_the_title_and_plays_to_the_winner(mpy_dir):
    ok, out = boot(mpy_dir, CAP_KIB)
    assert ok, out
    assert "title ok" in out
    line = [x for x in out.splitlines() if x.startswith("ok ")][0]
    assert "winner=" in line


def test_smallest_heap_cap_for_the_boot(mpy_dir):
    low, high = 64, CAP_KIB  # fails at low (checked), passes at high
    ok, out = boot(mpy_dir, high)
    assert ok, out
    assert not boot(mpy_dir, low)[0]
    while high - low > 4:
        mid = (low + high) // 2 // 4 * 4
        if boot(mpy_dir, mid)[0]:
            high = mid
        else:
            low = mid
    print("smallest heap cap for the boot and a whole game: %dk" % high)
    assert high <= CAP_KIB
