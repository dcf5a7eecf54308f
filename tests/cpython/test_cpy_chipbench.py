"""tools.cpy_chipbench: the chipbench course set up for CircuitPython (the run itself needs
the built firmware and the harness: not here)."""

import json

from tools import cpy_chipbench
from tools.chipbench.harness import WIRING


def test_the_drive_is_make_uf2_cpys_with_bench_json(tmp_path):
    made = []

    def run(cmd, check, stdout):
        made.append(cmd)
        tree = tmp_path / "drive"
        assert json.loads((tree / "bench.json").read_text()) == {"seed": 7, "profile": True}
        assert (tree / "code.py").is_file() and (tree / "board.txt").read_text() == \
            "pico_ssd1306_i2c\n"

    image = cpy_chipbench.drive_image("pico_ssd1306_i2c", {"seed": 7, "profile": True},
                                      tmp_path, "/cpyout", "/scripts", run)
    assert image == tmp_path / "drive.img"
    assert made == [["/scripts/mkfat.sh", str(image), str(tmp_path / "drive"), "/cpyout"]]


def test_the_course_starts_after_usb_has_enumerated():
    class Course:
        presses = [{"kind": "cursor"}]
        shots = {"boot": None}
        steps = [{"op": "wait", "ms": 300}, {"op": "shot", "name": "boot"},
                 {"op": "press", "n": 0, "kind": "cursor", "screen": "title", "key": "DOWN"}]

    lines = cpy_chipbench.course_script(Course()).splitlines()
    assert lines[0] == "wait %d" % cpy_chipbench.USB_WAIT_MS
    body = [line for line in lines[1:] if not line.startswith("#")]
    assert body == ["wait 300", "shot boot", "press DOWN 80"]


def test_the_harness_boots_circuitpython_with_the_boards_wiring():
    parts = {"firmware": "/fw.elf", "bootrom": "/b.mjs", "rp2040js": "/nm"}
    cmd = cpy_chipbench.hil_command("/hil.mjs", parts, "pico_sh1106_i2c", "/d.img", "/s.hil",
                                    "/out", 9000)
    assert cmd[:4] == ["node", "/hil.mjs", "--circuitpython", "--fw"]
    assert cmd[cmd.index("--fs") + 1] == "/d.img"
    joined = " ".join(cmd)
    assert " ".join(WIRING["pico_sh1106_i2c"]) in joined
    assert cmd[cmd.index("--max-emulated-ms") + 1] == "9000"
