"""Statistics screens: the names, one name's figures, the records, reset.

The figures come from firmware.stats (their own file); this module only
shows them. Reset deletes them only after a confirmation
(firmware.screens.message.Confirm).
"""

from firmware.screen import Menu
from firmware.screens.pager import Pager
from firmware.stats import BOT, Stats, percent


def shown_name(app, name):
    """A statistics name for the screen: computers by their level."""
    if name.startswith(BOT):
        return app.t("stats_bot") % app.t("level_" + name[len(BOT):])
    return name


def group_name(app, group):
    """'Zehntausend', 'Kneipe 5000', 'Tafel 10000', 'Eigene 3000' for a
    group key: a preset's own target is left out."""
    parts = group.split(":", 1)
    key, target = parts[0], parts[-1]
    if key == "tafel":
        return "%s %s" % (app.t("pad_title"), target)
    if key == "custom":
        return "%s %s" % (app.t("stats_custom"), target)
    from engine.rules import PRESETS, preset

    if key not in PRESETS:
        return group
    if "%d" % preset(key).target == target:
        return app.t("preset_" + key)
    return "%s %s" % (app.t("preset_" + key), target)


class StatsMenu(Menu):
    """The names with statistics, then the records and the reset."""

    name = "stats"

    def __init__(self, app):
        Menu.__init__(self)
        self.stats, self.note = Stats.load(app.session.store)
        self.names = self.stats.names()

    def title(self, app):
        """The screen title."""
        return app.t("stats_title")

    def labels(self, app):
        """'Anna 12' per name (games), records, reset."""
        out = []
        for name in self.names:
            out.append("%s (%d)" % (shown_name(app, name), self.stats.person(name)["games"]))
        if not out:
            out.append(app.t("stats_none"))
        out.append(app.t("stats_records"))
        out.append(app.t("stats_reset"))
        return out

    def choose(self, app, index):
        """A name's figures, the records, or the reset question."""
        n = max(1, len(self.names))
        if index < len(self.names):
            name = self.names[index]
            app.push(Sheet(shown_name(app, name), person_lines(app, self.stats, name),
                           "stats_name"))
        elif index == n:
            app.push(Sheet(app.t("stats_records"), record_lines(app, self.stats),
                           "stats_records"))
        elif index == n + 1:
            from firmware.screens.message import Confirm

            app.push(Confirm(app.t("stats_reset"), [app.t("stats_reset_ask")], self._reset))

    def _reset(self, app):
        failed = Stats.reset(app.session.store)
        self.stats, self.note = Stats.load(app.session.store)
        self.names = self.stats.names()
        self.index = 0
        if failed:
            from firmware.screens.message import Message

            app.push(Message(app.t("save_failed"), [app.t("save_failed_note")]))

    def state(self):
        """The names and the highlighted entry."""
        return {"index": self.index, "names": list(self.names), "note": self.note}


def person_lines(app, stats, name):
    """The figures of one name, one per line."""
    p = stats.person(name)
    turns = p["turns"]
    lines = [
        app.t("stats_games") % p["games"],
        app.t("stats_wins") % (p["wins"], percent(p["wins"], p["games"])),
        app.t("stats_best_turn") % p["best_turn"],
        app.t("stats_best_total") % p["best_total"],
        app.t("stats_farkle_rate") % percent(p["farkles"], turns),
        app.t("stats_per_turn") % ((p["points"] + turns // 2) // turns if turns else 0),
    ]
    for group, n in p["solo"]:
        lines.append(app.t("stats_solo") % group_name(app, group))
        lines.append(app.t("stats_turns") % n)
    return lines


def record_lines(app, stats):
    """The records, a heading per group."""
    lines = []
    for group, turn, total, solo in stats.records():
        lines.append("» " + group_name(app, group))
        if turn:
            lines.append(app.t("stats_rec_turn") % (turn[0], shown_name(app, turn[1])))
        if total:
            lines.append(app.t("stats_rec_total") % (total[0], shown_name(app, total[1])))
        if solo:
            lines.append(app.t("stats_rec_solo") % (solo[0], shown_name(app, solo[1])))
    if not lines:
        lines.append(app.t("stats_none"))
    return lines


class Sheet(Pager):
    """Lines under a title (see Pager)."""
