"""Where every text of tools/texts/de.py and en.py is drawn, and how wide
it may be there: the budget the text-fit test (tests/cpython/test_text_fit.py)
measures each text against, in both languages and on both layouts.

Each key maps to a `Place(where, args, line, on)`:

- `where`: TITLE (the inverted title bar), HINT (the button hints on the
  bottom line), LINE (a plain text line), MENU (a list entry), WRAP (text
  the screen breaks into lines: every word must fit the width),
  `lines(n)` (text broken into at most n lines), or `px(big, small)`, a
  width of its own in pixels.
- `args`: the widest values the text's `%s`/`%d` take. NAME stands for a
  person's name: screens shorten names (never the words around them), so
  a line must hold its words plus the first NAME_SHOWN characters of the
  widest name and "…". Numbers are the largest that can occur (points up
  to the highest target plus a long turn: 5 digits).
  `{NAME}` in such a value is a shortened name.
- `line`: how the text sits in its line with others: `{}` stands for this
  text, `{KEY}` for another text, `{KEY1|KEY2}` for the widest of several
  (e.g. "{rules_preset}: {}").
- `give_way`: the screen shortens this text like a name to keep the
  rest of its line whole (the rules editor's option names before values).
- `on`: BOTH layouts, or only BIG (128x64) or SMALL (72x40) where the
  screen picks another key (`KEY_small`) on the other one.

A key without a place fails the test: adding a text means saying here
where it goes (docs/architecture.md, "A text").
"""

TITLE, HINT, LINE, MENU, WRAP = "title", "hint", "line", "menu", "wrap"
BOTH, BIG, SMALL = "both", "big", "small"

NAME = object()  # a person's name (see the module docstring)
NAME_SHOWN = 3  # characters of a name every line keeps room for
NAME_MAX = 12  # engine.game.MAX_NAME: the longest name, alone on its line
PTS = 99950  # points: scores, turn totals, targets (rules editor: up to 50000 + a turn)
TARGET = 50000  # firmware/screens/rules_edit.py TARGET_MAX
PCT = 100  # a percentage
ENTRY = 1000  # the entry hurdle (rules editor, score pad)
DICE = 6  # a count of dice
COUNT = 99  # counts: games, turns, rounds, seats
_PRESETS = "preset_zehntausend|preset_kneipe|preset_fuenf|preset_farkle4000|preset_punktlandung"
_GROUP = "{%s|preset_international|stats_custom|pad_title} %d" % (_PRESETS, TARGET)  # stats
_ENTRY = "{NAME} {pad_nothing|pad_join|pad_leave}"  # a score pad entry taken back
CODE = object()  # a rule option's name (opt_*): the widest one is used


def lines(n):
    """Text the screen breaks into at most `n` lines of the screen's width."""
    return ("lines", n)


def px(big, small):
    """A place of its own: `big` px wide on 128x64, `small` on 72x40."""
    return ("px", big, small)


class Place:
    """Where a text is drawn (see the module docstring)."""

    def __init__(self, where, args=(), line="{}", on=BOTH, give_way=False):
        self.where = where
        self.give_way = give_way
        self.args = args
        self.line = line
        self.on = on


def _p(where, *args, line="{}", on=BOTH, give_way=False):
    return Place(where, args, line, on, give_way)


