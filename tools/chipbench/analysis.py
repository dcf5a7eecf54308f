"""The figures of a chipbench run: from the harness's report, the board's
serial lines and the course, what the table shows (see `analyse`)."""

import hashlib
import io
import os
import re
import statistics
from pathlib import Path

from tools.chipbench.course import KIND_LABEL, KINDS
from tools.chipbench.serial_log import TRACEBACK, parse_serial

BURST_GAP_MS = 2.0  # frames this close after each other belong to one show()
BOOT_SHOT = "_boot"  # the name's end of the course's first shot (course.BOOT_SHOT_MS)


def _f(value):
    return "-" if value is None else "%.0f" % value


def summary(values):
    """count, median, p90 (nearest rank, as the harness) and max of `values`."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return {"count": 0, "median": None, "p90": None, "max": None}
    p90 = v[max(0, -(-9 * len(v) // 10) - 1)]
    return {"count": len(v), "median": statistics.median(v), "p90": p90, "max": v[-1]}


def _load_png(png_bytes):
    """A PNG as a pygame Surface, or None if it cannot be read."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # stdout may carry --json
    import pygame

    try:
        return pygame.image.load(io.BytesIO(png_bytes), "shot.png")
    except (pygame.error, ValueError):
        return None


def shot_difference(png_bytes, pixels, width, height):
    """Pixels that differ between a harness shot (a PNG at any whole scale
    of the panel) and the simulator's `pixels` (bytes, 0/1 per pixel row by
    row); None if the PNG is unreadable or not the panel's size."""
    shot = _load_png(png_bytes)
    if shot is None:
        return None
    w, h = shot.get_size()
    scale = w // width if width else 1
    if scale < 1 or h // scale != height:
        return None
    diff = 0
    for y in range(height):
        for x in range(width):
            lit = shot.get_at((x * scale, y * scale)).r > 127
            if lit != bool(pixels[y * width + x]):
                diff += 1
    return diff


def sha1_bits(pixels):
    """The harness's sha1 of a panel image (one 0/1 byte per pixel)."""
    return hashlib.sha1(bytes(pixels)).hexdigest()


def frame_end_ms(frame):
    return frame["start_ms"] + frame["bus_us"] / 1000.0


def panel_done_ms(log, at, gap_ms=None):
    """The end of the update that frame `log[at]` begins: a show() may send
    several frames (the changed windows of the panel) back to back; the
    update is on the panel after the last of those that follow each other
    within `gap_ms` (BURST_GAP_MS)."""
    gap_ms = BURST_GAP_MS if gap_ms is None else gap_ms
    end = frame_end_ms(log[at])
    for f in log[at + 1:]:
        if f["start_ms"] - end > gap_ms:
            break
        end = frame_end_ms(f)
    return end


def settled_ms(log, down_ms, until_ms):
    """When the panel settled after a press at `down_ms`: the end of the
    frame from which on every frame started before `until_ms` (the next
    press) leaves the panel as the last of them does (sha1). A screen
    change's first update may be a "working" mark, a roll's its first
    picture; this is when the panel shows what it keeps. None when no
    frame started in between."""
    frames = [f for f in log if down_ms <= f["start_ms"] < until_ms]
    if not frames:
        return None
    final = frames[-1].get("sha1")
    k = len(frames) - 1
    while k > 0 and frames[k - 1].get("sha1") == final:
        k -= 1
    return frame_end_ms(frames[k])


def boot_ms(report, title_shot):
    """Power-on to the title complete on the panel: the end of the first
    frame whose panel (sha1) equals the title shot's, taken before that
    shot. A driver that draws the first frame with the display still off
    and switches it on after has no such frame: then the end of the last
    frame before the shot (the display came on after it, before the shot)."""
    log = report["display"]["frame_log"]
    shot = next((s for s in report.get("shots", []) if s.get("name") == title_shot), None)
    if shot is None:
        return None
    for f in log:
        if f["start_ms"] > shot["at_ms"]:
            break
        if f.get("sha1") == shot["sha1"]:
            return frame_end_ms(f)
    before = [f for f in log if frame_end_ms(f) <= shot["at_ms"]]
    return frame_end_ms(before[-1]) if before and shot.get("panel_lit", True) else None


