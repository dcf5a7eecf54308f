"""tools.cpy_uf2: what goes into CircuitPython's firmware and onto its drive.

The firmware build itself needs ../shared/cpy's chroot (root, minutes):
here the tool runs with a stand-in for the build script and for mkfat.sh,
so what is checked is the freeze tree, the make arguments, the drive's
files and where the results land.
"""

import pytest

from tools import cpy_uf2
from tools.deploy import table_files

GAME = ("engine/game.py", "firmware/app.py", "firmware/store.py", "circuitpy/host.py",
        "circuitpy/pins.py", "circuitpy/canvas.py", "boards/__init__.py")
NOT_FROZEN = ("circuitpy/code.py", "circuitpy/boot.py", "circuitpy/requirements.txt",
              "firmware/native.py", "firmware/main.py", "firmware/display.py", "code.py")


def _driver(tmp_path):
    """A stand-in driver source with a __version__ line, as the real ones have."""
    def source(name):
        path = tmp_path / (name + ".src")
        path.write_text('"""%s"""\n__version__ = "1.2.3"\n__repo__ = "x"\nX = 1\n' % name)
        return path
    return source


def test_the_pico_firmware_freezes_the_game_for_its_three_boards_and_both_drivers(tmp_path):
    dest = tmp_path / "freeze"
    files = cpy_uf2.freeze_tree("pico_ssd1306_spi", dest, _driver(tmp_path))
    for name in GAME + ("boards/pico_ssd1306_i2c.py", "boards/pico_ssd1306_spi.py",
                        "boards/pico_sh1106_i2c.py"):
        assert name in files and (dest / name).is_file(), name
    for name in NOT_FROZEN + ("boards/thumby.py", "boards/macropad_rp2040.py"):
        assert not (dest / name).exists(), name
    for name in ("adafruit_displayio_ssd1306", "adafruit_displayio_sh1106"):
        text = (dest / (name + ".py")).read_text()
        assert "__version__" not in text and "X = 1" in text and "__repo__" in text
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.py")) == sorted(files)


def test_the_macropad_freezes_its_own_board_and_only_the_sh1106_driver(tmp_path):
    dest = tmp_path / "freeze"
    files = cpy_uf2.freeze_tree("macropad_rp2040", dest)  # the installed drivers
    assert "boards/macropad_rp2040.py" in files and "circuitpy/taps.py" in files
    assert "boards/pico_ssd1306_i2c.py" not in files
    assert (dest / "adafruit_displayio_sh1106.py").is_file()
    assert not (dest / "adafruit_displayio_ssd1306.py").exists()
    assert "__version__" not in (dest / "adafruit_displayio_sh1106.py").read_text()


def test_a_board_circuitpython_has_no_definition_of_is_refused_by_name():
    with pytest.raises(SystemExit, match="thumby.*no definition"):
        cpy_uf2.cpy_board("thumby")
    with pytest.raises(SystemExit, match="unknown board"):
        cpy_uf2.cpy_board("nonesuch")


def test_the_make_arguments_name_the_definition_the_frozen_tree_and_the_modules_off():
    args = cpy_uf2.make_args("macropad_rp2040", "/w/f")
    assert args[:3] == ["BOARD=adafruit_macropad_rp2040",
                        "BUILD=%s/adafruit_macropad_rp2040" % cpy_uf2.BUILD,
                        "FROZEN_MPY_DIRS=/w/f"]
    off = {a.split("=")[0] for a in args[3:] if a.endswith("=0")}
    assert len(off) == len(args) - 3 == 13
    assert {"CIRCUITPY_ULAB", "CIRCUITPY_AUDIOMP3", "CIRCUITPY_BLEIO_HCI"} <= off