PLACES = {
    # title screen, menus, forms
    "app": _p(TITLE),
    "continue": _p(MENU),
    "new_game": _p(TITLE),
    "language": _p(MENU),
    "nav_hint": _p(HINT),
    "rules_preset": _p(MENU, line="{}: {preset_international}"),
    "target": _p(MENU, line="{}: %d" % TARGET),
    "seats": _p(MENU, line="{}: %d" % COUNT),
    "seat": _p(MENU, COUNT),
    "person": _p(MENU),
    "start_game": _p(MENU),
    "order": _p(MENU, line="{}…"),
    "pick_name": _p(TITLE),
    "new_name": _p(MENU),
    "type_name": _p(TITLE),
    "name_hint": _p(HINT),
    "name_taken": _p(LINE),
    "name_empty": _p(LINE),
    "player_n": _p(MENU, 8, line="9 {}"),
    "preset_zehntausend": _p(MENU, line="{rules_preset}: {}"),
    "preset_kneipe": _p(MENU, line="{rules_preset}: {}"),
    "preset_fuenf": _p(MENU, line="{rules_preset}: {}"),
    "preset_farkle4000": _p(MENU, line="{rules_preset}: {}"),
    "preset_punktlandung": _p(MENU, line="{rules_preset}: {}"),
    "preset_international": _p(MENU, line="{rules_preset}: {}"),
    "level_vorsichtig": _p(MENU, line="9 {}"),
    "level_mutig": _p(MENU, line="9 {}"),
    "level_profi": _p(MENU, line="9 {}"),
    "level_meister": _p(MENU, line="9 {}"),
    # playing
    "turn": _p(LINE),
    "your_turn": _p(TITLE, NAME),
    "press_a_roll": _p(HINT),
    "roll": _p(LINE),
    "bank": _p(LINE),
    "take": _p(LINE),
    "keep_hint": _p(HINT, on=BIG),
    "keep_hint_small": _p(HINT, on=SMALL),
    "pick_hint": _p(LINE),
    "decide_hint": _p(HINT),
    "start_hint": _p(HINT),
    "offer_hint": _p(HINT),
    "offer": _p(LINE, PTS, DICE, on=BIG),
    "offer_small": _p(LINE, PTS, DICE, on=SMALL),
    "handover_offer_hint": _p(HINT),
    "selection": _p(LINE, PTS),
    "select_dice": _p(LINE),
    "left": _p(LINE, DICE),
    "hot": _p(LINE),
    "farkle": _p(LINE, line="{} {lost}", on=BIG),
    "bust": _p(LINE, line="{} {lost}", on=BIG),
    "lost": _p(LINE, PTS, line="{bust} {}", on=BIG),
    "pass_hint": _p(HINT),
    "not_scoring": _p(LINE, DICE, on=BIG),
    "not_scoring_small": _p(LINE, DICE, on=SMALL),
    "past_target": _p(LINE, TARGET),
    "nothing_selected": _p(LINE),
    "entry_needed": _p(LINE, ENTRY),
    "hot_must": _p(LINE),
    "penalty": _p(LINE, NAME, 1000),
    "final_round": _p(LINE),
    "final_note": _p(LINE, line="{}••••••", on=BIG),
    "playoff_note": _p(LINE, line="{}••••••", on=BIG),
    "final_note_small": _p(LINE, line="{}••••••", on=SMALL),
    "playoff_note_small": _p(LINE, line="{}••••••", on=SMALL),
    "playoff": _p(LINE),
    "computer_plays": _p(HINT, on=BIG),
    "hurry_hint": _p(HINT, on=SMALL),
    "table": _p(TITLE),
    "back_to_game": _p(MENU),
    "to_title": _p(MENU),
    "winner": _p(TITLE, NAME),
    "winner_hint": _p(HINT),
    "save_failed": _p(TITLE),
    "save_failed_note": _p(LINE),
    "save_damaged": _p(TITLE),
    "save_damaged_note": _p(LINE),
    "older_copy": _p(TITLE),
    "older_copy_note": _p(LINE),
    "no_save": _p(TITLE),
    "ok_hint": _p(HINT),
    "solving": _p(TITLE),
    "in": _p(LINE),
    "entered_not": _p(LINE),
    # score pad, statistics, settings
    "pad_continue": _p(MENU),
    "pad_title": _p(MENU, line="{} %d" % TARGET),
    "stats_title": _p(TITLE),
    "settings_title": _p(TITLE),
    "pad_new": _p(TITLE),
    "pad_replace": _p(LINE),
    "pad_err_step": _p(LINE, 9995, 9950, 10000),
    "pad_err_final": _p(LINE),
    "pad_err_full": _p(LINE, COUNT),
    "pad_err_last_seat": _p(LINE),
    "pad_err_name_taken": _p(LINE, NAME),
    "pad_err_zero": _p(LINE),
    "pad_err_pad_full": _p(LINE),
    "pad_nothing": _p(px(50, 30)),
    "pad_leave": _p(LINE),
    "pad_join": _p(LINE),
    "pad_hurdle": _p(LINE, ENTRY),
    "seat_joined": _p(LINE, NAME),
    "seat_left": _p(LINE, NAME),
    "pad_undone": _p(LINE, _ENTRY),
    "pad_nothing_n": _p(LINE, NAME, COUNT),
    "pad_round": _p(px(30, 20), COUNT),
    "pad_total": _p(px(90, 42), PTS),
    "pad_hint": _p(HINT, on=BIG),
    "pad_hint_small": _p(HINT, on=SMALL),
    "pad_hint_zero": _p(HINT, on=BIG),
    "pad_hint_zero_small": _p(HINT, on=SMALL),
    "pad_table": _p(LINE),
    "pad_overview": _p(TITLE, 10000, ENTRY),
    "pad_overview_hint": _p(HINT),
    "pad_menu_nothing": _p(MENU, NAME),
    "pad_menu_undo": _p(MENU, _ENTRY),
    "pad_menu_digits": _p(MENU),
    "pad_menu_adjust": _p(MENU),
    "menu_join": _p(MENU),
    "menu_leave": _p(MENU),
    "pad_digits_hint": _p(HINT, on=BIG),
    "pad_digits_hint_small": _p(HINT, on=SMALL),
    "pad_adjust_title": _p(TITLE, NAME),
    "pad_adjust_hint": _p(HINT, on=BIG),
    "pad_adjust_hint_small": _p(HINT, on=SMALL),
    "pad_winner_hint": _p(HINT),
    "stats_bot": _p(MENU, "Vorsichtig"),
    "stats_custom": _p(LINE, line="{} %d" % TARGET),
    "stats_none": _p(LINE),
    "stats_records": _p(MENU),
    "stats_reset": _p(MENU),
    "stats_reset_ask": _p(LINE),
    "stats_games": _p(LINE, 9999),
    "stats_wins": _p(LINE, 9999, PCT),
    "stats_best_turn": _p(LINE, PTS),
    "stats_best_total": _p(LINE, PTS),
    "stats_farkle_rate": _p(LINE, PCT),
    "stats_per_turn": _p(LINE, PTS),
    "stats_solo": _p(LINE, _GROUP),
    "stats_turns": _p(LINE, COUNT),
    "stats_rec_turn": _p(LINE, PTS, NAME),
    "stats_rec_total": _p(LINE, PTS, NAME),
    "stats_rec_solo": _p(LINE, COUNT, NAME),
    "sheet_hint": _p(HINT),
    "confirm_hint": _p(HINT),
    "set_contrast": _p(MENU, 9, 9),
    "set_sleep": _p(MENU, "{sleep_never|sleep_s|sleep_min}"),
    "sleep_never": _p(MENU, line="{set_sleep}"),
    "sleep_s": _p(MENU, 59, line="{set_sleep}"),
    "sleep_min": _p(MENU, 99, line="{set_sleep}"),
    "set_dice": _p(MENU, "Ziffern"),
    "dice_pips": _p(MENU, line="{set_dice}"),
    "dice_round": _p(MENU, line="{set_dice}"),
    "dice_digits": _p(MENU, line="{set_dice}"),
    "set_speed": _p(MENU, "langsam"),
    "speed_slow": _p(MENU, line="{set_speed}"),
    "speed_normal": _p(MENU, line="{set_speed}"),
    "speed_fast": _p(MENU, line="{set_speed}"),
    "set_sound": _p(MENU, "aus"),
    "set_tips": _p(MENU, "aus"),
    "set_on": _p(MENU, line="{set_sound}"),
    "set_off": _p(MENU, line="{set_sound}"),
    "settings_hint": _p(HINT),
    # tips (firmware/tips.py)
    "tip_keep_bank": _p(LINE, "1 1 5", on=BIG),
    "tip_keep_roll": _p(LINE, "1 1 5", on=BIG),
    "tip_keep_bank_small": _p(LINE, "115", on=SMALL),
    "tip_keep_roll_small": _p(LINE, "115", on=SMALL),
    "tip_pick": _p(LINE, line="{} {tip_bank_pts} {tip_roll_pts}", on=BIG),
    "tip_best": _p(LINE, line="{} {tip_bank_pts} {tip_roll_pts}", on=BIG),
    "tip_bank_pts": _p(LINE, 9950, line="{tip_pick} {} {tip_roll_pts}", on=BIG),
    "tip_roll_pts": _p(LINE, 9950, line="{tip_pick} {tip_bank_pts} {}", on=BIG),
    "tip_bank_pct": _p(LINE, PCT, line="{tip_win} {} {tip_roll_pct}", on=BIG),
    "tip_roll_pct": _p(LINE, PCT, line="{tip_win} {tip_bank_pct} {}", on=BIG),
    "tip_risk": _p(LINE, DICE, PCT),
    "tip_win": _p(LINE, line="{} {tip_bank_pct} {tip_roll_pct}", on=BIG),
    "tip_marks": _p(LINE),
    "tip_keys": _p(LINE),
    "tip_bank": _p(LINE),
    "tip_roll": _p(LINE),
    "tip_farkle_was": _p(LINE, PCT),
    "tip_farkle_pass": _p(LINE),
    "tip_take": _p(LINE),
    "tip_fresh": _p(LINE),
    "tip_turn_worth": _p(LINE, PTS),
    "tip_step_now": _p(LINE, 9, 9),
    "tip_step": _p(LINE, 9, 9),
    "tip_guided_done": _p(LINE),
    "tip_cost": _p(LINE, PTS),
    "tip_cost_chance": _p(LINE, PCT),
    "tip_cost_win": _p(LINE, PCT),
    "tip_cost_win_now": _p(LINE),
    "tip_wins_now": _p(LINE),
    "tip_total_title": _p(TITLE),
    "tip_total": _p(LINE, NAME, PTS),
    "tips": _p(MENU, line="{}: {tips_none}"),
    "tips_none": _p(MENU, line="{tips}: {}"),
    "tips_on": _p(MENU, line="{tips}: {}"),
    "tips_off": _p(MENU, line="{tips}: {}"),
    "tips_for": _p(TITLE),
    "tips_hint": _p(HINT),
    # rules editor (firmware/screens/rules_edit.py)
    "rules_edit": _p(TITLE),
    "rules_custom": _p(MENU, line="{rules_preset}: {}"),
    "rules_use": _p(MENU),
    "rules_save": _p(MENU),
    "rules_delete": _p(MENU),
    "rules_saved": _p(TITLE),
    "rules_bad": _p(TITLE),
    "rules_from": _p(MENU),
    "edit_hint": _p(HINT),
    "bad_six_dice": _p(WRAP, CODE),
    "bad_five_flat": _p(WRAP),
    "bad_entry": _p(WRAP),
    "bad_exact": _p(WRAP),
    "bad_other": _p(WRAP, "x"),
    "bad_six_dice_short": _p(lines(2), CODE),
    "bad_five_flat_short": _p(lines(2)),
    "bad_entry_short": _p(lines(2)),
    "bad_exact_short": _p(lines(2)),
    # rules and help (firmware/screens/help.py)
    "help": _p(TITLE),
    "help_rules_of": _p(MENU, "{%s|preset_international|rules_custom}" % _PRESETS),
    "help_scoring": _p(MENU),
    "help_play": _p(MENU),
    "help_options": _p(MENU),
    "help_odds": _p(MENU),
    "help_keys": _p(MENU),
    "scroll_hint": _p(HINT),
    "od_title": _p(LINE),
    "od_line": _p(LINE, DICE, 99, 9, 46656, 46656, on=BIG),
    "od_line_small": _p(LINE, DICE, 99, 9, on=SMALL),
    "tip_no_plan": _p(LINE),
    "solving_hint": _p(HINT),
}

