"""Rules & help: the scoring table, the course of play, the chosen rules
with the decisions of docs/rules.md, the odds, rules of thumb, tactics,
and the buttons.

`HelpMenu(rules=None)`: from the title (LEFT/RIGHT on the first row pick
any preset or saved rule set; the last row starts the tips lesson,
firmware/tips.py, in a game under them) or from a game's standings
(`rules` given: that game's rules, fixed). Each page is a `TextPage`: sentences wrapped to
the screen, UP/DOWN scroll, A or B go back. All text comes from
firmware.strings, built from the rule values, so a custom set is described
as it is (the numbers come from engine.scoring and engine.odds).
"""

from engine.rules import PRESETS, Rules, preset
from firmware.screen import Menu
from firmware.screens.pager import TextPage

PAGES = ("help_scoring", "help_play", "help_options", "help_odds", "help_thumb", "help_tactics",
         "help_keys")


def rules_label(app, rules, name=None):
    """The name of a rule set: its preset's, the saved name, or 'Custom'."""
    key = rules.preset_key()
    if key is not None:
        return app.t("preset_" + key)
    return name or app.t("rules_custom")


class HelpMenu(Menu):
    """The list of help pages for one rule set (see the module docstring)."""

    name = "help"

    def __init__(self, rules=None, name=None):
        Menu.__init__(self)
        self.fixed = rules is not None
        self.rules = rules if rules is not None else preset(PRESETS[0])
        self.set_name = name
        self.choice = 0
        self._sets = None

    def _choices(self, app):
        if self._sets is None:
            self._sets = app.session.rulesets()
        return [(None, k) for k in PRESETS] + [(n, e) for n, e in self._sets]

    def title(self, app):
        """'Rules & help'."""
        return app.t("help")

    def labels(self, app):
        """The rule set, then the pages; from the title also the tips
        lesson (a game of its own)."""
        name = rules_label(app, self.rules, self.set_name)
        out = [app.t("help_rules_of") % name] + [app.t(key) for key in PAGES]
        if not self.fixed:
            out.append(app.t("lesson"))
        return out

    def change(self, app, index, step):
        """LEFT/RIGHT on the first row: another rule set (from the title)."""
        if index != 0 or self.fixed:
            return False
        choices = self._choices(app)
        self.choice = (self.choice + step) % len(choices)
        name, key = choices[self.choice]
        if name is None:
            self.rules = preset(key)
            self.set_name = None
        else:
            self.rules = Rules.decode(key)
            self.set_name = name
        return True

    def choose(self, app, index):
        """Open a page. A on the first row changes nothing: it shows which
        rule set the pages describe (LEFT/RIGHT pick another)."""
        if index == 0:
            return
        if index > len(PAGES):  # the tips lesson: a game under the rules shown
            app.flow.start_lesson(app, self.rules)
            return
        key = PAGES[index - 1]
        app.busy()  # the odds page works its numbers out (about 0.1 s on the chip)
        app.push(TextPage(app.t(key), page_lines(app, key, self.rules)))

    def state(self):
        """The rule set shown."""
        return {"index": self.index, "rules": self.rules.encode(), "set": self.set_name}


# ---------------------------------------------------------------- contents


def page_lines(app, key, rules):
    """The paragraphs of help page `key` for `rules`."""
    if key == "help_scoring":
        return scoring_lines(app, rules)
    if key == "help_play":
        return [app.t("pl_%d" % i) for i in range(1, 7)]
    if key == "help_options":
        return option_lines(app, rules)
    if key == "help_odds":
        return odds_lines(app, rules)
    if key == "help_thumb":
        return thumb_lines(app, rules)
    if key == "help_tactics":
        return tactics_lines(app, rules)
    # "Nachfragen" off: the arrows do it at once, and the page says so
    asks = app.session.settings.get("ask", True)
    return [app.t(k) for k in ("ky_1", "ky_2" if asks else "ky_2_quick", "ky_3", "ky_4")]


def _score(dice, rules):
    from engine import scoring

    return scoring.best_score(dice, rules)


