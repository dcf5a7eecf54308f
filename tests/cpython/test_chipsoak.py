"""tools/chipsoak.py without the emulator: its timelines (seeded, every kind
of press, the cut at the end) and how it reads a part (the probe's serial
lines, the error log's entries, the table)."""

import re
from pathlib import Path

from tools import chipsoak

HOLD_RE = re.compile(r"^(hold|release) (\w+)$")


def _keys_held(lines):
    """Replay hold/release lines: the keys still held at the end, and the
    most held at once."""
    held, most = set(), 0
    for line in lines:
        m = HOLD_RE.match(line)
        if m:
            (held.add if m.group(1) == "hold" else held.discard)(m.group(2))
            most = max(most, len(held))
    return held, most


def test_a_part_is_the_same_for_the_same_seed_and_differs_between_parts():
    a = chipsoak.part_timeline(3, 0, 90000, True)
    b = chipsoak.part_timeline(3, 0, 90000, True)
    assert a.text() == b.text() and a.counts == b.counts
    assert chipsoak.part_timeline(3, 1, 90000, True).text() != a.text()
    assert chipsoak.part_timeline(4, 0, 90000, True).text() != a.text()


def test_a_part_lasts_its_time_and_ends_in_a_cut_only_when_asked():
    t = chipsoak.part_timeline(1, 0, 120000, True)
    assert t.lines[-1] == "poweroff"
    assert 120000 <= t.ms < 120000 + 140000  # the last action may run over (a long wait)
    waits = sum(int(line.split()[1]) for line in t.lines if line.startswith("wait "))
    presses = sum(int(line.split()[2]) for line in t.lines if line.startswith("press "))
    assert waits + presses == t.ms  # the harness's clock: holds add no time of their own
    first = int(t.lines[1].split()[1])  # the boot: the title is on the panel at ~1.2 s
    assert chipsoak.EARLY_MS[0] <= first <= chipsoak.EARLY_MS[1]
    last = chipsoak.part_timeline(1, 2, 120000, False)
    assert "poweroff" not in last.lines


def test_the_parts_of_a_soak_hold_every_kind_of_press():
    counts = {}
    held_end = set()
    most = 0
    for part in range(6):
        t = chipsoak.part_timeline(7, part, 300000, part < 5)
        for key, n in t.counts.items():
            counts[key] = counts.get(key, 0) + n
        held, m = _keys_held(t.lines)
        held_end |= held
        most = max(most, m)
        for line in t.lines:  # only what the harness understands
            assert line.startswith(("#", "wait ", "press ", "hold ", "release ", "poweroff")), line
    assert all(counts[k] > 0 for k in ("presses", "bursts", "holds", "chords", "waits",
                                       "excursions")), counts
    assert not held_end  # every hold is let go
    assert most == 2  # chords: two buttons at once


def test_every_boot_gets_fast_presses_within_its_first_second():
    for part in range(4):
        t = chipsoak.part_timeline(11, part, 60000, part < 3)
        at, presses = 0, []
        for line in t.lines:
            words = line.split()
            if words[0] == "wait":
                at += int(words[1])
            elif words[0] == "press":
                presses.append(at)
                at += int(words[2])
        title = chipsoak.EARLY_MS[0]  # the title is on the panel from about here
        early = [p for p in presses if p < title + 1000]
        assert len(early) >= chipsoak.EARLY_PRESSES[0] and presses[0] <= chipsoak.EARLY_MS[1]


def test_cut_parts_end_at_every_kind_of_instant_and_in_saves():
    ends, last_lines, harness = {}, set(), []
    for seed in range(40):
        t = chipsoak.part_timeline(seed, 0, 20000, True)
        ends[t.end] = ends.get(t.end, 0) + 1
        assert t.lines[-1] == "poweroff" and t.lines[-2].startswith("wait ")
        assert int(t.lines[-2].split()[1]) <= 80
        last_lines.add(t.lines[-3].split()[0])  # what the cut follows: a press, a hold, a wait
        if t.end == "save":
            assert t.harness[0] == "--cut-flash-op"
            n, f = t.harness[1].split(":")
            assert 1 <= int(n) <= chipsoak.SAVE_OPS and 0 <= float(f) <= 1
            harness.append(t.harness)
        else:
            assert t.harness == []
        waits = sum(int(x.split()[1]) for x in t.lines if x.startswith("wait "))
        presses = sum(int(x.split()[2]) for x in t.lines if x.startswith("press "))
        assert waits + presses == t.ms
    assert set(ends) == {"instant", "save"}, ends
    assert {"press", "wait"} <= last_lines, last_lines
    assert len({h[1] for h in harness}) > 1
    assert chipsoak.part_timeline(3, 2, 20000, False).end is None