def stretched_frames(frames, factor=1.25):
    """Frames whose bus time is above `factor` times the median of the
    frames with the same byte count: (count, frames considered, worst)."""
    by_size = {}
    for f in frames:
        by_size.setdefault(f["bytes"], []).append(f)
    count, worst = 0, None
    for group in by_size.values():
        if len(group) < 3:
            continue
        median = statistics.median(f["bus_us"] for f in group)
        for f in group:
            ratio = f["bus_us"] / median if median else 0
            if ratio > factor:
                count += 1
                if worst is None or ratio > worst["ratio"]:
                    worst = {"n": f["n"], "bytes": f["bytes"], "bus_us": f["bus_us"],
                             "median_us": median, "ratio": round(ratio, 2)}
    return count, len(frames), worst


def prof_for_frame(prof, start_ms):
    """The @prof line of the loop pass that drew the frame starting at
    `start_ms`: the last pass that began at or before it."""
    best = None
    for row in prof:
        ms = row.get("ms")
        if ms is not None and ms <= start_ms + 0.5:
            best = row
        elif ms is not None and ms > start_ms + 0.5:
            break
    return best


LOG_ENTRY_RE = re.compile(r"^--- (\d+) ms (\S+)\s*$", re.M)


def crash_info(course, report):
    """The first failure of the app: a Python traceback the board printed
    (it stopped at the REPL), or the first report in the error log the
    device wrote and played on after (firmware.recovery; `report["error_log"]`).
    A dict: the error line, when, "recovered", the number of logged errors
    and the last press before it; None when nothing failed."""
    text = report.get("serial", "")
    i = text.find(TRACEBACK)
    info = None
    if i >= 0:
        error = "?"
        for line in text[i:].splitlines()[1:]:
            if line.strip() and not line.startswith(" "):
                error = line.strip()
                break
        info = {"error": error, "at_ms": report.get("main_ended_ms"), "recovered": False,
                "logged": 0}
    log = report.get("error_log") or ""
    entries = list(LOG_ENTRY_RE.finditer(log))
    if entries and info is None:
        first = entries[0]
        end = entries[1].start() if len(entries) > 1 else len(log)
        lines = [x.strip() for x in log[first.end():end].splitlines() if x.strip()]
        info = {"error": lines[-1] if lines else first.group(2),
                "at_ms": float(first.group(1)), "recovered": True}
    if info is None:
        return None
    info["logged"] = len(entries)
    at = info["at_ms"]
    presses = report.get("presses", [])
    before = [k for k, p in enumerate(presses) if at is not None and p["down_ms"] <= at]
    if before and before[-1] < len(course.presses):
        c = course.presses[before[-1]]
        info.update(press=before[-1] + 1, kind=c["kind"], screen=c["screen"],
                    after=c.get("after"))
    return info


def solve_figures(prof, heap_rows=(), crash=None):
    """The solving screen from the @prof lines: how long from its first
    frame to the next screen's, its frames, the longest loop pass (the
    buttons wait that long); the free heap before it (from @heap lines);
    or the crash that ended it. None when no solving frame was printed."""
    first = next((i for i, r in enumerate(prof) if r.get("scr") == "solving"), None)
    if first is None:
        return None
    start = prof[first]["ms"]
    rows = []
    end = None
    for r in prof[first:]:
        if r.get("scr") != "solving":
            end = r
            break
        rows.append(r)
    passes = [(r.get("step") or 0) + (r.get("draw") or 0) + (r.get("show") or 0) for r in rows]
    out = {"start_ms": start, "frames": len(rows),
           "longest_pass_ms": max(passes) / 1000.0 if passes else None,
           "ms": None, "crash": None, "free_before": None, "live_before": None}
    if end is not None:
        out["ms"] = end["ms"] + (end.get("step") or 0) / 1000.0 - start
    elif crash is not None:
        out["crash"] = crash["error"]
        if crash.get("at_ms") is not None:
            out["ms"] = crash["at_ms"] - start
    before = [h for h in heap_rows if h.get("ms") is not None and h["ms"] < start]
    if before:
        out["free_before"] = before[-1].get("free")
        out["live_before"] = before[-1].get("live")
    return out


