"""The one table chipbench prints, from the figures of `analysis.analyse`."""

from tools.chipbench.analysis import LIMIT_MAX_MS, LIMIT_MEDIAN_MS
from tools.chipbench.course import KIND_LABEL, KINDS


def _f(value, fmt="%.1f"):
    return "-" if value is None else fmt % value


def format_table(res):
    """The one table chipbench prints."""
    out = []
    head = res.get("title")
    if head:
        out.append(head)
    out.append("%-46s %s ms" % ("boot: power-on to the title on the panel", _f(res["boot_ms"])))
    out.append("%-28s %6s %9s %9s %9s" % ("press to panel (ms)", "count", "median", "p90", "max"))
    for kind, label in KINDS:
        k = res["kinds"].get(kind, {"count": 0})
        out.append("  %-26s %6d %9s %9s %9s" % (label, k["count"], _f(k.get("median")),
                                                _f(k.get("p90")), _f(k.get("max"))))
    out.append("%-28s %6s %9s %9s %9s" % ("press to settled panel (ms)", "count", "median",
                                          "p90", "max"))
    limits = LIMIT_MEDIAN_MS
    for row in res.get("screens", []):
        limit = limits.get(row["kind"])
        over = (limit is not None and row["median"] is not None and row["median"] > limit) or (
            row["max"] is not None and row["max"] > LIMIT_MAX_MS)
        out.append("  %-26s %6d %9s %9s %9s%s" % (
            ("%s: %s" % (row["screen"], KIND_LABEL[row["kind"]]))[:26], row["count"],
            _f(row["median"]), _f(row["p90"]), _f(row["max"]), "  over" if over else ""))
    breaches = res.get("limits")
    if breaches is not None:
        out.append("%-46s %s" % ("limits (issue 30: 16.7 / 45 / 80 / 300 ms)",
                                 "held" if not breaches else "; ".join(breaches)))
    s = res.get("slowest")
    out.append("%-46s %s" % ("slowest press", "-" if not s else "%.1f ms: %s on %s (%s -> %s)" % (
        s["ms"], KIND_LABEL[s["kind"]], s["screen"], s["key"], s.get("after"))))
    s = res.get("slowest_settled")
    if s:
        out.append("%-46s %.1f ms: %s on %s (%s -> %s)" % (
            "slowest press to the settled panel", s["ms"], KIND_LABEL[s["kind"]], s["screen"],
            s["key"], s.get("after")))
    h = (res.get("heap") or {}).get("game")
    out.append("%-46s %s" % ("heap, game vs Master with tips (after gc)",
                             "-" if not h else "smallest free %d B (%s), largest live %d B (%s)" % (
                                 h["min_free"], h["min_free_screen"], h["max_live"],
                                 h["max_live_screen"])))
    h = (res.get("heap") or {}).get("all")
    if h:
        out.append("%-46s %s" % ("heap, whole heap run (after gc)",
                                 "smallest free %d B (%s), largest live %d B (%s)" % (
                                     h["min_free"], h["min_free_screen"], h["max_live"],
                                     h["max_live_screen"])))
    out.append("%-46s %s" % ("custom-rules solve after the game", _solve_text(
        res.get("solve"), (res.get("heap") or {}).get("solve"))))
    crashes = []
    for run, crash in (("timing", res.get("crash")), ("heap", (res.get("heap") or {}).get(
            "crash"))):
        if crash:
            crashes.append("%s run: %s at %s ms%s%s" % (
                run, crash["error"], _f(crash.get("at_ms"), "%.0f"), "" if "press" not in crash
                else " (after press %d: %s on %s -> %s)" % (
                    crash["press"], KIND_LABEL[crash["kind"]], crash["screen"], crash["after"]),
                ", played on (%d in error.log)" % crash["logged"] if crash.get("recovered")
                else ", stopped at the REPL"))
    out.append("%-46s %s" % ("app failed (traceback or error.log)", "; ".join(crashes) or "no"))
    a = res["alloc"]
    if a["frames"]:
        alloc = "median %s B, max %s B (%d frames); idle passes: %d B in %d (%.1f B a pass)" % (
            _f(a["median"], "%d"), _f(a["max"], "%d"), a["frames"], a["idle_bytes"],
            a["idle_passes"], a["idle_bytes"] / a["idle_passes"] if a["idle_passes"] else 0)
    else:
        alloc = "-" if res.get("heap") or not a["idle_passes"] else "- (counted in the heap run)"
    out.append("%-46s %s" % ("allocated per frame (@prof)", alloc))
    busy, total = res.get("cpu_busy_ms"), res.get("emulated_ms")
    out.append("%-46s %s" % ("CPU busy (core not asleep), whole course",
                             "%.0f%% (%.1f of %.1f s)" % (100.0 * busy / total, busy / 1000,
                                                          total / 1000)
                             if busy is not None and total else "-"))
    st = res["stretched"]
    worst = st.get("worst")
    out.append("%-46s %s" % ("frames with stretched bus time (>1.25x)", "%d of %d%s" % (
        st["count"], st["frames"], "" if not worst else "; worst frame %d: %.0f us, %.2fx" % (
            worst["n"], worst["bus_us"], worst["ratio"]))))
    out.append("%-28s %9s %9s %9s %9s" % ("median per phase (us)", "read", "step", "draw", "show"))
    for kind, label in KINDS:
        ph = res["phases"].get(kind)
        if ph:
            out.append("  %-26s %9s %9s %9s %9s" % (label, _f(ph["read"], "%d"),
                                                    _f(ph["step"], "%d"), _f(ph["draw"], "%d"),
                                                    _f(ph["show"], "%d")))
        else:
            out.append("  %-26s %9s %9s %9s %9s" % (label, "-", "-", "-", "-"))
    sh = res["shots"]
    diff = ", ".join("%s (%s px)" % (d["name"], "?" if d["pixels"] is None else d["pixels"])
                     for d in sh["different"])
    dead = sh.get("after_crash") or []
    if sh.get("drift_ms") is not None:
        diff += " (the course drifted after %.1f s)" % (sh["drift_ms"] / 1000)
    heap_equal = (res.get("heap") or {}).get("shots_equal")
    out.append("%-46s %s" % ("screenshots equal to the simulator's", "%d of %d%s%s%s%s" % (
        sh["equal"], sh["total"], "; different: " + diff if diff else "",
        "; %d after the crash" % len(dead) if dead else "",
        "; not taken: " + ", ".join(sh["missing"]) if sh["missing"] else "",
        "" if heap_equal is None else "; heap run: %d of %d" % (
            heap_equal, (res.get("heap") or {}).get("shots_total", sh["total"])))))
    for w in res.get("warnings", []):
        out.append("warning: " + w)
    return "\n".join(out)


def _solve_text(timing, heap):
    """The solve row: how it went in the timing run (duration or crash) and
    in the heap run (the free heap before it; its crash)."""
    parts = []
    for run, fig in (("timing run", timing), ("heap run", heap)):
        if not fig:
            continue
        if fig.get("crash"):
            text = "%s %s s into it" % (fig["crash"], _f((fig.get("ms") or 0) / 1000))
        elif fig.get("ms") is None:
            text = "not finished"
        else:
            text = "done in %s s" % _f(fig["ms"] / 1000)
        if run == "timing run":
            text += " (%d frames, longest pass %s ms)" % (fig["frames"],
                                                          _f(fig.get("longest_pass_ms"), "%d"))
        elif fig.get("free_before") is not None:
            text += ", free heap before it %d B" % fig["free_before"]
        parts.append("%s: %s" % (run, text))
    return "; ".join(parts) or "not reached"