def test_resets_and_the_heap_per_screen_are_counted(tmp_path, monkeypatch, capsys):
    """A part that ends in a reset of the chip (a 'reset' log entry, the
    harness's end 'reset') counts as a reset, not a failure; the next part
    boots from its flash; the heap samples count per screen and the cut
    parts by the screen they ended on."""
    calls = []

    def fake_run(parts, board, image, script, out, max_ms, extra=()):
        part = len(calls)
        calls.append((str(image), list(extra)))
        out.mkdir(parents=True)
        (out / "flash.img").write_text("part %d" % part)
        if part == 0:
            return 0, {"emulated_ms": 30000, "end_reason": "power-cut",
                       "power_cut": {"flash_op": {"n": 3}}}, SERIAL.replace(
                "[  5000.0 ms] @fail ms=4990 kind=restart\n", "")
        if part == 1:
            return 5, {"emulated_ms": 20000, "end_reason": "reset"}, ""
        return 0, {"emulated_ms": 10000, "end_reason": "script-done"}, ""

    logs = {"part 1": "--- 700 ms reset\nMemoryError while handling a failure\nTraceback\n"}
    monkeypatch.setattr(chipsoak, "stage_tree", lambda board, tree, bench, **kw: tree.mkdir(
        parents=True))
    monkeypatch.setattr(chipsoak, "pack_image", lambda tree, image: image.write_bytes(b""))
    monkeypatch.setattr(chipsoak, "run_part", fake_run)
    monkeypatch.setattr(chipsoak, "ready_parts", lambda args: {"firmware": "fw"})
    monkeypatch.setattr(chipsoak, "read_logs", lambda image: logs.get(
        Path(image).read_text() if Path(image).stat().st_size else "", ""))
    code = chipsoak.main(["--seeds", "1", "--minutes", "1", "--cuts", "2",
                          "--keep", str(tmp_path / "work")])
    out = capsys.readouterr().out
    assert code == 1 and calls[2][0].endswith("seed1-part2/flash.img")
    assert "power cuts 1, failures 0, resets 1" in out
    assert "failure: seed 1 part 2 at 700 ms: reset" in out
    assert re.search(r"settings\s+1\s+42.0 KB\s+1.9 KB", out), out
    assert re.search(r"title\s+1\s+81.1 KB\s+22.7 KB", out), out
    assert "power cuts by screen on top (times): settings 1" in out
    assert "power cuts in a flash write: 1" in out
    assert "screens visited that no cut landed in: title" in out


def test_bursts_are_fast_and_long_holds_are_long():
    t = chipsoak.Timeline()
    rng = chipsoak.random.Random(5)
    chipsoak._action(rng, t, "burst")
    gaps = [int(x.split()[1]) for x in t.lines if x.startswith("wait ")][:-1]
    assert len([x for x in t.lines if x.startswith("press ")]) >= 3 and max(gaps) < 100
    t = chipsoak.Timeline()
    chipsoak._action(rng, t, "hold")
    assert t.lines[0].startswith("hold ") and int(t.lines[1].split()[1]) >= 650


SERIAL = """\
[    30.0 ms] @scr ms=25 title de
[  3010.0 ms] @soak ms=3001
[  3011.0 ms] stack: 532 out of 7936
[  3011.0 ms] GC: total: 233024, used: 150000, free: 83024
[  3011.0 ms]  No. of 1-blocks: 22, 2-blocks: 6, max blk sz: 64, max free sz: 1451
[  4000.0 ms] @scr ms=3990 settings de
[  4100.0 ms] @scr ms=4090 settings en
[  5000.0 ms] @fail ms=4990 kind=restart
[  6010.0 ms] @soak ms=6003
[  6011.0 ms] GC: total: 233024, used: 190000, free: 43024
[  6011.0 ms]  No. of 1-blocks: 20, 2-blocks: 6, max blk sz: 64, max free sz: 120
"""


