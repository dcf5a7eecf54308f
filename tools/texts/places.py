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
where it goes (docs/contributing.md, "A text").
"""

TITLE, HINT, LINE, MENU, WRAP = "title", "hint", "line", "menu", "wrap"
BOTH, BIG, SMALL = "both", "big", "small"

NAME = object()  # a person's name (see the module docstring)
NAME_SHOWN = 3  # characters of a name every line keeps room for
NAME_MAX = 12  # engine.game.MAX_NAME: the longest name, alone on its line
PTS = 99950  # points: scores, turn totals, targets (rules editor: up to 50000 + a turn)
TARGET = 50000  # a target a saved rule set may hold (the forms offer up to 20000)
PCT = 100  # a percentage
ENTRY = 1000  # the entry hurdle (rules editor, score pad)
DICE = 6  # a count of dice
COUNT = 99  # counts: games, turns, rounds, seats
_PRESETS = "preset_zehntausend|preset_kneipe|preset_fuenf|preset_farkle4000|preset_punktlandung"
_GROUP = "{%s|preset_international|stats_custom|pad_title} %d" % (_PRESETS, TARGET)  # stats
_ENTRY = "{NAME} {pad_nothing|pad_join|pad_leave}"  # a score pad entry taken back
CODE = object()  # a rule option's name (opt_*): the widest one is used
# the options engine.rules checks as points (a multiple of 50 up to MAX_POINTS)
_POINT_OPTS = "|".join("opt_" + k for k in ("entry", "straight", "small_straights", "three_pairs",
                                             "quad_pair", "two_triplets", "penalty"))


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
    "online": _p(MENU),
    "new_game": _p(TITLE),
    "language": _p(MENU),
    "nav_hint": _p(HINT),
    "title_hint": _p(HINT),
    "rules_preset": _p(MENU, line="{}: {preset_international}"),
    "target": _p(MENU, line="{}: %d" % TARGET),
    "seats": _p(MENU, line="{}: %d" % COUNT),
    "seat": _p(MENU, COUNT),
    "person": _p(MENU),
    "start_game": _p(MENU),
    "start_solve": _p(MENU, 999),
    "form_hint_preset": _p(HINT, on=BIG),
    "form_hint_preset_small": _p(HINT, on=SMALL),
    "form_hint_target": _p(HINT),
    "form_hint_count": _p(HINT, on=BIG),
    "form_hint_count_small": _p(HINT, on=SMALL),
    "form_hint_person": _p(HINT, on=BIG),
    "form_hint_person_small": _p(HINT, on=SMALL),
    "form_hint_bot": _p(HINT),
    "form_hint_tips": _p(HINT),
    "form_hint_start": _p(HINT),
    "order": _p(MENU, line="{}…"),
    "order_hint": _p(HINT),
    "order_held_hint": _p(HINT, on=BIG),
    "order_held_hint_small": _p(HINT, on=SMALL),
    "replace_game": _p(TITLE),
    "running_game": _p(LINE),
    "replace_hint": _p(HINT, on=BIG),
    "replace_hint_small": _p(HINT, on=SMALL),
    "pick_name": _p(TITLE),
    "new_name": _p(MENU),
    "type_name": _p(TITLE),
    "name_hint": _p(HINT, on=BIG),
    "name_hint_small": _p(HINT, on=SMALL),
    "name_hint_take": _p(HINT, NAME, on=BIG),
    "name_hint_take_small": _p(HINT, NAME, on=SMALL),
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
    "final_turn": _p(TITLE, NAME, on=BIG),
    "final_turn_small": _p(TITLE, NAME, on=SMALL),
    "press_a_roll": _p(HINT),
    "roll": _p(LINE),
    "bank": _p(LINE),
    "take": _p(LINE),
    "keep_hint": _p(HINT, on=BIG),
    "keep_hint_small": _p(HINT, on=SMALL),
    "roll_only_hint": _p(HINT, on=BIG),
    "roll_only_hint_small": _p(HINT, on=SMALL),
    "decide_roll_hint": _p(HINT, on=BIG),
    "decide_roll_hint_small": _p(HINT, on=SMALL),
    "pick_hint": _p(LINE, on=BIG),
    "pick_hint_small": _p(LINE, on=SMALL),
    "ask_roll": _p(LINE, PTS),
    "ask_bank": _p(LINE, PTS),
    "ask_bank_lose": _p(LINE, PTS, on=BIG),
    "ask_bank_lose_small": _p(LINE, PTS, on=SMALL),
    "ask_bank_win": _p(LINE, PTS, on=BIG),
    "ask_bank_win_small": _p(LINE, PTS, on=SMALL),
    "ask_roll_hint": _p(HINT, on=BIG),
    "ask_roll_hint_small": _p(HINT, on=SMALL),
    "ask_bank_hint": _p(HINT, on=BIG),
    "ask_bank_hint_small": _p(HINT, on=SMALL),
    "start_hint": _p(HINT),
    "offer_hint": _p(HINT, on=BIG),
    "offer_hint_small": _p(HINT, on=SMALL),
    "offer": _p(LINE, PTS, DICE, on=BIG),
    "offer_small": _p(LINE, PTS, DICE, on=SMALL),
    "inherited": _p(LINE, PTS, DICE, on=BIG),
    "inherited_small": _p(LINE, PTS, DICE, on=SMALL),
    # a solo score stays below the target; with a 5-digit score the header
    # drops "Turn n" on a line too narrow for it (firmware/screens/play.py)
    "solo_head": _p(LINE, COUNT, 9950, line="{} +9950"),
    "race_lead": _p(LINE, 9950, line="9950 {} +9950", on=BIG),
    "race_behind": _p(LINE, 9950, line="9950 {} +9950", on=BIG),
    "race_need": _p(LINE, 9950, line="{} +9950", on=BIG),  # the own total gives way to it
    "race_lead_small": _p(LINE, 9950, line="9950 {} +9950", on=SMALL),
    "race_behind_small": _p(LINE, 9950, line="9950 {} +9950", on=SMALL),
    "race_need_small": _p(LINE, 9950, line="9950 {} +9950", on=SMALL),
    "selection": _p(LINE, PTS),
    "land_exact": _p(LINE, on=BIG),
    "land_exact_small": _p(LINE, on=SMALL),
    "land_left": _p(LINE, TARGET, on=BIG),
    "land_left_small": _p(LINE, TARGET, on=SMALL),
    "land_sel_exact": _p(LINE, 9950, on=BIG),
    "land_sel_exact_small": _p(LINE, 9950, on=SMALL),
    "land_sel": _p(LINE, 9950, TARGET, on=BIG),  # one pick, what is left of the target
    "land_sel_small": _p(LINE, 9950, TARGET, on=SMALL),
    "select_dice": _p(LINE),
    "left": _p(LINE, DICE),
    "hot": _p(LINE),
    "farkle": _p(LINE, line="{} {lost}", on=BIG),
    "bust": _p(LINE, line="{} {lost}", on=BIG),
    "lost": _p(LINE, PTS, line="{bust} {}", on=BIG),
    "pass_hint": _p(HINT),
    "not_scoring": _p(LINE, DICE, on=BIG),
    "not_scoring_small": _p(LINE, DICE, on=SMALL),
    "penalty": _p(LINE, NAME, 1000),
    "penalty_floor": _p(LINE, NAME, 950),
    # the engine's reasons for a refused move (play and score pad status line)
    "why_action": _p(LINE),
    "why_no_dice": _p(LINE),
    "why_nothing_to_bank": _p(LINE),
    "why_roll_first": _p(LINE),
    "why_keep_first": _p(LINE),
    "why_decide_first": _p(LINE),
    "why_farkle_first": _p(LINE),
    "why_no_offer": _p(LINE),
    "why_no_farkle": _p(LINE),
    "why_empty_keep": _p(LINE),
    "why_not_on_table": _p(LINE, DICE),
    "why_not_scoring": _p(LINE),
    "why_past_target": _p(LINE, TARGET),
    "why_hot_must": _p(LINE),
    "why_entry": _p(LINE, ENTRY),
    "why_over": _p(LINE),
    "why_final": _p(LINE),
    "why_full": _p(LINE, COUNT),
    "why_name": _p(LINE, NAME_MAX),
    "why_no_seat": _p(LINE),
    "why_last_seat": _p(LINE),
    "final_round": _p(LINE),
    "final_then": _p(LINE, NAME, 99950),
    "final_need": _p(LINE, 99950),
    "final_by": _p(LINE, NAME, 99950),
    "playoff_note": _p(LINE, line="{}••••••", on=BIG),
    "playoff_note_small": _p(LINE, line="{}••••••", on=SMALL),
    "playoff": _p(LINE),
    "hurry_hint": _p(HINT, on=BIG),
    "hurry_hint_small": _p(HINT, on=SMALL),
    "table": _p(TITLE),
    "back_to_game": _p(MENU),
    "to_title": _p(MENU),
    "winner": _p(TITLE, NAME),
    "winner_hint": _p(HINT),
    "turn_nothing": _p(LINE, NAME),
    "turn_penalty": _p(LINE, NAME, 1000),
    "turn_penalty_floor": _p(LINE, NAME),
    "warn_next": _p(LINE, 1000, on=BIG),
    "warn_next_small": _p(LINE, 1000, on=SMALL),
    "warn_next_floor": _p(LINE, 950, on=BIG),
    "warn_next_floor_small": _p(LINE, 950, on=SMALL),
    "farkle_warn": _p(LINE),
    "farkle_penalty": _p(LINE, 1000),
    "farkle_penalty_floor": _p(LINE, 950),
    "won_playoff": _p(LINE),
    "tie_final": _p(LINE, on=BIG),
    "tie_final_small": _p(LINE, on=SMALL),
    "tie_seat": _p(LINE),
    "solo_turns": _p(LINE, COUNT),
    "solo_record": _p(LINE),
    "solo_best": _p(LINE, COUNT),
    "save_failed": _p(TITLE),
    "save_failed_note": _p(LINE),
    "save_damaged": _p(TITLE),
    "save_damaged_note": _p(LINE),
    "older_copy": _p(TITLE),
    "older_copy_note": _p(LINE),
    "no_save": _p(TITLE),
    "ok_hint": _p(HINT),
    "solving_left": _p(LINE, PCT, 999),
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
    "pad_err_action": _p(LINE),
    "pad_err_config": _p(LINE),
    "pad_err_seats": _p(LINE, 8),
    "pad_err_name": _p(LINE, NAME_MAX),
    "pad_err_no_undo": _p(LINE),
    "pad_err_over": _p(LINE),
    "pad_err_no_seat": _p(LINE),
    "pad_err_rows": _p(LINE, 32),
    "pad_err_number": _p(LINE),
    "pad_err_negative": _p(LINE),
    "pad_err_too_many": _p(LINE, 100000),
    "pad_nothing": _p(px(50, 30)),
    "pad_leave": _p(LINE),
    "pad_join": _p(LINE),
    "pad_hurdle": _p(LINE, ENTRY),
    "pad_penalty": _p(MENU, "-%d" % ENTRY),
    "seat_joined": _p(LINE, NAME),
    "seat_left": _p(LINE, NAME),
    "leave_ask": _p(TITLE, NAME),
    "leave_note": _p(LINE),
    "pad_undone": _p(LINE, _ENTRY),
    "pad_nothing_n": _p(LINE, NAME, COUNT),
    "pad_round": _p(px(30, 20), COUNT),
    "pad_total": _p(px(90, 42), PTS),
    "pad_at_zero": _p(LINE, NAME),
    "pad_floor": _p(LINE),
    "pad_hint": _p(HINT, on=BIG),
    "pad_hint_small": _p(HINT, on=SMALL),
    "pad_hint_zero": _p(HINT, on=BIG),
    "pad_hint_zero_small": _p(HINT, on=SMALL),
    "pad_hint_undo": _p(HINT, on=BIG),
    "pad_hint_undo_small": _p(HINT, on=SMALL),
    "pad_table": _p(LINE),
    "pad_overview": _p(TITLE, 10000, ENTRY),
    "pad_overview_hint": _p(HINT),
    "pad_menu_nothing": _p(MENU, NAME),
    "pad_menu_overview": _p(MENU),
    "pad_menu_undo": _p(MENU, _ENTRY, on=BIG),
    "pad_menu_undo_small": _p(MENU, on=SMALL),
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
    "pad_final_need": _p(LINE, PTS),
    "pad_undo_ask": _p(TITLE),
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
    "set_ask": _p(MENU, "aus"),
    "set_on": _p(MENU, line="{set_sound}"),
    "set_off": _p(MENU, line="{set_sound}"),
    "settings_hint": _p(HINT, on=BIG),
    "settings_hint_small": _p(HINT, on=SMALL),
    "pad_setup_hint": _p(HINT),
    # tips (firmware/tips.py)
    "tip_basic": _p(LINE),
    "tip_take1": _p(LINE, DICE),
    "tip_take2": _p(LINE, DICE, DICE),
    "tip_take3": _p(LINE, DICE, DICE, DICE),
    "tip_take4": _p(LINE, DICE, DICE, DICE, DICE),
    "tip_take_all": _p(LINE),
    "tip_take_marked": _p(LINE, DICE),
    "tip_then_bank": _p(LINE),
    "tip_then_win": _p(LINE),
    "tip_then_roll": _p(LINE),
    "tip_wins": _p(LINE),
    "tip_bank": _p(LINE),
    "tip_roll": _p(LINE),
    "tip_take_over": _p(LINE),
    "tip_fresh": _p(LINE),
    "tip_turn": _p(LINE, 9950),
    "tip_hits": _p(LINE, 9, 10, on=BIG),
    "tip_hits_one": _p(LINE, 10, on=BIG),
    "tip_hits_sure": _p(LINE, on=BIG),
    "tip_farkles": _p(LINE, 9, 10, on=BIG),
    "tip_farkles_one": _p(LINE, 10, on=BIG),
    "tip_farkles_rare": _p(LINE, on=BIG),
    "tip_win_chance": _p(LINE, 9, 10, on=BIG),
    "tip_win_none": _p(LINE, on=BIG),
    "tip_win_sure": _p(LINE, on=BIG),
    "tip_cost": _p(LINE, PTS, on=BIG),
    "tip_cost_small": _p(LINE, PTS, on=SMALL),
    "tip_cost_chance": _p(LINE, PCT),
    "tip_cost_win": _p(LINE, PCT, on=BIG),
    "tip_cost_win_small": _p(LINE, PCT, on=SMALL),
    "tip_cost_win_now": _p(LINE),
    "tip_wins_now": _p(LINE, on=BIG),
    "tip_total_title": _p(TITLE),
    "tip_total": _p(LINE, NAME, PTS),
    "tips": _p(MENU, line="{}: {tips_none}"),
    "tips_none": _p(MENU, line="{tips}: {}"),
    "tips_on": _p(MENU, line="{tips}: {}"),
    "tips_off": _p(MENU, line="{tips}: {}"),
    "tips_for": _p(TITLE),
    "tips_hint": _p(HINT),
    "tips_lesson": _p(MENU, line="{tips}: {}"),
    "lesson": _p(MENU),
    "lesson_title": _p(TITLE),
    "lesson_1": _p(WRAP),
    "lesson_2": _p(WRAP),
    "lesson_3": _p(WRAP),
    "lesson_hint": _p(HINT, on=BIG),
    "lesson_hint_small": _p(HINT, on=SMALL),
    "lesson_step": _p(LINE, 3, 3),
    "lesson_done": _p(TITLE),
    "lesson_end_1": _p(WRAP),
    "lesson_end_2": _p(WRAP),
    # rules editor (firmware/screens/rules_edit.py)
    "rules_edit": _p(TITLE),
    "rules_custom": _p(MENU, line="{rules_preset}: {}"),
    "rules_use": _p(MENU),
    "rules_save": _p(MENU),
    "rules_delete": _p(MENU),
    "rules_saved": _p(TITLE),
    "rules_bad": _p(TITLE),
    "rules_from": _p(MENU),
    "edit_hint": _p(HINT, on=BIG),
    "edit_hint_small": _p(HINT, on=SMALL),
    "rules_linked": _p(TITLE),
    "rules_unsaved": _p(TITLE),
    "rules_keep": _p(MENU),
    "rules_discard": _p(MENU),
    # why the engine refuses rules: in full on a page, short (or the one
    # form) in two lines under the editor's list
    "rule_why_six_dice": _p(WRAP, CODE),
    "rule_why_five_flat": _p(WRAP),
    "rule_why_entry": _p(WRAP),
    "rule_why_exact": _p(WRAP),
    "rule_why_six_dice_short": _p(lines(2), CODE),
    "rule_why_five_flat_short": _p(lines(2)),
    "rule_why_entry_short": _p(lines(2)),
    "rule_why_exact_short": _p(lines(2)),
    "rule_why_points": _p(lines(2), "{%s}" % _POINT_OPTS, 100000),
    "rule_why_target": _p(lines(2), "{opt_target}", 100000),
    "rule_why_unknown": _p(lines(2), CODE),
    "rule_why_bool": _p(lines(2), "{opt_auto_keep|opt_triples_across|opt_takeover|opt_exact}"),
    "rule_why_pair": _p(lines(2), "{opt_small_straights}"),
    "rule_why_choice": _p(lines(2), "{opt_n_of_kind|opt_finish|opt_tie|opt_hot_dice|opt_dice"
                                    "|opt_ones_triple}"),
    "rule_why_encoding": _p(lines(2)),
    "rule_why_preset": _p(lines(2)),
    # rules and help (firmware/screens/help.py)
    "help": _p(TITLE),
    "help_rules_of": _p(MENU, "{%s|preset_international|rules_custom}" % _PRESETS),
    "help_scoring": _p(MENU),
    "help_play": _p(MENU),
    "help_options": _p(MENU),
    "help_odds": _p(MENU),
    "help_thumb": _p(MENU),
    "help_tactics": _p(MENU),
    "help_keys": _p(MENU),
    "th_five": _p(WRAP, PCT),
    "th_two": _p(WRAP, PCT),
    "th_one": _p(WRAP, 9, 10, PCT),
    "th_few": _p(WRAP),
    "tt_bank": _p(WRAP, PCT, PTS),
    "tt_entry": _p(WRAP, ENTRY),
    "tt_behind": _p(WRAP),
    "tt_ahead": _p(WRAP),
    "scroll_hint": _p(HINT),
    "od_title": _p(LINE),
    "od_line": _p(LINE, DICE, 99, 9, 46656, 46656, on=BIG),
    "od_line_small": _p(LINE, DICE, 99, 9, on=SMALL),
    "tip_no_plan": _p(LINE, on=BIG),
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
             "ky_1", "ky_2", "ky_2_quick", "ky_3", "ky_4"):
    PLACES[_key] = _p(WRAP, PTS, PTS)
# The rules editor's explanations (A on an option), on the same pager.
for _key in ("ex_target", "ex_n_of_kind", "ex_ones_triple", "ex_straight",
             "ex_small_straights", "ex_three_pairs", "ex_quad_pair", "ex_two_triplets"):
    PLACES[_key] = _p(WRAP)

# The page's online screens (web/online.py's SAY): web-only texts, kept
# beside that module (the device never loads them), measured here the same
# way. ROOM_CODE stands for a room's code: 12 characters of the server's
# alphabet (server/names.py: token_urlsafe), the widest of them.
ROOM_CODE = object()
ROOM_CODE_LEN = 12
ROOM_CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
SEATS_MAX = 8  # engine.game: the most seats a game has
_SEAT = "%d {NAME} ({you|computer_for|away})" % SEATS_MAX  # a seat's row: one mark
ONLINE_PLACES = {
    "online": _p(TITLE),
    "open_room": _p(MENU),
    "back_room": _p(MENU),
    "room": _p(TITLE, ROOM_CODE, on=BIG),  # the small title shows the code alone
    "free": _p(MENU, line="%d {}" % SEATS_MAX),
    "you": _p(MENU, line=_SEAT),
    "away": _p(MENU, line=_SEAT),
    "computer_for": _p(MENU, line=_SEAT),
    "start": _p(MENU),
    "leave": _p(MENU),
    "waiting": _p(MENU),
    "connecting": _p(MENU),
    "connected": _p(MENU),
    "reconnecting": _p(MENU),
    "other": _p(MENU),
    "opening": _p(TITLE),
    "room_hint": _p(HINT),
    "gone": _p(TITLE),
    "rematch_wait": _p(HINT),
    "watch_hint": _p(HINT),
    "others_hint": _p(HINT),
    "need_people": _p(WRAP),
    # the play screen's status line: the away seat to move's seconds gone and left
    "away_wait": _p(LINE, COUNT, COUNT),
    "away_now": _p(LINE, COUNT),
    "standin_plays": _p(LINE),
}

# The room server's reasons (server/reasons.py), as the online screens show
# them: broken into lines (the waiting room's rows, a page of their own).
# Their values are counts, and for "rules" the key of the rule option that
# failed (RULE_KEY: the widest of engine.rules.KEYS).
RULE_KEY = object()
REASON = _p(WRAP, COUNT, COUNT, COUNT)
REASON_RULES = _p(WRAP, RULE_KEY)