def scoring_lines(app, rules):
    """The scoring table of `rules`, with worked examples from the engine."""
    t = app.t
    out = [t("sc_one") % 100, t("sc_five") % 50, t("sc_ones") % rules.ones_triple,
           t("sc_triple")]
    mode = rules.n_of_kind
    if mode == "double":
        out.append(t("sc_double") % (_score((2, 2, 2, 2), rules), _score((1, 1, 1, 1, 1), rules)))
    elif mode == "triple_only":
        out.append(t("sc_triple_only") % _score((5, 5, 5, 5), rules))
    elif mode == "add":
        out.append(t("sc_add") % (_score((2, 2, 2, 2), rules), _score((2, 2, 2, 2, 2), rules)))
    elif mode == "fixed":
        out.append(t("sc_fixed"))
    else:
        out.append(t("sc_five_flat"))
    if rules.dice == 6 and rules.straight:
        out.append(t("sc_straight") % rules.straight)
    if rules.small_straights != (0, 0):
        out.append(t("sc_small") % rules.small_straights)
    if rules.dice == 6:
        if rules.three_pairs:
            out.append(t("sc_pairs") % rules.three_pairs)
        if rules.quad_pair:
            out.append(t("sc_quad_pair") % rules.quad_pair)
        if rules.two_triplets:
            out.append(t("sc_two_triplets") % rules.two_triplets)
        out.append(t("sc_example") % _score((1, 1, 5), rules))
    out.append(t("sc_only_roll"))
    return out


def option_lines(app, rules):
    """The options of `rules` in sentences, then the decisions that apply."""
    t = app.t
    out = [t("op_dice") % (rules.dice, rules.target)]
    out.append(t("op_entry") % rules.entry if rules.entry else t("op_no_entry"))
    out.append(t("op_hot_must") if rules.hot_dice == "must" else t("op_hot_may"))
    if rules.auto_keep:
        out.append(t("op_auto_keep"))
    if rules.triples_across:
        out.append(t("op_triples_across"))
    if rules.penalty:
        out.append(t("op_penalty") % rules.penalty)
    if rules.takeover:
        out.append(t("op_takeover"))
    if rules.exact:
        out.append(t("op_exact"))
    finish = {"last_turn": "op_last_turn", "round": "op_round", "exact": "op_exact_finish",
              "immediate": "op_immediate"}
    out.append(t(finish[rules.finish]))
    out.append(t("op_trigger") if rules.tie == "trigger" else t("op_playoff"))
    # The "decision" lines of docs/rules.md, for every rule set.
    out.append(t("op_decisions"))
    out.append("• " + t("dec_penalty"))
    out.append("• " + t("dec_takeover"))
    if rules.exact and rules.penalty:
        out.append("• " + t("dec_bust"))
    return out


def odds_lines(app, rules):
    """The chance to score with 1..dice dice under `rules` (engine.odds)."""
    from engine import odds

    t = app.t
    out = [t("od_title")]
    line = t("od_line" if app.big else "od_line_small")
    for n in range(1, rules.dice + 1):
        num, den = odds.score_chance(n, rules)
        tenths = (num * 1000 + den // 2) // den
        if app.big:
            out.append(line % (n, tenths // 10, tenths % 10, num, den))
        else:
            out.append(line % (n, tenths // 10, tenths % 10))
    out.append(t("od_note"))
    return out


def _percent(chance):
    return int(chance * 100 + 0.5)


def thumb_lines(app, rules):
    """Rules of thumb on the dice, with the chances of `rules` (engine.odds):
    five dice almost always score, two are a coin toss, one scores one roll
    in three (firmware.tip_words.fraction, as the tips say it)."""
    from engine import odds
    from firmware.tip_words import fraction

    t = app.t
    one = 1 - odds.farkle_chance(1, rules)
    num, den = fraction(one)
    return [t("th_five") % _percent(1 - odds.farkle_chance(5, rules)),
            t("th_two") % _percent(1 - odds.farkle_chance(2, rules)),
            t("th_one") % (num, den, _percent(one)), t("th_few")]


def tactics_lines(app, rules):
    """When to bank: 300 with two dice left (the risk and the mean gain of
    one more roll from engine.odds), behind and ahead."""
    from engine import odds

    t = app.t
    out = [t("tt_bank") % (_percent(odds.farkle_chance(2, rules)),
                           int(odds.expected_best(2, rules) + 0.5))]
    if rules.entry > 300:
        out.append(t("tt_entry") % rules.entry)
    out.append(t("tt_behind"))
    out.append(t("tt_ahead"))
    return out