def compare_shots(course, report, shots_dir=None, width=128, height=64, dead_at=None):
    """The harness's shots against the simulator's: equal count, the
    different ones (with their differing pixels when `shots_dir` holds the
    PNGs), those not taken, those after `dead_at`, and `drift_ms`: the time
    of the last equal shot before the first different one (the presses from
    then on may have landed elsewhere), or None."""
    shots = {s["name"]: s for s in report.get("shots", [])}
    out = {"equal": 0, "different": [], "missing": [], "after_crash": [],
           "total": len(course.shots), "drift_ms": None}
    last_equal = 0.0
    for name, pixels in course.shots.items():
        got = shots.get(name)
        if got is not None and dead_at is not None and got.get("at_ms", 0) >= dead_at:
            out["after_crash"].append(name)
        elif got is None:
            out["missing"].append(name)
        elif got.get("sha1") == sha1_bits(pixels):
            out["equal"] += 1
            last_equal = got.get("at_ms", last_equal)
        else:
            diff = None
            if shots_dir is not None:
                try:
                    png = (Path(shots_dir) / (name + ".png")).read_bytes()
                    diff = shot_difference(png, pixels, width, height)
                except OSError:
                    pass
            out["different"].append({"name": name, "pixels": diff})
            if out["drift_ms"] is None and not name.endswith(BOOT_SHOT):
                out["drift_ms"] = last_equal  # (a slow boot is no press gone astray)
    return out