def test_the_drive_holds_the_entry_points_board_tables_and_data_and_fits_circuitpy(tmp_path):
    dest = tmp_path / "drive"
    names = cpy_uf2.drive_tree("pico_sh1106_i2c", dest)
    root = cpy_uf2.ROOT
    assert (dest / "code.py").read_text() == (root / "circuitpy/code.py").read_text()
    assert (dest / "boot.py").read_text() == (root / "circuitpy/boot.py").read_text()
    assert (dest / "board.txt").read_text() == "pico_sh1106_i2c\n"
    assert (dest / "data").is_dir()
    tables = [t.relative_to(root).as_posix() for t in table_files()]
    assert tables and set(tables) <= set(names)
    code = [n for n in names if n.endswith(".py")]
    assert code == ["code.py", "boot.py"], code  # the rest is frozen in
    # 512-byte clusters on CircuitPython's 1 MiB FAT12, of which 1,025 KB hold files
    used = sum(-(-(dest / n).stat().st_size // 512) * 512 for n in names)
    assert used <= 1025 * 1024, used


def test_build_runs_the_shared_scripts_and_copies_firmware_and_drive(tmp_path, monkeypatch):
    out = tmp_path / "cpyout"
    port = out / "root" / cpy_uf2.PORT.lstrip("/")
    port.mkdir(parents=True)
    built = port / cpy_uf2.BUILD / "raspberry_pi_pico"
    calls = []

    def run(cmd, check):
        calls.append(cmd)
        if cmd[0].endswith("build-circuitpython.sh"):
            frozen = out / "root" / cmd[4].split("=", 1)[1].lstrip("/")
            assert (frozen / "circuitpy" / "host.py").is_file()  # frozen before the build
            assert built.is_dir()
            for name in ("firmware.uf2", "firmware.elf"):
                (built / name).write_bytes(b"fw " + name.encode())
        else:
            assert (tmp_path / "dest" / "drive" / "board.txt").is_file()
            (tmp_path / "dest" / "drive.img").write_bytes(b"fat")

    monkeypatch.delenv("MIRRORS", raising=False)
    with pytest.raises(SystemExit, match="MIRRORS"):
        cpy_uf2.build("pico_ssd1306_i2c", out, tmp_path / "s", tmp_path / "dest", run, print)
    monkeypatch.setenv("MIRRORS", str(tmp_path / "m"))
    dest = cpy_uf2.build("pico_ssd1306_i2c", out, tmp_path / "s", tmp_path / "dest", run,
                         lambda *_: None)
    assert [c[0] for c in calls] == [str(tmp_path / "s" / "build-circuitpython.sh"),
                                     str(tmp_path / "s" / "mkfat.sh")]
    assert calls[0][1:] == [str(out.resolve())] + cpy_uf2.make_args(
        "pico_ssd1306_i2c", "/w/zehntausend/raspberry_pi_pico/freeze")
    assert calls[1][1:] == [str(dest / "drive.img"), str(dest / "drive"), str(out.resolve())]
    assert (dest / "firmware.uf2").read_bytes() == b"fw firmware.uf2"
    assert (dest / "firmware.elf").is_file() and (dest / "drive.img").read_bytes() == b"fat"
    assert (dest / "drive" / "code.py").is_file()  # kept, to copy onto a board
    logs = []
    cpy_uf2.build("pico_ssd1306_i2c", out, tmp_path / "s", tmp_path / "dest", run, logs.append)
    assert (built / "firmware.elf").is_file()  # the same frozen code: the build is kept
    assert not any("from scratch" in line for line in logs), logs


def test_a_build_over_other_frozen_code_starts_from_scratch(tmp_path):
    built = tmp_path / "build"
    logs = []
    cpy_uf2._fresh_build(built, "a", logs.append)
    (built / "old.o").write_bytes(b"")
    cpy_uf2._fresh_build(built, "a", logs.append)
    assert (built / "old.o").exists() and logs == []
    cpy_uf2._fresh_build(built, "b", logs.append)
    assert not (built / "old.o").exists() and len(logs) == 1
    assert (built / "zehntausend-frozen.sha256").read_text() == "b"
    (built / "old.o").write_bytes(b"")
    (built / "zehntausend-frozen.sha256").unlink()  # a build the tool did not stamp
    cpy_uf2._fresh_build(built, "b", logs.append)
    assert not (built / "old.o").exists()


def test_the_digest_follows_names_and_contents(tmp_path):
    (tmp_path / "a.py").write_text("x = 1\n")
    first = cpy_uf2.digest(tmp_path, ["a.py"])
    assert cpy_uf2.digest(tmp_path, ["a.py"]) == first
    (tmp_path / "a.py").write_text("x = 2\n")
    assert cpy_uf2.digest(tmp_path, ["a.py"]) != first


def test_without_the_chroot_the_build_says_what_to_run_first(tmp_path):
    with pytest.raises(SystemExit, match="build-circuitpython.sh"):
        cpy_uf2.build("pico_ssd1306_i2c", tmp_path, tmp_path, tmp_path / "d", None, print)


def test_the_command_line_takes_board_and_chroot(tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(cpy_uf2, "build", lambda *a: seen.append(a))
    assert cpy_uf2.main(["--board", "macropad_rp2040", "--cpy-out", str(tmp_path)]) == 0
    assert seen[0][:2] == ("macropad_rp2040", str(tmp_path))
