"""Checks of tests/mprun.py, the MicroPython test runner, run here under CPython."""

import subprocess
import sys
from pathlib import Path

MPRUN = Path(__file__).resolve().parent.parent / "mprun.py"


def run_mprun(*files):
    """Run mprun.py on ``files`` with this interpreter; return the finished process."""
    cmd = [sys.executable, str(MPRUN)] + [str(f) for f in files]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_reports_pass_and_fail(tmp_path):
    module = tmp_path / "test_sample_mixed.py"
    module.write_text(
        "def test_ok():\n"
        "    assert 1 + 1 == 2\n"
        "\n"
        "def test_broken():\n"
        "    raise ValueError('boom')\n"
        "\n"
        "def helper():\n"
        "    raise RuntimeError('not a test, must not run')\n"
    )
    proc = run_mprun(module)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert lines[-1] == "1 passed, 1 failed"
    assert "FAIL test_sample_mixed.test_broken" in lines
    assert "ValueError: boom" in proc.stdout
    assert "not a test" not in proc.stdout


def test_zero_tests_is_an_error(tmp_path):
    module = tmp_path / "test_sample_empty.py"
    module.write_text("VALUE = 1\n")
    proc = run_mprun(module)
    assert proc.returncode != 0
    assert "0 passed, 0 failed" in proc.stdout
    assert "no tests collected" in proc.stdout


def test_all_passing_exits_zero(tmp_path):
    module = tmp_path / "test_sample_good.py"
    module.write_text("def test_b():\n    pass\n\ndef test_a():\n    pass\n")
    proc = run_mprun(module)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[-1] == "2 passed, 0 failed"