# The rules editor's rows: "!Option: value", with the option's widest value.
_OPTION_VALUES = {
    "dice": "6", "target": "%d" % TARGET, "entry": "%d" % ENTRY,
    "n_of_kind": "{val_double|val_triple_only|val_add|val_fixed|val_five_flat}",
    "ones_triple": "1000", "straight": "3000", "small_straights": "2000/2000",
    "three_pairs": "2000", "quad_pair": "2000", "two_triplets": "3000",
    "hot_dice": "{val_may|val_must}", "auto_keep": "{val_on|val_off}",
    "triples_across": "{val_on|val_off}", "penalty": "1000", "takeover": "{val_on|val_off}",
    "exact": "{val_on|val_off}", "finish": "{val_last_turn|val_round|val_exact|val_immediate}",
    "tie": "{val_trigger|val_playoff}",
}
for _key, _value in _OPTION_VALUES.items():
    PLACES["opt_" + _key] = _p(MENU, line="!{}: " + _value, give_way=True)
# (each value is measured in its option's row above)
for _key in ("off", "on", "double", "triple_only", "add", "fixed", "five_flat", "may", "must",
             "last_turn", "round", "exact", "immediate", "trigger", "playoff"):
    PLACES["val_" + _key] = _p(MENU)
# Help pages: paragraphs the pager breaks into lines.
for _key in ("sc_one", "sc_five", "sc_ones", "sc_triple", "sc_double", "sc_triple_only",
             "sc_add", "sc_fixed", "sc_five_flat", "sc_straight", "sc_small", "sc_pairs",
             "sc_quad_pair", "sc_two_triplets", "sc_example", "sc_only_roll",
             "pl_1", "pl_2", "pl_3", "pl_4", "pl_5", "pl_6",
             "op_dice", "op_entry", "op_no_entry", "op_hot_may", "op_hot_must", "op_auto_keep",
             "op_triples_across", "op_penalty", "op_takeover", "op_exact", "op_last_turn",
             "op_round", "op_exact_finish", "op_immediate", "op_trigger", "op_playoff",
             "op_decisions", "dec_penalty", "dec_takeover", "dec_bust", "od_note",
             "ky_1", "ky_2", "ky_3"):
    PLACES[_key] = _p(WRAP, PTS, PTS)
