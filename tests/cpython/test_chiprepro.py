"""tools/chiprepro.py without the emulator: the overlay of a staged tree on
a repro's flash image (the game replaced as `make flash` would, /data kept)
and the verdict's reading of a run (small fake reports)."""

import json

from tools import chiprepro
from tools.chipbench import pack_image
from tools.deploy import build_manifest


def _tree(root, files):
    for path, data in files.items():
        out = root / path
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
    return root


def _files(image_bytes):
    return chiprepro.image_files(chiprepro._mount(image_bytes))


def _old_image(tmp_path):
    old = _tree(tmp_path / "old", {
        "main.py": b"old main\n",
        "board.txt": b"pico_ssd1306_i2c\n",
        "firmware/app.mpy": b"old app",
        "firmware/same.mpy": b"unchanged",
        "firmware/gone.mpy": b"a module the new tree no longer has",
        "data/game.sav": b"the saved game",
        "data/error.log": b"--- 1620 ms MemoryError\nTraceback\n",
        "data/firmware/app.mpy": b"a file under /data that only looks like the game's",
        "notes.txt": b"the player's own file at the root",
    })
    image = tmp_path / "old.img"
    pack_image(old, image)
    return image.read_bytes()


def _new_tree(tmp_path):
    new = _tree(tmp_path / "new", {
        "main.py": b"new main\n",
        "board.txt": b"pico_ssd1306_i2c\n",
        "firmware/app.mpy": b"new app",
        "firmware/same.mpy": b"unchanged",
        "firmware/watchdog.mpy": b"a new module",
        "data/error.log": b"a staged file under data/ must not reach the board",
    })
    manifest = build_manifest(new, "pico_ssd1306_i2c", (6, 3))
    (new / "deploy.json").write_text(json.dumps(manifest), encoding="utf-8")
    return new


def test_the_staged_files_replace_the_images_and_data_is_kept(tmp_path):
    image = _old_image(tmp_path)
    tree = _new_tree(tmp_path)
    out, copied, removed = chiprepro.overlay(image, tree)
    assert len(out) == len(image)  # the same littlefs area
    files = _files(out)
    assert files["main.py"] == b"new main\n"
    assert files["firmware/app.mpy"] == b"new app"
    assert files["firmware/watchdog.mpy"] == b"a new module"
    assert files["firmware/same.mpy"] == b"unchanged"
    assert "firmware/gone.mpy" not in files  # stale in the game's own folder: removed
    assert files["notes.txt"] == b"the player's own file at the root"
    assert files["data/game.sav"] == b"the saved game"
    assert files["data/error.log"] == b"--- 1620 ms MemoryError\nTraceback\n"
    assert files["data/firmware/app.mpy"] == b"a file under /data that only looks like the game's"
    assert json.loads(files["deploy.json"])["files"]["firmware/app.mpy"]["size"] == 7
    assert sorted(copied) == ["firmware/app.mpy", "firmware/watchdog.mpy", "main.py"]
    assert removed == ["firmware/gone.mpy"]
    assert chiprepro.board_of(out) == "pico_ssd1306_i2c"


def test_the_error_log_is_read_from_a_saved_image(tmp_path):
    image = _old_image(tmp_path)
    assert chiprepro.read_error_log(image) == "--- 1620 ms MemoryError\nTraceback\n"
    assert chiprepro.read_error_log(b"\xff" * (4096 * 352)) is None  # no filesystem


def test_the_timeline_length_and_its_end():
    script = "# a comment\nwait 1221\nshot boot\npress A 52\nhold LEFT\nwait 766\n" \
             "release LEFT\npress B\npoweroff\n"
    assert chiprepro.timeline_ms(script) == 1221 + 52 + 766 + 100
    assert chiprepro.ends_in_cut(script)
    assert not chiprepro.ends_in_cut("wait 10\npoweroff # not the end\nwait 5\n")


def _report(**over):
    report = {"end_reason": "power-cut", "emulated_ms": 93773.2, "main_ended_ms": None,
              "python_tracebacks": 0}
    report.update(over)
    return report


OLD_LOG = "--- 1620 ms MemoryError\nTraceback (most recent call last):\n  x\n"


def _verdict(report, serial="[ 1.0 ms] hello\n", code=0, before=OLD_LOG, after=OLD_LOG):
    return chiprepro.verdict(report, serial, code, before, after, 93773, "power-cut")


def test_a_clean_run_to_its_end_passes():
    ok, lines = _verdict(_report())
    assert ok, lines
    assert lines[-1] == "verdict: PASS"
    assert "REPL prompt: never shown" in lines
    assert any("0 entries added" in line for line in lines)


def test_the_repl_prompt_fails():
    ok, lines = _verdict(_report(main_ended_ms=1682.4))
    assert not ok
    assert any("shown at 1682.4 ms" in line for line in lines)


def test_a_traceback_on_the_serial_fails_and_is_shown():
    serial = ("[ 1682.3 ms] Traceback (most recent call last):\n"
              "[ 1682.3 ms]   File \"firmware/supervisor.py\", line 62, in failed\n"
              "[ 1682.3 ms] MemoryError: memory allocation failed, allocating 1280 bytes\n")
    ok, lines = _verdict(_report(python_tracebacks=1), serial=serial, code=1)
    assert not ok
    assert "Python tracebacks on the serial console: 1  FAIL" in lines
    assert any("supervisor.py" in line for line in lines)


def test_a_new_error_log_entry_fails_and_the_old_ones_do_not():
    after = OLD_LOG + "--- 1700 ms reset\nMemoryError: memory allocation failed\n"
    ok, lines = _verdict(_report(), after=after)
    assert not ok
    assert any("1 entry added by the run  FAIL" in line for line in lines)
    assert "  --- 1700 ms reset" in lines


def test_a_run_that_stops_early_or_ends_otherwise_fails():
    ok, lines = _verdict(_report(emulated_ms=1700.0, end_reason="reset"), code=5)
    assert not ok
    assert any("exit 5, end reset  FAIL" in line for line in lines)
    assert any("not played to its end" in line for line in lines)
    ok, _ = _verdict(_report(end_reason="script-done"))  # the timeline ends in a cut
    assert not ok
    ok, lines = _verdict(None, code=124)
    assert not ok and "no report.json" in lines[0]


def test_a_flash_that_does_not_mount_fails():
    ok, lines = _verdict(_report(), after=None)
    assert not ok
    assert any("does not mount" in line for line in lines)