def test_the_probe_lines_are_read():
    seen = chipsoak.parse_serial(SERIAL)
    assert seen["samples"] == [(3001, 83024, 1451 * 16, "title"),  # the screen on top then
                               (6003, 43024, 120 * 16, "settings")]
    assert seen["screens"] == [(25, "title", "de"), (3990, "settings", "de"),
                               (4090, "settings", "en")]
    assert seen["fails"] == [(4990, "restart")]
    assert seen["tracebacks"] == 0
    assert chipsoak.parse_serial(SERIAL + chipsoak.TRACEBACK + "\n")["tracebacks"] == 1
    half = "[ 1.0 ms] @soak ms=9\n[ 1.0 ms] GC: total: 1, used: 1, free: 7\n"
    assert chipsoak.parse_serial(half)["samples"] == []  # cut before its last line


LOG = """\
--- 1200 ms MemoryError
Traceback (most recent call last):
  File "firmware/strings.py", line 34, in _packed
MemoryError: memory allocation failed, allocating 8338 bytes
--- 4400 ms MemoryError
Traceback (most recent call last):
  File "engine/scoring.py", line 36, in <module>
MemoryError: memory allocation failed, allocating 3696 bytes
"""


def test_log_entries_and_the_new_ones_of_a_part():
    entries = chipsoak.log_entries(LOG)
    assert [(ms, kind) for ms, kind, _ in entries] == [(1200, "MemoryError"),
                                                       (4400, "MemoryError")]
    assert entries[0][2].endswith("allocating 8338 bytes")
    assert chipsoak.log_entries("") == []
    assert chipsoak.new_entries([], entries) == entries
    assert chipsoak.new_entries(entries, entries) == []
    more = entries + [(900, "OSError", "x")]
    assert chipsoak.new_entries(entries, more) == [(900, "OSError", "x")]
    # the log moved to error.log.1 and the oldest entry is gone from the window
    assert chipsoak.new_entries(entries, entries[1:] + [(5, "KeyError", "y")]) == [
        (5, "KeyError", "y")]


def test_read_logs_joins_the_two_files_of_a_flash_image(tmp_path):
    from littlefs import LittleFS

    fs = LittleFS(block_size=4096, block_count=64, prog_size=256)
    fs.makedirs("data", exist_ok=True)
    with fs.open("data/error.log.1", "wb") as f:
        f.write(b"--- 1 ms OSError\nold\n")
    with fs.open("data/error.log", "wb") as f:
        f.write(b"--- 2 ms KeyError\nnew\n")
    image = tmp_path / "flash.img"
    image.write_bytes(bytes(fs.context.buffer))
    text = chipsoak.read_logs(image)
    assert [e[:2] for e in chipsoak.log_entries(text)] == [(1, "OSError"), (2, "KeyError")]
    assert chipsoak.read_logs(tmp_path / "missing.img") == ""
    (tmp_path / "junk.img").write_bytes(b"\0" * 8192)
    assert chipsoak.read_logs(tmp_path / "junk.img") == ""


def test_the_table_sums_the_runs_and_lists_the_failures():
    runs = [
        {"seed": 1, "parts": 3, "emulated_ms": 300000, "presses": 400, "cuts": 2,
         "failures": 0, "min_free": 50000, "min_largest": 9000, "wall_s": 600.0},
        {"seed": 2, "parts": 3, "emulated_ms": 240000, "presses": 300, "cuts": 2,
         "failures": 1, "min_free": 40000, "min_largest": 12000, "wall_s": 500.0},
    ]
    total = chipsoak.summarise(runs)
    assert total["runs"] == 2 and total["cuts"] == 4 and total["presses"] == 700
    assert total["min_free"] == 40000 and total["min_largest"] == 9000
    res = {"title": "chipsoak test", "runs": runs, "total": total, "screens": {"title": 3},
           "lang_changes": 2, "notes": [],
           "failures": [{"seed": 2, "part": 3, "ms": 4400, "type": "MemoryError",
                         "traceback": "Traceback ...\nMemoryError: allocating 3696 bytes"}]}
    text = chipsoak.format_table(res)
    assert "total" in text and "9.0" in text  # 540000 ms = 9.0 emulated minutes
    assert "power cuts 4, failures 1" in text
    assert "failure: seed 2 part 3 at 4400 ms: MemoryError" in text
    assert "allocating 3696 bytes" in text
    assert "language changes seen: 2" in text


def test_the_probe_starts_the_game_with_its_hook():
    src = chipsoak.PROBE
    compile(src, "main.py", "exec")
    assert "from firmware.main import main" in src and src.rstrip().endswith("main(hook=_soak)")
    assert "micropython.mem_info()" in src and str(chipsoak.SAMPLE_MS) in src


