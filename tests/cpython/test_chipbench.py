"""tools.chipbench without the emulator: the course from the simulator, the
harness script, the littlefs image, reading a report and serial lines, the
table and the message about missing parts."""

import hashlib
import json
import struct
import sys
import zlib
from types import SimpleNamespace

import pytest

from tools import chipbench as cb

W, H = 128, 64


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    return cb.build_course(data_dir=str(tmp_path_factory.mktemp("sim")))


# ---------------------------------------------------------------- the course


def test_course_plays_a_whole_game_against_the_master(course):
    kinds = {k for k, _ in cb.KINDS}
    assert course.presses, "no presses"
    for p in course.presses:
        assert p["kind"] in kinds
        assert isinstance(p["screen"], str) and p["screen"]
        assert p["key"] in ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
    assert {p["kind"] for p in course.presses} == kinds  # every kind is measured
    screens = {p["screen"] for p in course.presses}
    assert {"title", "setup", "rules_edit", "settings", "help", "text", "play", "handover",
            "winner", "stats", "pad_setup", "pad", "pad_table", "pad_menu"} <= screens
    start, end = course.marks["game_start"], course.marks["game_end"]
    assert course.presses[start]["screen"] == "setup"
    assert course.presses[start]["after"] in ("play", "handover")
    assert course.presses[end]["screen"] == "winner"
    assert all(p["key"] == "DOWN" and p["screen"] == "play" for p in course.presses
               if p["kind"] == "computer")
    # Last, custom rules make the Master's plan be solved at the start (the
    # press of "Los"), then the person's hand-over: waited for by serial.
    assert [s["text"] for s in course.steps if s["op"] == "expect"] == ["scr=solving",
                                                                      "scr=handover"]
    solve = course.marks["solve"]
    assert end < solve == course.marks["solve_game"] - 1 == len(course.presses) - 1
    assert course.presses[solve]["after"] == "solving"
    assert course.screen() == "handover"


def test_course_keeps_the_simulators_screens(course):
    names = [s["name"] for s in course.steps if s["op"] == "shot"]
    assert names == list(course.shots)
    # First the boot shot (the title on the panel 300 ms after power-on), then the title.
    assert names[0].endswith("_boot") and names[1].endswith("_title")
    assert course.shots[names[0]] == course.shots[names[1]]
    for pixels in course.shots.values():
        assert len(pixels) == W * H and set(pixels) <= {0, 1}
    # The game's dice are in the shots: the same seed gives the same course.
    again = cb.build_course()
    assert again.shots == course.shots
    assert [(p["key"], p["kind"], p["screen"]) for p in again.presses] == [
        (p["key"], p["kind"], p["screen"]) for p in course.presses]


def test_slow_scales_the_waits(course):
    slow = cb.build_course(slow=2.0)
    # The same game; the computer may take some steps at its own pace now.
    assert [p["key"] for p in slow.presses if p["kind"] != "computer"] == [
        p["key"] for p in course.presses if p["kind"] != "computer"]
    assert slow.total_ms() > 1.5 * (course.total_ms() - cb.SOLVE_WAIT_MS)


# ---------------------------------------------------------------- the script


def test_script_text(course):
    text = cb.script_text(course, serial=True)
    lines = [x for x in text.splitlines() if x and not x.startswith("#")]
    presses = [x for x in lines if x.startswith("press ")]
    assert presses == ["press %s %d" % (p["key"], cb.HOLD_MS) for p in course.presses]
    assert [x[5:] for x in lines if x.startswith("shot ")] == list(course.shots)
    assert [x for x in lines if x.startswith("expect-serial")] == [
        "expect-serial scr=solving", "expect-serial scr=handover"]
    for x in lines:
        op = x.split()[0]
        assert op in ("wait", "press", "shot", "expect-serial")
        if op == "wait":
            assert int(x.split()[1]) > 0
    # Each press is named in a comment: its number, kind and screen.
    assert "# press 1: press in the warm-up on title" in text
    assert "# press 3: cursor move on title" in text
    # Without @prof lines the solve gets a fixed wait instead.
    plain = cb.script_text(course, serial=False)
    assert "expect-serial" not in plain
    assert "wait %d" % cb.SOLVE_WAIT_MS in plain
    assert plain.count("\npress ") == len(course.presses)