def analyse(course, timing, heap=None, shots_dir=None, width=128, height=64, heap_course=None):
    """The figures of the table from the timing run's report (and the heap
    run's, if any: its course is `heap_course`, default `course`) and the
    course; a dict (see format_table). Presses after the app failed, or
    after the course drifted (the last equal shot before a different one),
    are left out: they may have landed on other screens."""
    log = timing["display"]["frame_log"]
    frames = {f["n"]: f for f in log}
    where = {f["n"]: i for i, f in enumerate(log)}
    prof, _ = parse_serial(timing.get("serial", ""))
    presses = timing.get("presses", [])
    warnings = []
    if len(presses) != len(course.presses):
        warnings.append("the harness saw %d presses, the course has %d" % (
            len(presses), len(course.presses)))
    crash = crash_info(course, timing)
    crash_at = crash["at_ms"] if crash and crash.get("at_ms") is not None else None
    shots = compare_shots(course, timing, shots_dir, width, height, crash_at)
    cut = [t for t in (crash_at, shots["drift_ms"]) if t is not None]
    cut_at = min(cut) if cut else None
    by_kind = {k: [] for k, _ in KINDS}
    by_screen = {}  # (screen, kind): the press-to-panel times of the presses made there
    phases = {k: {"read": [], "step": [], "draw": [], "show": []} for k, _ in KINDS}
    slowest = None
    slowest_settled = None  # the same by the settled panel (settled_ms)
    late = []
    left_out = 0
    for i, (p, c) in enumerate(zip(presses, course.presses, strict=False)):
        if cut_at is not None and p["down_ms"] >= cut_at:
            left_out += 1  # the app had failed, or the course had drifted
            continue
        ms = p.get("press_to_panel_ms")
        if ms is not None and p.get("frame") in where:  # the whole update, not its first frame
            ms = round(panel_done_ms(log, where[p["frame"]]) - p["down_ms"], 3)
        by_kind[c["kind"]].append(ms)
        until = presses[i + 1]["down_ms"] if i + 1 < len(presses) else float("inf")
        settled = settled_ms(log, p["down_ms"], until)
        settled = None if settled is None else round(settled - p["down_ms"], 3)
        by_screen.setdefault((c["screen"], c["kind"]), []).append(settled)
        if settled is not None and (slowest_settled is None or settled > slowest_settled["ms"]):
            slowest_settled = {"ms": settled, "kind": c["kind"], "screen": c["screen"],
                               "key": c["key"], "after": c.get("after"), "n": i + 1}
        if ms is None:
            warnings.append("press %d (%s on %s) drew no frame" % (
                i + 1, KIND_LABEL[c["kind"]], c["screen"]))
            continue
        if slowest is None or ms > slowest["ms"]:
            slowest = {"ms": ms, "kind": c["kind"], "screen": c["screen"], "key": c["key"],
                       "after": c.get("after"), "n": i + 1}
        if i + 1 < len(presses) and p["down_ms"] + ms > presses[i + 1]["down_ms"]:
            late.append(i + 1)
        frame = frames.get(p.get("frame"))
        row = prof_for_frame(prof, frame["start_ms"]) if frame else None
        if row is not None:
            for key in phases[c["kind"]]:
                phases[c["kind"]][key].append(row.get(key))
    if left_out:
        warnings.append("%d presses came after %s and are left out" % (
            left_out, "the app failed" if crash_at is not None and cut_at == crash_at else
            "the course drifted (a chip shot differs from the simulator's)"))
    if late:
        warnings.append("the frame of press(es) %s came after the next press: the waits are "
                        "too short for this tree (raise WAIT_MS/SLOW_SCREENS, or --slow)" % (
                            ", ".join(map(str, late[:10])) + (" ..." if len(late) > 10 else "")))
    kinds = {k: summary(v) for k, v in by_kind.items()}
    screens = per_screen(by_screen)
    phase_medians = {}
    for k, cols in phases.items():
        if any(cols.values()):
            phase_medians[k] = {key: summary(v)["median"] for key, v in cols.items()}
    title = next(iter(course.shots), None)
    boot = boot_ms(timing, title) if title is not None else None
    got = {s["name"]: s for s in timing.get("shots", [])}
    if title is not None and got.get(title, {}).get("sha1") != sha1_bits(course.shots[title]):
        warnings.append("the first shot (%s at %s ms) is not the simulator's title: boot not "
                        "measured" % (title, _f(got.get(title, {}).get("at_ms"))))
        boot = None
    # Allocations and idle passes. A collection during the pass makes its
    # count negative: not an allocation. The heap run measures them (a
    # timing run prints alloc=0: counting walks the heap); its collection
    # after every frame keeps them exact.
    source = parse_serial(heap.get("serial", ""))[0] if heap is not None else prof
    allocs = [r.get("alloc") for r in source if r.get("alloc") is not None and r["alloc"] >= 0]
    idle_n = sum(r.get("idle_n") or 0 for r in source)
    idle_bytes = sum(r.get("idle_bytes") or 0 for r in source)
    if heap is None and not any(allocs) and not idle_bytes:
        allocs = []  # all 0: this profiling counts only with "heap" on (no heap run here)
    alloc = summary(allocs)
    count, considered, worst = stretched_frames(log)
    out = {
        "boot_ms": boot,
        "presses": len(presses),
        "kinds": kinds,
        "screens": screens,
        "limits": limit_breaches(screens, boot),
        "slowest": slowest,
        "slowest_settled": slowest_settled,
        "phases": phase_medians,
        "alloc": {"frames": alloc["count"], "median": alloc["median"], "max": alloc["max"],
                  "idle_passes": idle_n, "idle_bytes": idle_bytes},
        "stretched": {"count": count, "frames": considered, "worst": worst},
        "shots": shots,
        "heap": None,
        "emulated_ms": timing.get("emulated_ms"),
        "cpu_busy_ms": timing.get("cpu_busy_ms"),
        "hil_wall_ms": timing.get("wall_ms"),
        "tracebacks": timing.get("python_tracebacks", 0),
        "end_reason": timing.get("end_reason"),
        "warnings": warnings,
        "crash": crash,
        "solve": solve_figures(prof, (), crash),
    }
    if heap is not None:
        out["heap"] = heap_figures(heap_course or course, heap)
    return out