def test_a_soak_reads_each_part_and_counts_only_new_failures(tmp_path, monkeypatch, capsys):
    """main() over two seeds of two parts, the harness replaced: the second
    part of seed 2 logs a failure; the entry the first part left is not
    counted again."""
    calls = []

    def fake_stage(board, tree, bench, **kw):
        tree.mkdir(parents=True)

    def fake_pack(tree, image):
        image.write_bytes(b"")

    def fake_run(parts, board, image, script, out, max_ms, extra=()):
        seed, part = len(calls) // 2 + 1, len(calls) % 2
        calls.append((seed, part, str(image), script.rstrip().endswith("poweroff")))
        out.mkdir(parents=True)
        (out / "flash.img").write_text("seed %d part %d" % (seed, part))
        if part == 0:
            serial = SERIAL.replace("[  5000.0 ms] @fail ms=4990 kind=restart\n", "")
        else:
            serial = "[ 1.0 ms] @fail ms=900 kind=restart\n" if seed == 2 else ""
        end = "power-cut" if part == 0 else "script-done"
        return 0, {"emulated_ms": 40000, "end_reason": end}, serial

    logs = {"seed 2 part 1": LOG, "seed 2 part 0": LOG.split("--- 4400")[0]}
    monkeypatch.setattr(chipsoak, "stage_tree", fake_stage)
    monkeypatch.setattr(chipsoak, "pack_image", fake_pack)
    monkeypatch.setattr(chipsoak, "run_part", fake_run)
    monkeypatch.setattr(chipsoak, "ready_parts", lambda args: {"firmware": "fw"})
    monkeypatch.setattr(chipsoak, "read_logs", lambda image: logs.get(
        Path(image).read_text() if Path(image).stat().st_size else "", ""))
    code = chipsoak.main(["--seeds", "2", "--minutes", "2", "--cuts", "1",
                          "--keep", str(tmp_path / "work")])
    out = capsys.readouterr().out
    assert code == 1  # a failure
    assert [c[:2] for c in calls] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert [c[3] for c in calls] == [True, False, True, False]  # a cut ends each part but the last
    assert calls[1][2].endswith("seed1-part1/flash.img")  # a part boots from the flash before
    # seed 2: its first part's entry (1200 ms) was counted there, its second part's (4400 ms) there
    assert "failure: seed 2 part 1 at 1200 ms: MemoryError" in out
    assert "failure: seed 2 part 2 at 4400 ms: MemoryError" in out
    assert out.count("failure: seed") == 2 and "seed 1 part 2/2: 40.0 emulated s" in out
    assert "power cuts 2, failures 2" in out
    assert "language changes seen: 2" in out  # de -> en in each first part's settings
    assert (tmp_path / "work" / "stage" / "bench.json").read_text().strip() == '{"seed": 2}'


def test_jobs_run_seeds_at_once_and_the_table_is_the_same(tmp_path, monkeypatch, capsys):
    """--jobs 2 plays two seeds' harnesses at the same time; each seed's
    parts still run in order from the flash the part before left, and the
    table (runs in seed order, totals, failures) equals that of --jobs 1."""
    import threading
    import time

    lock = threading.Lock()
    state = {"now": 0, "most": 0}
    calls = []

    def fake_run(parts, board, image, script, out, max_ms, extra=()):
        seed, part = (int(v) for v in re.match(r"seed(\d+)-part(\d+)", out.name).groups())
        with lock:
            calls.append((seed, part, Path(image).name))
            state["now"] += 1
            state["most"] = max(state["most"], state["now"])
        time.sleep(0.05)
        out.mkdir(parents=True)
        (out / "flash.img").write_text("seed %d part %d" % (seed, part))
        serial = "[ 1.0 ms] @fail ms=900 kind=restart\n" if (seed, part) == (3, 2) else ""
        with lock:
            state["now"] -= 1
        return 0, {"emulated_ms": 1000 * seed + part,
                   "end_reason": "power-cut" if part == 1 else "script-done"}, serial

    monkeypatch.setattr(chipsoak, "stage_tree", lambda board, tree, bench, **kw: tree.mkdir(
        parents=True))
    monkeypatch.setattr(chipsoak, "pack_image", lambda tree, image: image.write_bytes(b""))
    monkeypatch.setattr(chipsoak, "run_part", fake_run)
    monkeypatch.setattr(chipsoak, "ready_parts", lambda args: {"firmware": "fw"})
    monkeypatch.setattr(chipsoak, "read_logs", lambda image: LOG if Path(image).stat().st_size
                        and Path(image).read_text() == "seed 3 part 2" else "")
    tables = {}
    for jobs in (1, 2):
        del calls[:]
        state["most"] = 0
        code = chipsoak.main(["--seeds", "4", "--minutes", "4", "--cuts", "1", "--jobs",
                              str(jobs), "--keep", str(tmp_path / ("work%d" % jobs))])
        out = capsys.readouterr().out
        assert code == 1  # seed 3's second part logged failures
        assert state["most"] == jobs
        for seed in (1, 2, 3, 4):  # in order per seed, the second from the first's flash
            mine = [c for c in calls if c[0] == seed]
            assert mine == [(seed, 1, "seed%d-part0.img" % seed), (seed, 2, "flash.img")]
        rows = [line.split()[:7] for line in out.splitlines() if re.match(r"^(\d+|total) ", line)]
        assert [r[0] for r in rows] == ["1", "2", "3", "4", "total"]
        tables[jobs] = (rows, [line for line in out.splitlines() if line.startswith("failure")])
    assert tables[1] == tables[2]
    assert tables[2][1]  # the failures are listed


