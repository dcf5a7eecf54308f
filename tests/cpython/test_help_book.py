"""The texts' help book (tools/texts/gen.py, firmware/strings.py): it holds
the texts of the help pages, the rules editor, the score pad and the
statistics, a game never asks for one of them, and the app lets it go with
the screens' modules."""

import sys

from firmware import strings
from tools.mp import app_run
from tools.texts import de, gen

HELP = "firmware.texts_de_help"


def test_the_books_split_the_keys():
    main = [k for k in de.TEXTS if not gen.in_help_book(k)]
    helpers = [k for k in de.TEXTS if gen.in_help_book(k)]
    assert main and helpers and len(main) + len(helpers) == len(de.TEXTS)
    assert "op_exact" in helpers and "new_game" in main
    # the rules editor, the score pad and the statistics are never on a game's
    # stack; the title's own rows stay in the main book
    for key in ("opt_exact", "val_on", "rule_why_entry", "pad_err_name", "stats_games",
                "lesson_1", "rules_save"):
        assert key in helpers, key
    for key in ("pad_title", "pad_continue", "stats_title", "lesson_step", "scroll_hint",
                "rules_preset", "rules_custom"):
        assert key in main, key


def test_a_game_with_tips_never_loads_the_help_book_and_release_drops_it():
    strings.release()
    app = app_run.build()
    policy = app_run.Policy("meister", 1000)
    tipped = []

    def each(app, drew):
        top = app.top()
        if top.name == "play" and not tipped and not top.game.seat().is_bot:
            top.tips.toggle(app)  # tips on for the person: their texts too
            tipped.append(1)
        assert HELP not in sys.modules, top.name

    app_run.play_game(app, policy, each)
    assert tipped
    assert app.t("op_exact") == de.TEXTS["op_exact"]  # a help page's text loads it
    assert HELP in sys.modules
    kept = dict(sys.modules)
    try:
        app.release_modules()  # what App.home does on MicroPython
        assert HELP not in sys.modules
    finally:  # CPython: the other tests go on with the first modules (a second
        sys.modules.update(kept)  # engine.scorepad would hold another ScorePad class)