# Issue 30, point 3: what a player may wait on the chip, press to panel.
LIMIT_MEDIAN_MS = {"cursor": 16.7, "value": 16.7, "screen": 45.0}  # median per screen
LIMIT_MAX_MS = 80.0  # no press at all
LIMIT_BOOT_MS = 300.0  # power-on to the title


def per_screen(by_screen):
    """[{screen, kind, count, median, p90, max}] from {(screen, kind): [ms]},
    in the order the course first pressed on each screen, then by kind."""
    order = {}
    for screen, _kind in by_screen:
        order.setdefault(screen, len(order))
    rank = {k: i for i, (k, _) in enumerate(KINDS)}
    rows = []
    for screen, kind in sorted(by_screen, key=lambda sk: (order[sk[0]], rank[sk[1]])):
        row = {"screen": screen, "kind": kind}
        row.update(summary(by_screen[(screen, kind)]))
        rows.append(row)
    return rows


def limit_breaches(screens, boot):
    """What breaks the limits of issue 30 point 3 (LIMIT_*), as texts: a
    median per screen over its kind's limit, a press over LIMIT_MAX_MS, a
    boot over LIMIT_BOOT_MS (or not measured)."""
    out = []
    if boot is None:
        out.append("boot not measured")
    elif boot > LIMIT_BOOT_MS:
        out.append("boot %.1f ms > %.0f ms" % (boot, LIMIT_BOOT_MS))
    for row in screens:
        limit = LIMIT_MEDIAN_MS.get(row["kind"])
        if limit is not None and row["median"] is not None and row["median"] > limit:
            out.append("%s on %s: median %.1f ms > %.1f ms" % (
                KIND_LABEL[row["kind"]], row["screen"], row["median"], limit))
        if row["max"] is not None and row["max"] > LIMIT_MAX_MS:
            out.append("%s on %s: max %.1f ms > %.0f ms" % (
                KIND_LABEL[row["kind"]], row["screen"], row["max"], LIMIT_MAX_MS))
    return out


def heap_figures(course, report):
    """Smallest free and largest live heap after gc.collect() from the
    @heap lines: over the game against the Master, and over the whole run."""
    _, rows = parse_serial(report.get("serial", ""))
    presses = report.get("presses", [])
    start = course.marks.get("game_start")
    end = course.marks.get("game_end")
    lo = presses[start]["down_ms"] if start is not None and start < len(presses) else None
    hi = presses[end]["down_ms"] if end is not None and end < len(presses) else None
    game = [r for r in rows if r.get("ms") is not None and lo is not None and hi is not None
            and lo <= r["ms"] <= hi]

    def figures(sel):
        if not sel:
            return None
        low = min(sel, key=lambda r: r.get("free") or 0)
        high = max(sel, key=lambda r: r.get("live") or 0)
        return {"lines": len(sel), "min_free": low.get("free"), "min_free_screen": low.get("scr"),
                "max_live": high.get("live"), "max_live_screen": high.get("scr")}

    prof, _ = parse_serial(report.get("serial", ""))
    crash = crash_info(course, report)
    return {"game": figures(game), "all": figures(rows), "crash": crash,
            "solve": solve_figures(prof, rows, crash),
            "shots_total": len(course.shots),
            "shots_equal": compare_shots(course, report)["equal"],
            "tracebacks": report.get("python_tracebacks", 0),
            "end_reason": report.get("end_reason")}