# ---------------------------------------------------------------- the tree and image


def test_pack_image_reads_back(tmp_path):
    from littlefs import LittleFS

    tree = tmp_path / "tree"
    (tree / "firmware").mkdir(parents=True)
    (tree / "data").mkdir()
    (tree / "main.py").write_text("print(1)\n")
    (tree / "firmware" / "x.mpy").write_bytes(bytes(range(256)) * 20)
    (tree / "bench.json").write_text('{"seed": 7}\n')
    img = tmp_path / "app.img"
    written = cb.pack_image(tree, img)
    assert sorted(written) == ["bench.json", "firmware/x.mpy", "main.py"]
    data = img.read_bytes()
    assert len(data) == 4096 * 352
    fs = LittleFS(block_size=4096, block_count=352, prog_size=256, mount=False)
    fs.context.buffer = bytearray(data)
    fs.mount()
    assert sorted(fs.listdir("/")) == ["bench.json", "data", "firmware", "main.py"]
    with fs.open("firmware/x.mpy", "rb") as f:
        assert f.read() == bytes(range(256)) * 20


def test_boards():
    assert cb.check_board("pico_ssd1306_i2c", None) is None
    assert cb.check_board("pico_ssd1306_i2c", 1_000_000) is None
    assert cb.check_board("thumby", None) is None
    assert cb.check_board("pico_sh1106_i2c", None) is None  # the harness models the SH1106
    assert cb.check_board("pico_sh1106_i2c", 1_000_000) is None  # (an I2C board)
    assert "SPI" in cb.check_board("pico_ssd1306_spi", 400_000)
    assert "unknown" in cb.check_board("nope", None)
    cmd = cb.hil_command({"firmware": "f.elf", "bootrom": "b.mjs", "rp2040js": "nm"},
                         "pico_ssd1306_i2c", "a.img", "c.hil", "out", 1000, 60)
    joined = " ".join(cmd)
    assert "--i2c 0 --sda 4 --scl 5 --addr 0x3C" in joined
    assert "--buttons UP=10,DOWN=11,LEFT=12,RIGHT=13,A=14,B=15" in joined
    assert "--button-pulls internal" in joined
    assert "--fw f.elf --bootrom b.mjs --rp2040js nm --fs a.img" in joined
    assert "--controller" not in joined  # the SSD1306 is the harness's default
    sh = " ".join(cb.hil_command({"firmware": "f.elf", "bootrom": "b.mjs", "rp2040js": "nm"},
                                 "pico_sh1106_i2c", "a.img", "c.hil", "out", 1000, 60))
    assert "--controller sh1106 --i2c 0 --sda 4 --scl 5 --addr 0x3C" in sh
    # Every board of boards/ can be benchmarked.
    from pathlib import Path

    boards = {p.stem for p in (Path(cb.__file__).parents[2] / "boards").glob("*.py")
              if p.stem != "__init__"}
    assert boards == set(cb.WIRING)


# ---------------------------------------------------------------- missing parts


