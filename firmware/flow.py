"""The game's lifecycle: start, resume, rematch, replace; the score pad's
resume and new evening.

Screens and hosts call down into this module and never into each other for
these steps: the title's "continue", the new-game form's start, the
winner's rematch, the solving screen's return to a game put away, a
restart after a failure (firmware.supervisor). Screens reach it as
`app.flow` (firmware.app), so that a screen the play screen opens (the
winner, the solving screen) needs no import of a module that imports the
play screen: the imports form no circle (tests/cpython/test_import_cycles.py).

It lives under no screen and is released with the screen modules when the
app goes home (firmware.app.RELEASED): a rematch loads this small module,
not the new-game form.
"""

from firmware.store import NoSave, SaveDamaged


def resume_game(app):
    """Load the saved game and show it; a damaged save is reported and the
    last good copy used (the store falls back by itself)."""
    from firmware.screens.play import Play

    try:
        game, note = app.session.load_game(app.dice)
    except (NoSave, SaveDamaged) as e:
        _cannot_load(app, e)
        return
    play = Play(app, game)
    play.restore_picks(app)
    app.push(play)
    if note:  # an older copy: the last decision is lost
        _older_copy(app)


def start_game(app, choice, rules, seats, tips, remember=True):
    """Start a game of `rules` for `seats` ([name, kind] pairs) with tips
    for the people named in `tips`, and (`remember`) keep the table for
    the next new game (`choice` names the form's rules row, see
    Session.load_seating). Replaces a running game without asking: the
    callers ask first (`ask_replace`)."""
    app.busy()  # the play screen's modules load and the game is saved
    from engine.game import Game
    from firmware.screens.play import Play
    from firmware.tips_store import start_game as start_tips

    session = app.session
    for name, kind in seats:
        if not kind:
            session.remember_name(name)
    if remember:
        session.save_seating(choice, rules, seats, tips)
    game = Game(rules, [(name, kind) for name, kind in seats], app.dice)
    start_tips(session, game, [not kind and name in tips for name, kind in seats])
    session.save_game(game)  # after the tips file: the game's key is in it
    play = Play(app, game)
    app.home(play)
    # The form says "Los: ~62s rechnen": the Expert's plan a computer needs
    # and nobody has is worked out now, not at that computer's first turn
    # (issue 34 point 4). The solving screen returns to this game.
    from engine.levels import PLAN, needs

    if any(kind and needs(kind, PLAN) for _, kind in seats):
        from firmware.players import plan_known

        if not plan_known(rules, (app.tables, session.store.fs)):
            from firmware.screens.solving import Solving

            app.push(Solving(play.players))


def start_lesson(app, rules):
    """A game for the tips lesson (firmware/tips.py), from Rules & help on
    the title: the person who played last (else "Spieler 1") against a
    cautious computer under `rules`, the lesson's first page at once. A
    running game is replaced only after a yes; the new-game form keeps its
    last table."""
    from firmware.players import computer_name
    from firmware.screens.names import default_name

    names = app.session.names
    seats = [[names[0] if names else default_name(app, 1, []), ""],
             [computer_name(app, "vorsichtig", 2), "vorsichtig"]]

    def go(app):
        start_game(app, None, rules, seats, [], remember=False)
        play = app.find("play")
        if play is not None:
            play.tips.start_lesson(app, 0)

    if app.session.has_game():
        ask_replace(app, go)
    else:
        go(app)


def ask_replace(app, yes):
    """Ask before a new game replaces the running one: the question names
    who plays in it and what A and B do; A runs `yes(app)`, B keeps the
    running game (back to the form)."""
    from firmware.screens.lines import standing_lines
    from firmware.screens.message import Confirm

    lines = [app.t("running_game")]
    try:
        game, _ = app.session.load_game(None)
        ui = app.ui  # as many as fit between the first line and the hint
        lines += standing_lines(app, game)[:max(1, (ui.h - 2 * ui.line) // ui.line - 1)]
    except (NoSave, SaveDamaged):
        pass  # a damaged save is still a game that the new one replaces
    app.push(Confirm(app.t("replace_game"), lines, yes,
                     "replace_hint" if app.big else "replace_hint_small"))


def rematch(app, game):
    """The winner screen's rematch: the same seats (those still at the
    table, in the same order) and the same rules, started at once; tips
    as the last table had them. The finished game is no longer saved, so
    nothing is replaced."""
    last = app.session.load_seating()
    choice, tips = "", []
    if last is not None:
        tips = last[3]
        if last[1] == game.rules:
            choice = last[0]
    seats = [[game.seats[i].name, game.seats[i].kind] for i in game.active_seats()]
    start_game(app, choice, game.rules, seats, [n for n, k in seats if not k and n in tips])


def resume_pad(app):
    """The title's "Tafel weiter": load the saved pad and show it; a damaged
    file is reported (the store falls back to the last good copy itself)."""
    from firmware.screens.pad import PadScreen, PadWinner

    try:
        pad, note = app.session.load_pad()
    except (NoSave, SaveDamaged) as e:
        _cannot_load(app, e)
        return
    screen = PadScreen(pad)
    app.push(screen)
    if pad.over:
        app.push(PadWinner(screen))
    if note:  # an older copy: the last entry is lost
        _older_copy(app)


def new_pad(app):
    """The title's "Tafel": a new pad's form; asks first when one is saved."""
    from firmware.screens.pad import PadSetup

    if app.session.has_pad():
        from firmware.screens.message import Confirm

        app.push(Confirm(app.t("pad_new"), [app.t("pad_replace")],
                         lambda app: app.push(PadSetup(app))))
    else:
        app.push(PadSetup(app))


def _cannot_load(app, error):
    """Say that there is no save (NoSave) or that it is damaged (the reason
    stays in English for logs; the player reads theirs)."""
    from firmware.screens.message import Message

    if isinstance(error, NoSave):
        app.push(Message(app.t("no_save"), []))
    else:
        app.push(Message(app.t("save_damaged"), [app.t("save_damaged_note")]))


def _older_copy(app):
    """Say that an older copy was loaded: the last step is lost."""
    from firmware.screens.message import Message

    app.push(Message(app.t("older_copy"), [app.t("older_copy_note")]))
