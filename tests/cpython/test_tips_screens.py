"""Tips through the headless simulator, by key presses, on both layouts in
both languages: switched on at the new-game form and off from the
standings; the tip in plain words on the screen (the dice to take, then
what to do, and on 128x64 why), arrows under the suggested dice, nothing
changing while nobody presses, the cost note in the frame after the
decision, a farkle's message at once, and the end summary."""

import framebuf

from engine.dice import ScriptedDice
from engine.game import TAKE, Game
from engine.rules import preset
from firmware import tips_store
from firmware.screens.play import Play
from simulator.host import Sim
from tests.cpython.simdriver import person_turn_step, press, scripted_game

BOARDS = ("pico_ssd1306_i2c", "thumby")
LANGS = ("de", "en")


def _to_row(sim, row):
    """Move the new-game form's highlight to the row named `row`."""
    rows = sim.app.top()._rows()
    while rows[sim.state()["index"]] != row:
        press(sim, "DOWN")


def _start_with_tips(sim, on=True):
    """Title -> new game (1 person, 1 Expert); the person's tips on or off."""
    press(sim, "A")
    assert sim.state()["screen"] == "setup"
    _to_row(sim, "tips")
    press(sim, "A")
    assert sim.state()["screen"] == "tips_pick"
    labels = sim.app.top().labels(sim.app)
    if labels[0].endswith(sim.app.t("tips_on")) != on:
        press(sim, "A")
    assert sim.app.top().labels(sim.app)[0].endswith(sim.app.t("tips_on" if on else "tips_off"))
    press(sim, "B")
    _to_row(sim, "start")
    press(sim, "A")


def _play(sim):
    for screen in sim.app.stack:
        if screen.name == "play":
            return screen
    return None