def test_missing_parts_message(tmp_path, capsys, monkeypatch):
    args = SimpleNamespace(firmware=None, bootrom=str(tmp_path / "nope.mjs"), rp2040js=None)
    found, missing = cb.find_parts(args, environ={})
    assert found == {}
    assert len(missing) == 3 and "does not exist" in missing[1]
    text = cb.missing_message(missing)
    for word in ("micropython/micropython", "raspberrypi/pico-sdk", "hathach/tinyusb",
                 "micropython/micropython-lib", "Mbed-TLS/mbedtls", "raspberrypi/picotool",
                 "wokwi/rp2040js", "build-firmware.sh", "v1.28.0", "rp2040js@1.4.1",
                 "CHIPBENCH_FIRMWARE", "CHIPBENCH_BOOTROM", "CHIPBENCH_RP2040JS"):
        assert word in text
    # The environment counts too; a folder without rp2040js does not.
    (tmp_path / "fw.elf").write_bytes(b"x")
    (tmp_path / "b.mjs").write_text("x")
    (tmp_path / "nm").mkdir()
    env = {"CHIPBENCH_FIRMWARE": str(tmp_path / "fw.elf"),
           "CHIPBENCH_BOOTROM": str(tmp_path / "b.mjs"), "CHIPBENCH_RP2040JS": str(tmp_path / "nm")}
    found, missing = cb.find_parts(SimpleNamespace(firmware=None, bootrom=None, rp2040js=None),
                                   environ=env)
    assert set(found) == {"firmware", "bootrom"} and "no rp2040js" in missing[0]
    (tmp_path / "nm" / "rp2040js").mkdir()
    assert cb.find_parts(SimpleNamespace(firmware=None, bootrom=None, rp2040js=None),
                         environ=env)[1] == []
    # main() stops before any work and says how to get them.
    for name in ("CHIPBENCH_FIRMWARE", "CHIPBENCH_BOOTROM", "CHIPBENCH_RP2040JS"):
        monkeypatch.delenv(name, raising=False)
    assert cb.main([]) == 2
    assert "build-firmware.sh" in capsys.readouterr().err
    assert cb.main(["--board", "nope"]) == 2
    assert "unknown board" in capsys.readouterr().err
    assert cb.main(["--parts", "menus,nope"]) == 2
    assert "--parts" in capsys.readouterr().err


# ---------------------------------------------------------------- reading the results