def test_the_first_uncut_screen_of_a_part_and_its_instant():
    screens = [(25, "title", "de"), (1300, "setup", "de"), (1400, "rules_edit", "de"),
               (2500, "rules_unsaved", "de"), (2600, "rules_edit", "de")]
    assert chipsoak.uncut_screen(screens, {}) == ("title", 175)
    assert chipsoak.uncut_screen(screens, {"title": 1}) == ("setup", 1350)  # halfway: 100 ms
    assert chipsoak.uncut_screen(screens, {"title": 1, "setup": 2, "rules_edit": 1}) == (
        "rules_unsaved", 2550)
    every = {"title": 1, "setup": 1, "rules_edit": 1, "rules_unsaved": 1}
    assert chipsoak.uncut_screen(screens, every) is None  # (the last one: no end known)


def test_every_screen_replays_a_cut_part_into_its_uncut_screen(tmp_path, monkeypatch, capsys):
    calls = []
    serial = ("[ 30.0 ms] @scr ms=25 title de\n[ 1310.0 ms] @scr ms=1300 confirm de\n"
              "[ 2010.0 ms] @scr ms=2000 title de\n")

    def fake_run(parts, board, image, script, out, max_ms, extra=()):
        calls.append((out.name, Path(image).name, list(extra), str(image)))
        out.mkdir(parents=True)
        (out / "flash.img").write_text(out.name)
        if "--cut-at-ms" in extra:
            return 0, {"emulated_ms": 1450, "end_reason": "power-cut"}, serial[:serial.index(
                "[ 2010")]
        if out.name.endswith("part1"):
            return 0, {"emulated_ms": 9000, "end_reason": "power-cut"}, serial
        return 0, {"emulated_ms": 9000, "end_reason": "script-done"}, ""

    monkeypatch.setattr(chipsoak, "stage_tree", lambda board, tree, bench, **kw: tree.mkdir(
        parents=True))
    monkeypatch.setattr(chipsoak, "pack_image", lambda tree, image: image.write_bytes(b""))
    monkeypatch.setattr(chipsoak, "run_part", fake_run)
    monkeypatch.setattr(chipsoak, "ready_parts", lambda args: {"firmware": "fw"})
    monkeypatch.setattr(chipsoak, "read_logs", lambda image: "")
    code = chipsoak.main(["--seeds", "1", "--minutes", "0.3", "--cuts", "1", "--every-screen",
                          "--keep", str(tmp_path / "work")])
    out = capsys.readouterr().out
    assert code == 0
    # part 1 ends its own way on title; its replay from the same flash cuts on confirm
    # (the first screen no cut landed in), and part 2 boots from the replay's flash
    assert calls[0][:2] == ("seed1-part1", "seed1-part0.img")
    assert calls[1][:3] == ("seed1-part1-cut", "seed1-part0.img", ["--cut-at-ms", "1450"])
    assert calls[2][0] == "seed1-part2" and calls[2][3].endswith("seed1-part1-cut/flash.img")
    assert (tmp_path / "work" / "seed1-part1-cut" / "flash.img").read_text() == "seed1-part1-cut"
    assert "power cuts by screen on top (times): " in out
    assert "confirm 1" in out and "title 1" in out and "power cuts 2" in out
