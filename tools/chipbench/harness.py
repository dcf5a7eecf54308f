"""Running the harness tools/hil/hil.mjs: the emulated Pico in node.

`hil_command` is one run's command line (the board's wiring as the harness
models it), `run_all` runs several at once, one process each, and ends a
run whose board printed a Python traceback.
"""

import json
import subprocess
import time
from pathlib import Path

from tools.chipbench.serial_log import TRACEBACK
from tools.chipbench.stage import read_error_log

ROOT = Path(__file__).resolve().parents[2]
HIL = ROOT / "tools" / "hil" / "hil.mjs"
SCALE = 4  # PNG scale of the harness's shots
EXPECT_MS = 150000  # the longest expect-serial wait (the solve, by its @prof lines)

# The harness's wiring of each board it can model (see the hil README).
_BUTTONS = "UP=10,DOWN=11,LEFT=12,RIGHT=13,A=14,B=15"
WIRING = {
    "pico_ssd1306_i2c": ["--i2c", "0", "--sda", "4", "--scl", "5", "--addr", "0x3C",
                         "--buttons", _BUTTONS, "--button-pulls", "internal"],
    "pico_sh1106_i2c": ["--controller", "sh1106", "--i2c", "0", "--sda", "4", "--scl", "5",
                        "--addr", "0x3C", "--buttons", _BUTTONS, "--button-pulls", "internal"],
    "pico_ssd1306_spi": ["--spi", "0", "--sck", "18", "--mosi", "19", "--cs", "17", "--dc", "16",
                         "--res", "20", "--panel", "128x64", "--buttons", _BUTTONS,
                         "--button-pulls", "internal"],
    "thumby": ["--spi", "0", "--sck", "18", "--mosi", "19", "--cs", "16", "--dc", "17",
               "--res", "20", "--panel", "72x40", "--pin-level", "15=0",
               "--buttons", "UP=4,DOWN=6,LEFT=3,RIGHT=5,A=27,B=24", "--button-pulls", "internal"],
    # MicroPython drives its panel and the six buttons (KEY1..KEY6) only.
    "macropad_rp2040": ["--controller", "sh1106", "--spi", "1", "--sck", "26", "--mosi", "27",
                        "--cs", "22", "--dc", "24", "--res", "23",
                        "--buttons", "B=1,UP=2,A=3,LEFT=4,DOWN=5,RIGHT=6",
                        "--button-pulls", "internal"],
}
REFUSED = {}  # boards the harness cannot model (every board of boards/ it can now)
I2C_BOARDS = ("pico_ssd1306_i2c", "pico_sh1106_i2c")


def check_board(board, freq):
    """None, or why the board (or --freq on it) cannot be benchmarked."""
    if board in REFUSED:
        return "cannot benchmark %s: %s." % (board, REFUSED[board])
    if board not in WIRING:
        return "unknown board %r; the harness can model %s" % (board, ", ".join(WIRING))
    if freq is not None and board not in I2C_BOARDS:
        return "--freq is the I2C bus frequency; %s drives its display over SPI" % board
    if freq is not None and not 10_000 <= freq <= 1_000_000:
        return "--freq %d is outside 10 kHz .. 1 MHz" % freq
    return None


def hil_command(parts, board, image, script, out, max_ms, timeout_s):
    """The node command line of one harness run."""
    return ["node", str(HIL), "--fw", parts["firmware"], "--bootrom", parts["bootrom"],
            "--rp2040js", parts["rp2040js"], "--fs", str(image)] + WIRING[board] + [
        "--script", str(script), "--out", str(out), "--scale", str(SCALE),
        "--save-fs", str(Path(out) / "flash.img"),
        "--expect-ms", str(EXPECT_MS), "--max-emulated-ms", str(int(max_ms)),
        "--timeout", str(int(timeout_s))]



def read_report(out):
    """The harness's report.json in folder `out` as a dict, or None when a
    run wrote none (or not all of it)."""
    try:
        return json.loads((Path(out) / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def run_hil(cmd, out):
    """Run the harness command `cmd` to its end with its output in folder
    `out` (serial.txt, hil.log); (exit code, report dict or None, serial)."""
    out = Path(out)
    with open(out / "serial.txt", "w") as so, open(out / "hil.log", "w") as se:
        code = subprocess.call(cmd, stdout=so, stderr=se)
    return code, read_report(out), (out / "serial.txt").read_text(errors="replace")


def run_all(jobs, log, poll_s=1.0, grace_s=3.0):
    """Run the harness commands of `jobs` ({name: (cmd, out_dir)}) at the
    same time; returns {name: (exit code, report dict or None)}. A run whose
    board printed a Python traceback is ended (SIGTERM: the harness still
    writes its report) `grace_s` after: the rest of the course would only
    press buttons at a REPL."""
    procs = {}
    for name, (cmd, out) in jobs.items():
        Path(out).mkdir(parents=True, exist_ok=True)
        stdout = open(Path(out) / "serial.txt", "w")
        stderr = open(Path(out) / "hil.log", "w")
        procs[name] = [subprocess.Popen(cmd, stdout=stdout, stderr=stderr), stdout, stderr, out,
                       None]
        log("hil: %s run started (%s)" % (name, out))
    results = {}
    while len(results) < len(procs):
        time.sleep(poll_s)
        for name, entry in procs.items():
            proc, stdout, stderr, out, crashed = entry
            if name in results:
                continue
            code = proc.poll()
            if code is None:
                if crashed is None:
                    try:
                        text = (Path(out) / "serial.txt").read_text(errors="replace")
                    except OSError:
                        text = ""
                    if TRACEBACK in text:
                        entry[4] = time.time()
                        log("hil: %s run: the board printed a traceback; ending the run" % name)
                elif time.time() - crashed > grace_s:
                    proc.terminate()
                continue
            stdout.close()
            stderr.close()
            report = read_report(out)
            if report is not None:
                report["error_log"] = read_error_log(Path(out) / "flash.img")
            log("hil: %s run ended, exit %d" % (name, code))
            results[name] = (code, report)
    return results