def _png(bits, width, height, scale):
    """A shot as the harness writes it (8-bit grayscale, filter 0)."""
    raw = bytearray()
    for y in range(height * scale):
        raw.append(0)
        for x in range(width * scale):
            raw.append(255 if bits[(y // scale) * width + x // scale] else 0)

    def chunk(tag, body):
        return (struct.pack(">I", len(body)) + tag + body
                + struct.pack(">I", zlib.crc32(tag + body)))

    ihdr = struct.pack(">IIBBBBB", width * scale, height * scale, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def test_shot_difference():
    a = bytes((x + y) % 2 for y in range(H) for x in range(W))
    b = bytearray(a)
    b[5] ^= 1
    b[W * 10 + 3] ^= 1
    assert cb.shot_difference(_png(a, W, H, 4), a, W, H) == 0
    assert cb.shot_difference(_png(a, W, H, 4), bytes(b), W, H) == 2
    assert cb.shot_difference(_png(a, W, H, 1), bytes(b), W, H) == 2
    assert cb.shot_difference(b"not a png", a, W, H) is None
    assert cb.sha1_bits(a) == hashlib.sha1(a).hexdigest()


def test_parse_serial():
    text = ("MicroPython v1.28.0\r\n"
            "@prof ms=1000 read=120 step=5000 draw=7000 show=26000 alloc=64 idle=20:0 "
            "scr=title\r\n"
            "@heap ms=1000 live=90000 free=100000 scr=title\n"
            "noise @prof ms=1 not at the start\n"
            "@prof ms=2000 read=130 step=900 draw=100 show=25000 alloc=-4000 idle=3:48 scr=play\n")
    prof, heap = cb.parse_serial(text)
    assert prof == [
        {"ms": 1000, "read": 120, "step": 5000, "draw": 7000, "show": 26000, "alloc": 64,
         "idle_n": 20, "idle_bytes": 0, "scr": "title"},
        {"ms": 2000, "read": 130, "step": 900, "draw": 100, "show": 25000, "alloc": -4000,
         "idle_n": 3, "idle_bytes": 48, "scr": "play"}]
    assert heap == [{"ms": 1000, "live": 90000, "free": 100000, "scr": "title"}]


def test_summary():
    assert cb.summary([]) == {"count": 0, "median": None, "p90": None, "max": None}
    s = cb.summary([5, 1, 3, None, 2, 4, 6, 7, 8, 9, 10])
    assert s == {"count": 10, "median": 5.5, "p90": 9, "max": 10}
    assert cb.summary([4])["p90"] == 4


def _hand_made():
    """A course of 6 presses and 2 shots, the harness report of its run and
    a heap run's report."""
    title = bytes([1, 0] * (W * H // 2))
    play = bytes([0, 1] * (W * H // 2))
    presses = [
        {"key": "DOWN", "kind": "cursor", "screen": "title", "after": "title"},
        {"key": "DOWN", "kind": "cursor", "screen": "title", "after": "title"},
        {"key": "A", "kind": "screen", "screen": "title", "after": "setup"},
        {"key": "A", "kind": "roll", "screen": "handover", "after": "play"},
        {"key": "UP", "kind": "pick", "screen": "play", "after": "play"},
        {"key": "A", "kind": "screen", "screen": "winner", "after": "title"},
    ]
    course = SimpleNamespace(presses=presses, shots={"01_title": title, "02_play": play},
                             marks={"game_start": 3, "game_end": 5})
    sha = cb.sha1_bits
    frames = [
        {"n": 1, "start_ms": 100.0, "bus_us": 26000.0, "bytes": 1025, "sha1": "noise"},
        {"n": 2, "start_ms": 500.0, "bus_us": 26000.0, "bytes": 1025, "sha1": sha(title)},
        {"n": 3, "start_ms": 1010.0, "bus_us": 26000.0, "bytes": 1025, "sha1": "a"},
        {"n": 4, "start_ms": 2015.0, "bus_us": 40000.0, "bytes": 1025, "sha1": "b"},  # stretched
        {"n": 5, "start_ms": 3100.0, "bus_us": 26000.0, "bytes": 1025, "sha1": "c"},
        {"n": 6, "start_ms": 4050.0, "bus_us": 3000.0, "bytes": 129, "sha1": "d"},
        {"n": 7, "start_ms": 5500.0, "bus_us": 26100.0, "bytes": 1025, "sha1": "e"},
    ]
    rows = [  # press n: down_ms, frame, press_to_panel_ms
        (1000.0, 3, 36.0), (2000.0, 4, 55.0), (3000.0, 5, 126.0), (4000.0, 6, 53.0),
        (5000.0, 7, 526.1), (6000.0, None, None)]
    report = {
        "emulated_ms": 7000.0, "wall_ms": 28000, "python_tracebacks": 0, "cpu_busy_ms": 1750.0,
        "end_reason": "script-done",
        "display": {"frame_log": frames},
        "presses": [{"n": i + 1, "button": presses[i]["key"], "down_ms": d, "frame": f,
                     "press_to_panel_ms": p} for i, (d, f, p) in enumerate(rows)],
        "shots": [{"name": "01_title", "sha1": sha(title), "at_ms": 900.0, "panel_lit": True},
                  {"name": "02_play", "sha1": sha(play), "at_ms": 5600.0, "panel_lit": True}],
        "serial": "\n".join([
            "@prof ms=490 read=100 step=4000 draw=5000 show=26000 alloc=100 idle=10:0 scr=title",
            "@prof ms=1001 read=110 step=3000 draw=4000 show=26000 alloc=200 idle=25:0 scr=title",
            "@prof ms=2001 read=120 step=9000 draw=4000 show=40000 alloc=300 idle=49:16 scr=title",
            "@prof ms=3001 read=130 step=90000 draw=8000 show=26000 alloc=-900 idle=49:0 "
            "scr=setup",
            "@prof ms=4021 read=140 step=20000 draw=6000 show=3000 alloc=5000 idle=50:0 scr=play",
            "@prof ms=5001 read=150 step=5000 draw=490000 show=26000 alloc=7000 idle=49:32 "
            "scr=play",
        ]) + "\n",
    }
    heap = {"presses": report["presses"], "shots": report["shots"], "python_tracebacks": 0,
            "end_reason": "script-done", "serial": "\n".join([
                "@prof ms=1001 read=1 step=1 draw=0 show=1 alloc=64 idle=25:0 scr=title",
                "@heap ms=1001 live=50000 free=150000 scr=title",
                "@prof ms=4021 read=1 step=1 draw=0 show=1 alloc=2000 idle=50:96 scr=play",
                "@heap ms=4021 live=90000 free=110000 scr=play",
                "@prof ms=5001 read=1 step=1 draw=0 show=1 alloc=1000 idle=49:0 scr=play",
                "@heap ms=5001 live=120000 free=80000 scr=play",
                "@heap ms=6500 live=130000 free=70000 scr=title",
            ]) + "\n"}
    return course, report, heap


def test_analyse_and_table(tmp_path):
    course, report, heap = _hand_made()
    res = cb.analyse(course, report, heap)
    assert res["boot_ms"] == 526.0  # the first frame showing the title shot, on the panel
    k = res["kinds"]
    assert k["cursor"] == {"count": 2, "median": 45.5, "p90": 55.0, "max": 55.0}
    assert k["screen"]["count"] == 1 and k["screen"]["max"] == 126.0  # one drew nothing
    assert k["roll"]["median"] == 53.0 and k["pick"]["max"] == 526.1
    assert k["bank"]["count"] == 0 and k["computer"]["median"] is None
    assert res["slowest"] == {"ms": 526.1, "kind": "pick", "screen": "play", "key": "UP",
                              "after": "play", "n": 5}
    assert any("press 6" in w and "no frame" in w for w in res["warnings"])
    # Phases: the @prof line of the pass that drew each press's frame.
    assert res["phases"]["cursor"] == {"read": 115, "step": 6000, "draw": 4000, "show": 33000}
    assert res["phases"]["pick"] == {"read": 150, "step": 5000, "draw": 490000, "show": 26000}
    assert res["phases"]["roll"]["step"] == 20000
    assert "bank" not in res["phases"]
    # Allocations come from the heap run (a timing run does not count them).
    assert res["alloc"] == {"frames": 3, "median": 1000, "max": 2000, "idle_passes": 124,
                            "idle_bytes": 96}
    assert res["stretched"]["count"] == 1 and res["stretched"]["worst"]["n"] == 4
    assert res["shots"]["equal"] == 2 and res["shots"]["different"] == []
    assert res["crash"] is None and res["solve"] is None
    h = res["heap"]
    assert h["game"] == {"lines": 2, "min_free": 80000, "min_free_screen": "play",
                         "max_live": 120000, "max_live_screen": "play"}
    assert h["all"]["min_free"] == 70000 and h["all"]["max_live"] == 130000
    assert res["slowest_settled"]["ms"] == 526.1 and res["slowest_settled"]["screen"] == "play"
    # Per screen: each screen's presses by kind, in the order the course met them.
    assert [(r["screen"], r["kind"], r["count"], r["median"], r["max"])
            for r in res["screens"]] == [
        ("title", "cursor", 2, 45.5, 55.0), ("title", "screen", 1, 126.0, 126.0),
        ("handover", "roll", 1, 53.0, 53.0), ("play", "pick", 1, 526.1, 526.1),
        ("winner", "screen", 0, None, None)]
    # The limits of issue 30: cursor median 16.7, screen change 45, every press 80, boot 300.
    assert res["limits"] == [
        "boot 526.0 ms > 300 ms", "cursor move on title: median 45.5 ms > 16.7 ms",
        "screen change on title: median 126.0 ms > 45.0 ms",
        "screen change on title: max 126.0 ms > 80 ms", "die pick on play: max 526.1 ms > 80 ms"]
    table = cb.format_table(res)
    assert "  title: cursor move              2      45.5      55.0      55.0  over" in table
    assert "  handover: roll                  1      53.0      53.0      53.0\n" in table
    for row in ("boot: power-on to the title on the panel", "cursor move", "die pick",
                "value change", "screen change", "roll", "bank", "computer step",
                "slowest press", "526.1 ms: die pick on play", "smallest free 80000 B",
                "largest live 120000 B", "median 1000 B, max 2000 B",
                "1 of 7", "2 of 2", "25% (1.8 of 7.0 s)", "app failed (traceback or error.log)"):
        assert row in table, row
    json.dumps(res)  # --json


def test_table_without_profiling():
    """An older tree: no @prof or @heap lines, only the harness's figures."""
    course, report, _ = _hand_made()
    report["serial"] = "MicroPython v1.28.0\n"
    res = cb.analyse(course, report, None)
    assert res["boot_ms"] == 526.0
    assert res["kinds"]["cursor"]["count"] == 2
    assert res["phases"] == {} and res["alloc"]["frames"] == 0 and res["heap"] is None
    table = cb.format_table(res)
    assert "allocated per frame (@prof)" in table and "computer step" in table


def test_allocations_and_boot_without_a_heap_run():
    """Without a heap run the timing run's alloc counts are used (the
    negative one, a collection during the pass, left out); a title drawn
    while the display was off: boot is the last frame before the shot."""
    course, report, _ = _hand_made()
    res = cb.analyse(course, report, None)
    assert res["alloc"] == {"frames": 5, "median": 300, "max": 7000, "idle_passes": 232,
                            "idle_bytes": 48}
    for f in report["display"]["frame_log"]:
        f["sha1"] = "dark"
    report["display"]["frame_log"][2]["start_ms"] = 600.0
    assert cb.analyse(course, report, None)["boot_ms"] == 626.0
    report["shots"][0]["sha1"] = "other"
    res = cb.analyse(course, report, None)
    assert res["boot_ms"] is None and any("boot" in w for w in res["warnings"])


def test_heap_course_is_the_game_alone():
    heap = cb.build_course(parts=cb.PARTS_HEAP)
    assert heap.presses[heap.marks["game_start"]]["screen"] == "setup"
    assert heap.presses[heap.marks["game_end"]]["screen"] == "winner"
    assert "solve" not in heap.marks and heap.screen() == "title"
    assert not [s for s in heap.steps if s["op"] == "expect"]


def test_drift_and_failures_cut_the_figures():
    """After a chip shot differs from the simulator's, or after the app
    failed, the presses may have landed elsewhere: they are left out."""
    course, report, _ = _hand_made()
    report["shots"][1]["sha1"] = "other"  # 02_play at 5600 ms: drifted after 01_title (900 ms)
    res = cb.analyse(course, report, None)
    assert res["shots"]["drift_ms"] == 900.0 and res["shots"]["equal"] == 1
    assert [d["name"] for d in res["shots"]["different"]] == ["02_play"]
    assert sum(k["count"] for k in res["kinds"].values()) == 0
    assert any("drifted" in w for w in res["warnings"])
    assert "the course drifted after 0.9 s" in cb.format_table(res)
    # A traceback on serial: the board stopped at the REPL.
    course, report, _ = _hand_made()
    report["serial"] += ("Traceback (most recent call last):\n  File \"main.py\", line 4\n"
                         "MemoryError: memory allocation failed, allocating 1280 bytes\n>>> ")
    report["main_ended_ms"] = 3500.0
    res = cb.analyse(course, report, None)
    assert res["crash"] == {"error": "MemoryError: memory allocation failed, allocating 1280 "
                            "bytes", "at_ms": 3500.0, "recovered": False, "logged": 0,
                            "press": 3, "kind": "screen", "screen": "title", "after": "setup"}
    assert res["kinds"]["roll"]["count"] == 0 and res["kinds"]["cursor"]["count"] == 2
    assert "stopped at the REPL" in cb.format_table(res)
    # The error log of a device that played on (firmware.recovery).
    course, report, _ = _hand_made()
    report["error_log"] = ("--- 4500 ms MemoryError\nTraceback (most recent call last):\n"
                           "  File \"firmware/app.py\", line 1, in step\n"
                           "MemoryError: memory allocation failed, allocating 2456 bytes\n"
                           "--- 9000 ms ValueError\nTraceback (most recent call last):\n"
                           "ValueError: x\n")
    crash = cb.analyse(course, report, None)["crash"]
    assert crash["error"] == "MemoryError: memory allocation failed, allocating 2456 bytes"
    assert crash["at_ms"] == 4500.0 and crash["recovered"] and crash["logged"] == 2
    assert crash["press"] == 4 and crash["screen"] == "handover"


def test_error_log_from_a_saved_image(tmp_path):
    tree = tmp_path / "tree"
    (tree / "data").mkdir(parents=True)
    (tree / "main.py").write_text("x = 1\n")
    img = tmp_path / "flash.img"
    cb.pack_image(tree, img)
    assert cb.read_error_log(img) is None
    (tree / "data" / "error.log").write_text("--- 5 ms OSError\nOSError: 28\n")
    cb.pack_image(tree, img)
    assert cb.read_error_log(img) == "--- 5 ms OSError\nOSError: 28\n"
    # a log past its limit moved to error.log.1 (firmware.recovery): both, oldest first
    (tree / "data" / "error.log.1").write_text("--- 1 ms MemoryError\n")
    cb.pack_image(tree, img)
    assert cb.read_error_log(img) == "--- 1 ms MemoryError\n--- 5 ms OSError\nOSError: 28\n"
    assert cb.read_error_log(tmp_path / "none.img") is None
    (tmp_path / "junk.img").write_bytes(b"\xff" * 4096 * 4)
    assert cb.read_error_log(tmp_path / "junk.img") is None


# ---------------------------------------------------------------- a frozen firmware


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    """The default board staged for stock firmware and for a frozen one."""
    out = {}
    for frozen in (False, True):
        tree = tmp_path_factory.mktemp("stage") / "tree"
        cb.stage_tree(cb.DEFAULT_BOARD, tree, {"seed": 7}, frozen=frozen)
        out[frozen] = tree
    return out


def test_frozen_tree_keeps_only_what_the_file_system_must_hold(trees):
    tree = trees[True]
    names = sorted(p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file())
    assert "main.py" in names and "board.txt" in names and "bench.json" in names
    assert "data/title.frm" in names  # the shipped title, as the kept one
    assert any(n.startswith("tables/") for n in names)
    for package in ("engine", "firmware", "boards"):
        assert not (tree / package).exists()  # it would hide the frozen package
    assert json.loads((tree / "deploy.json").read_text())["frozen"] is True
    assert "firmware/title.frm" not in json.loads((tree / "deploy.json").read_text())["files"]
    assert (trees[False] / "firmware" / "main.mpy").is_file()  # the stock tree keeps them


def test_frozen_refuses_freq(capsys):
    assert cb.main(["--frozen", "--freq", "400000"]) == 2
    assert "FREQ" in capsys.readouterr().err


def test_deploy_stages_a_frozen_tree_but_flashes_none(tmp_path, capsys):
    from tools import deploy

    assert deploy.main(["--board", cb.DEFAULT_BOARD, "--frozen"]) == 1
    assert "mpremote" in capsys.readouterr().err
    assert deploy.main(["--board", cb.DEFAULT_BOARD, "--frozen", "--stage",
                        str(tmp_path / "t")]) == 0
    assert not (tmp_path / "t" / "firmware").exists()
    assert (tmp_path / "t" / deploy.FROZEN_TITLE).is_file()


@pytest.mark.parametrize("frozen", [False, True])
def test_stage_keeps_the_title_picture(trees, frozen):
    from tools import deploy

    title = trees[frozen] / (deploy.FROZEN_TITLE if frozen else deploy.TITLE_FRAME)
    assert title.stat().st_size == 1024


def test_settled_is_when_the_panel_shows_what_it_keeps():
    """A screen change's first update is a "working" mark; the panel settles
    with the last change before the next press."""
    from tools.chipbench.analysis import settled_ms

    log = [
        {"start_ms": 5.0, "bus_us": 1000.0, "sha1": "old"},  # before the press
        {"start_ms": 12.0, "bus_us": 2000.0, "sha1": "busy"},  # the mark: 14.0
        {"start_ms": 150.0, "bus_us": 10000.0, "sha1": "half"},  # a window of the new screen
        {"start_ms": 160.5, "bus_us": 3000.0, "sha1": "new"},  # the last window: 163.5
        {"start_ms": 300.0, "bus_us": 500.0, "sha1": "new"},  # sent again, nothing changed
        {"start_ms": 900.0, "bus_us": 500.0, "sha1": "next"},  # after the next press
    ]
    assert settled_ms(log, 10.0, 800.0) == 163.5
    assert settled_ms(log, 10.0, 100.0) == 14.0  # the next press came before the screen
    assert settled_ms(log, 400.0, 800.0) is None  # no frame: nothing settled
    assert settled_ms(log, 0.0, 10.0) == 6.0


def test_a_slow_boot_is_no_drift():
    """The boot shot (course.BOOT_SHOT_MS) that shows no title yet: boot not
    measured (the limit broken), the presses after it still counted."""
    course, report, heap = _hand_made()
    title = course.shots["01_title"]
    course.shots = {"00_boot": title, **course.shots}
    report["shots"].insert(0, {"name": "00_boot", "sha1": "dark", "at_ms": 300.0,
                               "panel_lit": False})
    res = cb.analyse(course, report, heap)
    assert res["boot_ms"] is None and "boot not measured" in res["limits"]
    assert res["shots"]["drift_ms"] is None and res["shots"]["different"][0]["name"] == "00_boot"
    assert res["kinds"]["cursor"]["count"] == 2  # nothing left out
    assert any("00_boot at 300 ms" in w for w in res["warnings"])


def test_board_all_runs_every_board(monkeypatch, capsys, tmp_path):
    """`--board all`: each board in turn (the default, SPI, SH1106, Thumby),
    its own --keep folder, the other options as given; one JSON by board."""
    from tools.chipbench import cli

    seen = []

    def one(argv, results=None):
        board = argv[argv.index("--board") + 1]
        seen.append(argv)
        results[board] = {"board": board}
        return 1 if board == "thumby" else 0

    monkeypatch.setattr(cli, "main", one)
    code = cli.main_all(["--parts", "menus", "--board", "all", "--keep", str(tmp_path), "--json"])
    assert code == 1  # the worst
    assert [a[a.index("--board") + 1] for a in seen] == [
        "pico_ssd1306_i2c", "pico_ssd1306_spi", "pico_sh1106_i2c", "thumby"]
    for a in seen:
        assert a.count("--board") == 1 and a[:3] == ["--parts", "menus", "--json"]
        assert a[a.index("--keep") + 1] == str(tmp_path / a[a.index("--board") + 1])
    assert sorted(json.loads(capsys.readouterr().out)) == sorted(cli.BOARDS_ALL)
    assert cli.main_all(["--board", "all", "--freq", "1000000"]) == 2


def test_run_hil_gives_the_exit_code_the_report_and_the_serial(tmp_path):
    # a stand-in for hil.mjs: prints to the serial, writes report.json, exits 3
    script = ("import json, pathlib; print('[ 1 ms] hello'); "
              "pathlib.Path(%r, 'report.json').write_text(json.dumps({'exit_code': 3})); "
              "raise SystemExit(3)" % str(tmp_path))
    code, report, serial = cb.run_hil([sys.executable, "-c", script], tmp_path)
    assert (code, report, serial) == (3, {"exit_code": 3}, "[ 1 ms] hello\n")
    (tmp_path / "report.json").write_text("{cut short")
    code, report, _ = cb.run_hil([sys.executable, "-c", "pass"], tmp_path)
    assert (code, report) == (0, None)