def _shown(sim, text):
    """True when `text` is on the screen as a line of its own from x = 0
    (drawn by the app's font into a blank canvas and compared row by row)."""
    ui = sim.app.ui
    w, h = sim.width, sim.height
    height = ui.font.height
    scratch = framebuf.FrameBuffer(bytearray(w * h // 8), w, h, framebuf.MONO_VLSB)
    ui.text(scratch, text, 0, 0)
    want = ["".join("#" if scratch.pixel(x, y) else "." for x in range(w))
            for y in range(height)]
    rows = sim.rows()
    for y in range(h - height + 1):
        if rows[y:y + height] == want:
            return True
    return False


def _t(sim, key, *values):
    return sim.app.t(key) % values if values else sim.app.t(key)


def _scripted(tmp_path, board, lang, faces, scores=(0, 0), flags=(True, False),
              seats=(("Anna", ""), ("Ben", ""))):
    """A game on `board` in `lang` with scripted dice, tips as `flags`,
    at Anna's hand-over (or her first screen)."""
    sim = Sim(board, str(tmp_path / (board + lang + str(len(faces)))), seed=1)
    sim.app.lang = lang
    game = scripted_game(preset("zehntausend"), seats, faces, scores)
    tips_store.start_game(sim.app.session, game, list(flags))
    sim.app.session.save_game(game)
    sim.app.home(Play(sim.app, game))
    sim.run(200)
    return sim, game


def _marked(sim, play):
    """Positions of the dice with an arrow under them (the arrow's tip
    sits under the die's middle, a row below the cursor bar)."""
    ui = sim.app.ui
    game = play.game
    n = len(game.roll)
    size = ui.die
    gap = min(4 if sim.app.big else max(0, (ui.w - n * size) // max(1, n - 1)), 4)
    x0 = (ui.w - (n * size + (n - 1) * gap)) // 2
    top = ui.line + (1 if sim.app.big else 0) + size + (4 if sim.app.big else 3)
    out = []
    for i in range(n):
        cx = x0 + i * (size + gap) + size // 2
        if sim.pixel(cx, top) and not sim.pixel(cx - 1, top) and sim.pixel(cx - 2, top + 2):
            out.append(i)
    return out


def _counted(monkeypatch, name):
    """The calls of firmware.tip_words.`name` from now on (a list of their
    arguments)."""
    from firmware import tip_words

    calls = []
    real = getattr(tip_words, name)

    def counted(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(tip_words, name, counted)
    return calls


def _rolled(tmp_path):
    """Anna (tips on) against Ben on 128x64, her first roll 1 1 5 2 3 6 on
    the table and the coach's answer shown."""
    sim, _ = _scripted(tmp_path, "pico_ssd1306_i2c", "de", [1, 1, 5, 2, 3, 6])
    press(sim, "A")
    sim.run(600)
    return sim


def test_the_tip_names_the_dice_then_what_to_do(tmp_path):
    for board in BOARDS:
        for lang in LANGS:
            sim, game = _scripted(tmp_path, board, lang, [1, 1, 5, 2, 3, 6])
            press(sim, "A")  # hand-over: roll
            sim.run(600)  # the roll settles; the coach answers in the pass after a frame
            assert game.phase == "keep"
            play = _play(sim)
            # The Expert keeps one 1 and rolls five dice: the tip says so in words.
            assert _shown(sim, _t(sim, "tip_take1", 1)), (board, lang, sim.rows())
            assert _marked(sim, play) == [0]
            if sim.app.big:  # and why: five dice score nine times in ten
                assert _shown(sim, _t(sim, "tip_hits", 9, 10)), (board, lang)
            # The tip stays: no page turns while nobody presses.
            before = sim.rows()
            sim.run(6000)
            assert sim.rows() == before
            # The cursor starts on that 1: A picks it, and the tip moves on.
            press(sim, "A")
            assert play.selected() == (1,)
            assert _shown(sim, _t(sim, "tip_then_roll")), (board, lang)
            assert not _shown(sim, _t(sim, "tip_take1", 1))
            # Another pick is the person's own: 128x64 shows its value instead
            # of the reason, the tip itself stays.
            press(sim, "RIGHT", "A")
            assert play.selected() == (1, 1)
            assert _shown(sim, _t(sim, "tip_take1", 1))
            if sim.app.big:
                assert _shown(sim, _t(sim, "selection", 200))


def test_the_reason_is_worked_out_once_per_tip_and_follows_the_language(tmp_path, monkeypatch):
    calls = _counted(monkeypatch, "reason")
    sim = _rolled(tmp_path)
    assert _shown(sim, _t(sim, "tip_hits", 9, 10))
    worked = len(calls)
    assert worked >= 1
    play = _play(sim)
    for _ in range(3):  # redraws of the same tip (the cursor moves) ask no more sums
        press(sim, "RIGHT")
        assert _shown(sim, _t(sim, "tip_hits", 9, 10))
    assert len(calls) == worked
    sim.app.push(sim.app.top())  # (a screen above and back: the stack changed)
    sim.app.lang = "en"  # as the settings screen switches it
    sim.app.pop()
    sim.run(100)
    assert play.tips.view.reason(sim.app, play) == _t(sim, "tip_hits", 9, 10)
    assert _shown(sim, _t(sim, "tip_hits", 9, 10))  # in English now
    assert len(calls) == worked + 1


def test_the_move_is_worded_again_only_when_the_pick_meets_the_advice(tmp_path, monkeypatch):
    """Picks and cursor moves redraw the play screen; the tip's words are
    worked out again only when the pick becomes (or stops being) the
    advised keep, or the screen stack changed (the language may have)."""
    calls = _counted(monkeypatch, "move")
    sim = _rolled(tmp_path)
    assert _shown(sim, _t(sim, "tip_take1", 1))
    worked = len(calls)
    play = _play(sim)
    press(sim, "RIGHT", "RIGHT", "A")  # the 5: the person's own pick, the same words
    assert play.selected() == (5,)
    assert _shown(sim, _t(sim, "tip_take1", 1))
    assert len(calls) == worked
    press(sim, "A", "LEFT", "LEFT", "A")  # the advised 1: the next step in words
    assert play.selected() == (1,)
    assert _shown(sim, _t(sim, "tip_then_roll"))
    assert len(calls) == worked + 1
    sim.app.push(sim.app.top())
    sim.app.lang = "en"
    sim.app.pop()
    sim.run(100)
    assert _shown(sim, _t(sim, "tip_then_roll"))  # in English now
    assert len(calls) == worked + 2


def test_a_bank_tip_says_why(tmp_path):
    for board in BOARDS:
        for lang in LANGS:
            sim, game = _scripted(tmp_path, board, lang, [1, 1, 1, 5, 2, 3],
                                  scores=(3000, 3000))
            press(sim, "A")
            sim.run(600)
            play = _play(sim)
            assert _shown(sim, _t(sim, "tip_take4", 1, 1, 1, 5)), (board, lang)
            assert _marked(sim, play) == [0, 1, 2, 3]
            press(sim, "UP", "B")  # every scoring die (the tip's four); B: not yet
            assert play.selected() == (1, 1, 1, 5)
            assert _shown(sim, _t(sim, "tip_then_bank")), (board, lang)
            if sim.app.big:  # two dice farkle four times in nine: one in two
                assert _shown(sim, _t(sim, "tip_farkles_one", 2)), (board, lang)
            press(sim, "DOWN", "DOWN")  # bank: asked, then done
            assert game.seats[0].score == 4050
            assert play.tips.view.note == ""  # the best move costs nothing


def test_the_cost_note_comes_with_the_next_frame_and_stays_until_a_press(tmp_path):
    for board in BOARDS:
        for lang in LANGS:
            # Anna banks a single 1 from 1,2,3,4,6,6: rolling five dice was
            # worth far more. Ben is a computer.
            sim, game = _scripted(tmp_path, board, lang,
                                  [1, 2, 3, 4, 6, 6] + [2, 3, 4, 6, 6, 2] * 3,
                                  seats=(("Anna", ""), ("Ben", "profi")))
            press(sim, "A")  # the hand-over: roll
            sim.run(600)
            play = _play(sim)
            press(sim, "A", "DOWN", "DOWN")  # the cursor starts on the 1: pick it, bank (asked)
            assert game.seats[0].score == 100
            cost = play.tips.cost[0]
            assert cost > 200
            note = _t(sim, "tip_cost" if sim.app.big else "tip_cost_small", cost)
            assert _shown(sim, note), (board, lang)  # the frame right after the press
            sim.run(400)  # the computer's turn begins; the note stays
            assert _shown(sim, note)
            press(sim, "A")  # any press (here: hurry the computer) ends it
            sim.run(50)
            assert not _shown(sim, note)
            # Saved with the game: the cost survives a restart.
            again = Sim(board, sim.data_dir, 5)
            press(again, "A")
            assert _play(again).tips.cost[0] == cost


def test_a_farkle_shows_at_once_after_a_costly_roll(tmp_path):
    for board in BOARDS:
        for lang in LANGS:
            # 1,1,5,2,3,6: Anna keeps all three and rolls three dice (the tip
            # was one 1 and five dice): 2,3,4 farkles.
            sim, game = _scripted(tmp_path, board, lang, [1, 1, 5, 2, 3, 6, 2, 3, 4])
            press(sim, "A")
            sim.run(600)
            play = _play(sim)
            press(sim, "UP", "UP")  # every scoring die, roll on (asked, then done)
            sim.run(500)  # the roll animation
            assert game.phase == "farkle"
            status = _t(sim, "farkle") + " " + _t(sim, "lost", 250)
            if sim.app.ui.width(status) > sim.app.ui.w:  # the short form where it must
                status = _t(sim, "farkle") + " -250"
            assert _shown(sim, status), (board, lang)
            assert play.tips.view.note  # the roll on cost something
            if sim.app.big:  # the note on the line above it
                assert _shown(sim, play.tips.view.note)


def test_tips_switch_from_the_standings(tmp_path):
    sim = Sim("pico_ssd1306_i2c", str(tmp_path), 4)
    _start_with_tips(sim)
    assert sim.state()["screen"] == "handover"
    press(sim, "B")
    assert sim.state()["screen"] == "standings"
    labels = sim.app.top().labels(sim.app)
    row = labels.index(sim.app.t("tips") + ": " + sim.app.t("tips_on"))
    while sim.state()["index"] != row:
        press(sim, "DOWN")
    press(sim, "A")
    assert sim.app.top().labels(sim.app)[row] == sim.app.t("tips") + ": " + sim.app.t("tips_off")
    assert not _play(sim).tips.on()
    press(sim, "A")  # on again
    assert _play(sim).tips.on()
    press(sim, "A")  # and off
    press(sim, "B")
    assert sim.state()["screen"] == "handover"
    again = Sim("pico_ssd1306_i2c", str(tmp_path), 9)  # saved with the game
    press(again, "A")
    assert not _play(again).tips.on(0)


def test_off_means_no_tips_and_no_coach(tmp_path):
    for board in BOARDS:
        sim = Sim(board, str(tmp_path / board), 4)
        _start_with_tips(sim, on=False)
        play = _play(sim)
        assert not play.tips.on(0)
        presses = []
        for _ in range(60):  # a few turns: the coach's view is never made
            state = sim.state()
            if state["screen"] != "play":
                press(sim, "A")
            elif state["engine"][1][state["current"]][1]:
                sim.run(300)
            else:
                person_turn_step(sim, state, presses)
        assert presses and play.tips.view is None


def test_the_end_summary(tmp_path):
    for board in BOARDS:
        # Anna banks a single 1 (a cost), Ben farkles, Anna opens the final
        # round with 1,1,1,1,5, Ben farkles his last turn.
        sim, game = _scripted(tmp_path, board, "de",
                              [1, 2, 3, 4, 6, 6] + [2, 3, 4, 6, 6, 2] + [1, 1, 1, 1, 5, 2]
                              + [2, 3, 4, 6, 6, 2], scores=(9200, 100))
        press(sim, "A")
        play = _play(sim)
        press(sim, "A", "DOWN", "DOWN")  # the cursor starts on the 1: pick it, bank (asked)
        cost = play.tips.cost[0]
        for _ in range(30):
            state = sim.state()
            if state["screen"] in ("message", "winner"):
                break
            if state["screen"] == "handover":
                press(sim, "A")
            elif state["phase"] == "farkle":
                press(sim, "A")
            elif state["phase"] == "keep":
                press(sim, "DOWN", "DOWN")
            else:
                press(sim, "A")
        state = sim.state()
        assert state["screen"] == "message", state
        assert state["title"] == sim.app.t("tip_total_title")
        assert state["lines"] == [sim.app.t("tip_total") % ("Anna", cost)]
        press(sim, "A")
        assert sim.state()["screen"] == "winner"
        assert not sim.app.session.store.fs.exists(tips_store.FILE)


def test_every_tip_fits_both_screens(tmp_path):
    """The longest values of every tip text fit the line it is drawn on."""
    for board in BOARDS:
        sim = Sim(board, str(tmp_path / board), 1)
        ui = sim.app.ui
        for lang in LANGS:
            sim.app.lang = lang
            t = sim.app.t
            lines = [t("tip_take1") % 6, t("tip_take2") % (5, 5), t("tip_take3") % (5, 5, 5),
                     t("tip_take4") % (5, 5, 5, 5), t("tip_take_all"),
                     t("tip_take_marked") % 5, t("tip_then_bank"),
                     t("tip_then_roll"), t("tip_then_win"), t("tip_bank"), t("tip_roll"),
                     t("tip_wins"), t("tip_take_over"), t("tip_fresh"), t("tip_turn") % 999,
                     t("tip_basic"), t("tip_cost_small") % 9999, t("tip_cost_chance") % 100,
                     t("tip_cost_win_small") % 100, t("tip_cost_win_now")]
            if sim.app.big:  # the reasons and the long notes show on 128x64 only
                lines += [t("tip_hits") % (9, 10), t("tip_hits_one") % 10, t("tip_hits_sure"),
                          t("tip_farkles") % (9, 10), t("tip_farkles_one") % 10,
                          t("tip_farkles_rare"), t("tip_win_chance") % (9, 10),
                          t("tip_win_sure"), t("tip_win_none"), t("tip_wins_now"),
                          t("tip_no_plan"), t("tip_cost") % 9999, t("tip_cost_win") % 100]
            for line in lines:
                assert ui.width(line) <= ui.w, (board, lang, line)


def test_basics_without_a_plan(tmp_path):
    """Custom rules with no stored plan: arrows under every scoring die and
    simple words, no solving on the spot."""
    for board in BOARDS:
        sim = Sim(board, str(tmp_path / board), seed=1)
        rules = preset("zehntausend").replace(target=3000, three_pairs=1000)  # no plan shipped
        game = Game(rules, [("Anna", ""), ("Ben", "")], ScriptedDice([1, 1, 5, 2, 3, 6]))
        tips_store.start_game(sim.app.session, game, [True, False])
        sim.app.session.save_game(game)
        sim.app.home(Play(sim.app, game))
        sim.run(200)
        press(sim, "A")
        sim.run(600)
        play = _play(sim)
        assert play.players.plan is None and play.tips.view.coach() is None
        assert _marked(sim, play) == [0, 1, 2]
        assert _shown(sim, sim.app.t("tip_basic"))
        if sim.app.big:
            assert _shown(sim, sim.app.t("tip_no_plan"))


def test_tips_at_a_turns_start(tmp_path):
    """Alone at the table: what a turn brings; offered a takeover: take it
    or start fresh."""
    from engine import coach

    for board in BOARDS:
        for lang in LANGS:
            sim = Sim(board, str(tmp_path / (board + lang)), seed=1)
            sim.app.lang = lang
            game = Game(preset("zehntausend"), [("Anna", "")], ScriptedDice([1, 1, 5, 2, 3, 6]))
            tips_store.start_game(sim.app.session, game, [True])
            sim.app.home(Play(sim.app, game))
            sim.run(300)
            assert game.phase == "start" and sim.state()["screen"] == "play"
            advice = _play(sim).tips.view.advice
            worth = coach.points(advice.roll)
            assert 500 < worth < 700
            assert _shown(sim, _t(sim, "tip_turn", worth)), (board, lang)
            # Punktlandung: Ben may take over Anna's 1000 with two dice.
            rules = preset("punktlandung")
            game = Game(rules, [("Anna", ""), ("Ben", "")], ScriptedDice([1, 1, 1, 2, 3]))
            game.seats[0].score, game.seats[1].score = 4000, 5200
            game.seats[0].entered = game.seats[1].entered = True
            game.apply(("roll",))
            game.apply(("bank",))
            tips_store.start_game(sim.app.session, game, [True, True])
            sim.app.home(Play(sim.app, game))
            sim.run(300)  # Ben's hand-over: the offer is chosen there, with its tip
            assert sim.state()["screen"] == "handover"
            assert game.offer and game.phase == "start"
            best = _play(sim).tips.view.advice.best
            key = "tip_take_over" if best == TAKE else "tip_fresh"
            assert _shown(sim, _t(sim, key)), (board, lang, best)
