"""tools.chipheap without the emulator: the probe, its serial lines and the
table."""

from firmware.app import WARM
from tools import chipheap as ch

SERIAL = """\
[     45.3 ms] @base 5424 240448
[     77.9 ms] @mod firmware.splash 2944 firmware.splash firmware firmware.files
[    100.0 ms] @mod firmware.board 1328 firmware.board
[    110.0 ms] @err engine.nope ImportError('no module')
[    120.0 ms] @mod engine.nope 0
[   1869.2 ms] @end 4272 236176
"""


def test_order_is_the_boot_then_the_game_path_once_each():
    order = ch.module_order()
    assert order[:len(ch.BOOT)] == list(ch.BOOT)
    assert len(order) == len(set(order))
    assert set(WARM) <= set(order)
    assert order[-1] == "firmware.screens.message"


def test_probe_is_python_that_names_every_module():
    order = ch.module_order()
    text = ch.probe_text(order)
    compile(text, "main.py", "exec")
    for name in order:
        assert repr(name) in text


def test_parse_and_table():
    res = ch.parse(SERIAL)
    assert res["base"] == 5424 and res["free_before"] == 240448
    assert res["total"] == 4272 and res["free_after"] == 236176
    assert [r["module"] for r in res["rows"]] == ["firmware.splash", "firmware.board",
                                                  "engine.nope"]
    assert res["rows"][0]["loaded"] == ["firmware.splash", "firmware", "firmware.files"]
    assert res["errors"] == ["engine.nope ImportError('no module')"]
    table = ch.format_table(res, "title")
    lines = table.splitlines()
    assert lines[0] == "title"
    assert "firmware.splash" in lines[2] and "2944" in lines[2] and "firmware.files" in lines[2]
    assert lines[3].split()[:3] == ["firmware.board", "1328", "4272"]  # the running total
    assert "error: engine.nope" in table


def test_parse_without_an_end_has_no_total():
    res = ch.parse(SERIAL.splitlines()[0] + "\n")
    assert res["total"] is None and res["rows"] == []


def test_missing_parts_exit_2(capsys, monkeypatch):
    for var in ("CHIPBENCH_FIRMWARE", "CHIPBENCH_BOOTROM", "CHIPBENCH_RP2040JS"):
        monkeypatch.delenv(var, raising=False)
    assert ch.main(["--firmware", "/nope/firmware.elf"]) == 2
    assert "firmware" in capsys.readouterr().err
