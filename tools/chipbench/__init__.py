"""Speed and heap of the game on an emulated Pico (`make chipbench`).

    python -m tools.chipbench [--board NAME|all] [--freq HZ] [--json] [--keep DIR]
        --firmware firmware.elf --bootrom bootrom.mjs --rp2040js node_modules

Boards: pico_ssd1306_i2c (default), pico_ssd1306_spi, pico_sh1106_i2c (the
harness's SH1106 model), thumby and macropad_rp2040 (its SH1106 on SPI and
six of its keys); `--board all` runs the first four in turn.

What it does:

1. Drives the headless simulator (simulator.host.Sim, seeded dice) through a
   fixed course, deciding key by key from the screen's state: title menu
   moves, rules & help with the odds page, settings, the new-game form
   (preset, the second seat a Master, tips on), a whole game against the
   Master (the person plays as tools/mp/scripted_player.py, picking the
   dice now and then one by one with the cursor; the computer's steps
   hurried by a press), the statistics, and last a game under custom rules from the
   rules editor, whose plan the device solves when the game starts,
   with the heap as the course left it; first of all, two cursor moves
   800 ms after power-on, while the game warms up. Every press is recorded
   with its kind (cursor move, die pick, value change, screen change, roll,
   bank, computer step, press in the warm-up) and the screen it was made
   on, and the simulator's screen is kept at chosen points. Made at run
   time, so the course follows the screens as they change.
2. Stages the board's tree as `make stage` does (tools.deploy), adds
   `bench.json` (seeded dice, so the chip plays the same game; the per
   frame `@prof` / `@heap` lines of firmware/profiling.py), optionally
   rewrites the staged board's FREQ, and packs the tree into a littlefs
   image in the RPI_PICO layout.
3. Runs the course on real MicroPython firmware in rp2040js with the
   harness tools/hil/hil.mjs: once for timing (profile on, heap off) and,
   at the same time, once with `gc.collect()` and an `@heap` line after
   every frame (its collections would disturb the timing).
4. Prints one table: boot (from a shot 300 ms after power-on: the title
   must be on the panel by then), press to panel by kind (the first
   update), press to the settled panel per screen and kind (when the panel
   shows what it keeps until the next press: a screen change's first
   frame is often the "working" mark) with the limits of issue 30 (cursor
   move and value change: median 16.7 ms per screen; screen change 45 ms;
   no press over 80 ms; boot 300 ms), the slowest press, heap,
   the custom-rules solve, crashes, allocations, stretched frames, where a
   press's time goes, and whether every chip screenshot equals the
   simulator's pixel for pixel (a difference means the course drifted: a
   press landed on another screen, or came while the chip was still busy
   with the one before and was lost): the presses from the last equal shot
   on are left out of the figures, as are those after the app failed (a
   traceback on the serial, which ends the run, or a report in the
   /data/error.log that firmware.recovery writes: the flash is saved at the
   end of the run and the log read from it).

Emulation runs at a quarter to half of real time, so the course is kept to
about two emulated minutes; the two runs go in parallel (one core each), the
heap run over the game against the Master alone (its heap walks make it the
slower one).

The package, one module a job:

    course.py      the course, driven in the simulator, and its harness script
    stage.py       the staged tree with bench.json, the littlefs image, the error log
    parts.py       the outside parts (firmware, bootrom, rp2040js) and how to get them
    harness.py     the harness's command line per board, running the runs
    serial_log.py  the board's @prof / @heap lines
    analysis.py    the figures from the reports, serial lines and shots
    report.py      the table
    cli.py         the command line (`python -m tools.chipbench`, `make chipbench`)

The names other tools use (tools/chipheap.py and others) are importable from
the package itself.
"""

from tools.chipbench.analysis import (
    analyse,
    boot_ms,
    compare_shots,
    crash_info,
    heap_figures,
    sha1_bits,
    shot_difference,
    solve_figures,
    summary,
)
from tools.chipbench.cli import main, parse_args
from tools.chipbench.course import (
    DEFAULT_BOARD,
    HOLD_MS,
    KIND_LABEL,
    KINDS,
    PARTS_ALL,
    PARTS_HEAP,
    SEED,
    SOLVE_WAIT_MS,
    Course,
    CourseError,
    build_course,
    script_text,
)
from tools.chipbench.harness import (
    EXPECT_MS,
    SCALE,
    TRACEBACK,
    WIRING,
    check_board,
    hil_command,
    read_report,
    run_all,
    run_hil,
)
from tools.chipbench.parts import (
    HOW_TO_GET,
    PARTS,
    add_part_args,
    find_parts,
    missing_message,
    ready_parts,
)
from tools.chipbench.report import format_table
from tools.chipbench.serial_log import parse_serial
from tools.chipbench.stage import (
    error_logs,
    mount_image,
    pack_image,
    patch_freq,
    read_error_log,
    romfs_firmware,
    stage_tree,
)

__all__ = [
    "DEFAULT_BOARD", "EXPECT_MS", "HOLD_MS", "HOW_TO_GET", "KINDS", "KIND_LABEL", "PARTS",
    "PARTS_ALL", "PARTS_HEAP", "SCALE", "SEED", "SOLVE_WAIT_MS", "TRACEBACK", "WIRING", "Course",
    "CourseError", "add_part_args", "analyse", "boot_ms", "build_course", "check_board",
    "compare_shots", "crash_info", "find_parts", "format_table", "heap_figures", "hil_command",
    "main", "missing_message", "pack_image", "parse_args", "parse_serial", "patch_freq",
    "read_error_log", "error_logs", "mount_image", "read_report", "run_hil", "ready_parts",
    "romfs_firmware", "run_all", "script_text", "sha1_bits", "shot_difference", "solve_figures",
    "stage_tree", "summary",
]
