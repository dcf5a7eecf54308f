"""Starting games, by key presses on both layouts: the question before a
new game replaces a running one, the new-game form's footer per row, the
default names, the seat-order screen's hint, the title's hint, the rematch
on the winner screen, and the last table remembered across a power loss
(a damaged table file loses only the table)."""

import pytest

from firmware import strings
from simulator.host import Sim
from tests.cpython.simdriver import new_game, play_to_end, press, to_row, type_name

BOARDS = ("pico_ssd1306_i2c", "thumby")


def t(lang, key):
    return strings.text(lang, key)


def _sim(tmp_path, board, seed=3, lang="de"):
    sim = Sim(board, str(tmp_path / board / lang), seed)
    if lang != "de":
        sim.app.lang = lang
    return sim


def _title_to(sim, key):
    """From the title: down to the entry `key`, then A."""
    assert sim.state()["screen"] == "title"
    keys = sim.app.top()._entries(sim.app)
    while sim.state()["index"] != keys.index(key):
        press(sim, "DOWN" if sim.state()["index"] < keys.index(key) else "UP")
    press(sim, "A")


def _hint(sim):
    """The hint line of the screen on top, as drawn."""
    return sim.app.top().hint(sim.app)


def _fits(sim, text):
    return sim.app.ui.width(text) <= sim.app.ui.w


def _to_title(sim):
    """From the hand-over: the standings, then 'to the main menu'."""
    assert sim.state()["screen"] == "handover"
    press(sim, "B")
    labels = sim.app.top().labels(sim.app)
    press(sim, *["DOWN"] * labels.index(sim.app.t("to_title")), "A")
    assert sim.state()["screen"] == "title"


def _saved(sim):
    return sim.app.session.load_game(None)[0].to_data()


# ------------------------------------------------------------ point 2


@pytest.mark.parametrize("board", BOARDS)
def test_new_game_asks_before_it_replaces_the_running_game(tmp_path, board):
    sim = _sim(tmp_path, board)
    new_game(sim, "zehntausend", ["", "mutig"])
    _to_title(sim)  # the game stays saved
    running = _saved(sim)
    _title_to(sim, "new_game")
    assert sim.state()["screen"] == "setup"
    to_row(sim, 1)
    press(sim, "LEFT")  # another target: the new game would differ
    to_row(sim, len(sim.app.top().labels(sim.app)) - 1)
    press(sim, "A")
    st = sim.state()
    assert st["screen"] == "confirm"
    assert st["title"] == t("de", "replace_game")
    assert st["lines"][0] == t("de", "running_game")
    assert any("Spieler 1" in line for line in st["lines"][1:])  # who plays in it
    hint = _hint_of_confirm(sim)
    assert hint == t("de", "replace_hint" if board == BOARDS[0] else "replace_hint_small")
    for line in [st["title"], hint] + st["lines"]:
        assert _fits(sim, line), line
    press(sim, "B")  # keep it: back to the form, the game untouched
    assert sim.state()["screen"] == "setup"
    assert _saved(sim) == running
    press(sim, "B")
    assert sim.state()["screen"] == "title"
    assert sim.app.top()._entries(sim.app)[0] == "continue"
    _title_to(sim, "new_game")
    to_row(sim, 1)
    press(sim, "LEFT")
    to_row(sim, len(sim.app.top().labels(sim.app)) - 1)
    press(sim, "A", "A")  # replace it
    assert sim.state()["screen"] in ("handover", "play")
    assert _saved(sim) != running
    assert sim.app.session.load_game(None)[0].rules.target == 9000  # one step below 10000


def _hint_of_confirm(sim):
    top = sim.app.top()
    return sim.app.t(top.hint)


def test_a_new_game_without_a_running_one_asks_nothing(tmp_path):
    sim = _sim(tmp_path, BOARDS[0])
    new_game(sim, "farkle4000", ["", "vorsichtig"])
    play_to_end(sim)
    press(sim, "B")  # the winner screen: to the title; the game is over and gone
    _title_to(sim, "new_game")
    press(sim, "A")
    assert sim.state()["screen"] in ("handover", "play")


# ------------------------------------------------------------ point 7


FOOTERS = [("preset", "form_hint_preset"), ("target", "form_hint_target"),
           ("count", "form_hint_count"), ("person", "form_hint_person"),
           ("bot", "form_hint_bot"), ("order", "nav_hint"), ("tips", "form_hint_tips"),
           ("start", "form_hint_start")]
SMALL = ("form_hint_preset", "form_hint_count", "form_hint_person")


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_form_footer_tells_what_the_keys_do_on_each_row(tmp_path, board, lang):
    sim = _sim(tmp_path, board, lang=lang)
    _title_to(sim, "new_game")
    seen = []
    for _ in range(8):
        hint = _hint(sim)
        assert _fits(sim, hint), hint
        seen.append(hint)
        press(sim, "DOWN")
    want = [t(lang, key + ("_small" if board == "thumby" and key in SMALL else ""))
            for _, key in FOOTERS]
    assert seen == want
    assert len(set(seen)) == len(seen)  # every row says something of its own


@pytest.mark.parametrize("board", BOARDS)
def test_the_keys_do_what_the_footer_says(tmp_path, board):
    sim = _sim(tmp_path, board)
    _title_to(sim, "new_game")
    st = sim.state()
    press(sim, "RIGHT")  # rules
    assert sim.state()["preset"] != st["preset"]
    press(sim, "DOWN", "LEFT")  # target
    assert sim.state()["target"] != sim.app.top()._rules(sim.app).target
    press(sim, "DOWN", "A")  # A on "Plätze" adds a person, RIGHT a computer
    assert len(sim.state()["seats"]) == 3
    assert sim.state()["seats"][2] == [sim.app.t("player_n") % 3, ""]
    press(sim, "RIGHT")
    assert sim.state()["seats"][3] == ["Profi 4", "profi"]
    press(sim, "LEFT")
    press(sim, "DOWN", "DOWN", "RIGHT")  # seat 2: another kind
    assert sim.state()["seats"][1][1] == "meister"
    press(sim, "DOWN")
    press(sim, "DOWN", "DOWN")  # order, tips
    tips = sim.state()["tips"]
    press(sim, "RIGHT")
    assert sim.state()["tips"] != tips


@pytest.mark.parametrize("lang", ["de", "en"])
def test_default_names_match_the_seat_numbers(tmp_path, lang):
    sim = _sim(tmp_path, BOARDS[0], lang=lang)
    sim.app.session.remember_name("Zoe")  # a name saved from an earlier evening
    _title_to(sim, "new_game")
    player = t(lang, "player_n")
    computer = t(lang, "level_profi")
    assert sim.state()["seats"] == [[player % 1, ""], [computer + " 2", "profi"]]
    press(sim, "DOWN", "DOWN", "RIGHT")  # three seats
    press(sim, "DOWN", "DOWN", "RIGHT", "RIGHT")  # seat 2 becomes a person
    assert sim.state()["seats"][1] == [player % 2, ""]
    press(sim, "DOWN", "RIGHT", "RIGHT")  # seat 3 too
    assert sim.state()["seats"][2] == [player % 3, ""]
    press(sim, "UP", "UP", "LEFT")  # seat 1 a computer and back: still "Player 1"
    assert sim.state()["seats"][0][1] == "meister"
    press(sim, "RIGHT")
    assert sim.state()["seats"][0] == [player % 1, ""]
    press(sim, "A")  # A on a person names it: the saved name is offered there
    assert sim.state()["screen"] == "names"
    assert sim.app.top().labels(sim.app)[0] == "Zoe"
    press(sim, "A")
    assert sim.state()["seats"][0] == ["Zoe", ""]


def test_a_default_name_taken_by_a_picked_name_moves_on(tmp_path):
    sim = _sim(tmp_path, BOARDS[0])
    sim.app.session.remember_name("Spieler 2")
    _title_to(sim, "new_game")
    press(sim, "DOWN", "DOWN", "DOWN", "A", "A")  # seat 1 picks "Spieler 2"
    assert sim.state()["seats"][0] == ["Spieler 2", ""]
    press(sim, "DOWN", "RIGHT", "RIGHT")  # seat 2 a person: not a second "Spieler 2"
    assert sim.state()["seats"][1] == ["Spieler 3", ""]


# ------------------------------------------------------------ small error: the title


@pytest.mark.parametrize("board", BOARDS)
def test_the_title_offers_no_back(tmp_path, board):
    sim = _sim(tmp_path, board)
    assert _hint(sim) == t("de", "title_hint")
    assert "B" not in _hint(sim)
    press(sim, "DOWN", "B")  # does nothing, as the hint no longer promises anything
    st = sim.state()
    assert st["screen"] == "title" and st["index"] == 1


# ------------------------------------------------------------ point 9


@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_order_hint_names_the_keys_that_move_a_seat(tmp_path, board, lang):
    sim = _sim(tmp_path, board, lang=lang)
    _title_to(sim, "new_game")
    press(sim, "DOWN", "DOWN", "RIGHT")  # three seats
    to_row(sim, 6)
    press(sim, "A")
    assert sim.state()["screen"] == "order"
    seats = [s[0] for s in sim.app.top().seats]
    assert _hint(sim) == t(lang, "order_hint")
    assert "←→" not in _hint(sim)
    press(sim, "A")  # pick seat 1 up
    held = _hint(sim)
    small = "_small" if board == "thumby" else ""
    assert held == t(lang, "order_held_hint" + small)
    assert held.startswith("↑↓") and _fits(sim, held)
    press(sim, "LEFT", "RIGHT")  # not what moves a seat: nothing changes
    assert [s[0] for s in sim.app.top().seats] == seats
    press(sim, "DOWN", "DOWN")  # carried to the end
    assert [s[0] for s in sim.app.top().seats] == [seats[1], seats[2], seats[0]]
    shown = sim.app.top().texts(sim.app)  # the rows as drawn follow the seat
    assert shown[2].startswith("» 3 " + seats[0]) and shown[0] == "1 " + seats[1]
    press(sim, "A")  # put down
    assert _hint(sim) == t(lang, "order_hint")
    press(sim, "B")
    assert [s[0] for s in sim.state()["seats"]] == [seats[1], seats[2], seats[0]]


# ------------------------------------------------------------ point 8


@pytest.mark.parametrize("board", BOARDS)
def test_a_rematch_is_one_press_on_the_winner_screen(tmp_path, board):
    sim = _sim(tmp_path, board, seed=8)
    new_game(sim, "farkle4000", ["", "", "mutig"])
    assert sim.app.session.load_seating() is not None
    first = sim.app.stack[1].game
    rules, seats = first.rules.encode(), [(s.name, s.kind) for s in first.seats]
    state, _ = play_to_end(sim)
    assert state["screen"] == "winner"
    hint = t("de", "winner_hint")
    assert _fits(sim, hint)
    press(sim, "A")
    assert sim.state()["screen"] in ("handover", "play")
    again = sim.app.stack[1].game
    assert again is not first
    assert again.rules.encode() == rules
    assert [(s.name, s.kind) for s in again.seats] == seats
    assert all(s.score == 0 for s in again.seats)
    assert _saved(sim) == again.to_data()  # saved like any new game


def test_a_rematch_keeps_who_is_still_at_the_table(tmp_path):
    sim = _sim(tmp_path, BOARDS[0], seed=9)
    new_game(sim, "farkle4000", ["", "vorsichtig", "mutig"])
    press(sim, "B")  # the standings: the careful computer leaves
    labels = sim.app.top().labels(sim.app)
    press(sim, *["DOWN"] * labels.index(sim.app.t("menu_leave")), "A")
    press(sim, "DOWN", "A", "A")  # the seat, yes
    game = sim.app.stack[1].game
    assert [s.name for s in game.seats if s.active] == ["Spieler 1", "Mutig 3"]
    for _ in range(50):
        if sim.state()["screen"] == "handover":
            break
        if sim.state()["screen"] == "standings":
            press(sim, "B")
        else:
            sim.run(300)
    play_to_end(sim)
    press(sim, "A")
    again = sim.app.stack[1].game
    assert [(s.name, s.kind) for s in again.seats] == [("Spieler 1", ""), ("Mutig 3", "mutig")]


def test_b_on_the_winner_screen_goes_to_the_title(tmp_path):
    sim = _sim(tmp_path, BOARDS[0], seed=4)
    new_game(sim, "farkle4000", ["", "vorsichtig"])
    play_to_end(sim)
    press(sim, "B")
    assert sim.state()["screen"] == "title"
    assert not sim.app.session.has_game()


@pytest.mark.parametrize("board", BOARDS)
def test_new_game_starts_from_the_last_table_after_a_power_loss(tmp_path, board):
    sim = _sim(tmp_path, board, seed=5)
    _title_to(sim, "new_game")
    press(sim, "RIGHT", "RIGHT", "RIGHT")  # Farkle 4000
    press(sim, "DOWN", "RIGHT")  # target 5000
    press(sim, "DOWN", "RIGHT")  # three seats
    press(sim, "DOWN", "A", "A")  # seat 1: a new name, typed: "B"
    assert sim.state()["screen"] == "typer"
    type_name(sim, "B")
    press(sim, "DOWN", "RIGHT", "RIGHT")  # seat 2: a person ("Spieler 2")
    press(sim, "DOWN", "RIGHT")  # seat 3: the master
    press(sim, "DOWN", "DOWN", "RIGHT")  # tips on for both people
    form = sim.state()
    assert form["preset"] == "farkle4000" and form["target"] == 5000
    assert form["seats"] == [["B", ""], ["Spieler 2", ""], ["Meister 3", "meister"]]
    assert form["tips"] == ["B", "Spieler 2"]
    press(sim, "DOWN", "A")
    assert sim.state()["screen"] in ("handover", "play")
    # The power goes off; the handheld starts again on the same flash.
    sim = Sim(board, str(tmp_path / board / "de"), 6)
    _title_to(sim, "new_game")
    again = sim.state()
    assert again["preset"] == form["preset"] and again["target"] == form["target"]
    assert again["seats"] == form["seats"] and again["tips"] == form["tips"]
    assert again["index"] == len(sim.app.top().labels(sim.app)) - 1  # on "start"
    assert _hint(sim) == t("de", "form_hint_start")


def test_an_unsaved_rule_edit_comes_back_as_the_edit(tmp_path):
    from engine.rules import preset

    sim = _sim(tmp_path, BOARDS[0], seed=5)
    assert sim.app.session.load_seating() is None
    edit = preset("zehntausend").replace(entry=500)
    sim.app.session.save_seating("", edit, [["Anna", ""]], [])
    _title_to(sim, "new_game")
    assert sim.state()["preset"] == "custom"
    assert sim.app.top()._rules(sim.app).encode() == edit.encode()
    press(sim, "A")  # started as it was
    assert sim.app.stack[1].game.rules.encode() == edit.encode()


def test_a_damaged_table_file_loses_only_the_table(tmp_path):
    sim = _sim(tmp_path, BOARDS[0], seed=5)
    _title_to(sim, "settings_title")
    press(sim, "RIGHT", "B")  # the language is the first row: English
    assert sim.app.lang == "en"
    new_game(sim, "farkle4000", ["", "mutig"])
    _to_title(sim)
    folder = tmp_path / BOARDS[0] / "de"
    table = folder / "table"
    assert table.exists()
    data = bytearray(table.read_bytes())
    data[len(data) // 2] ^= 0xFF
    table.write_bytes(bytes(data))
    for extra in ("table.bak", "table.new"):
        if (folder / extra).exists():
            (folder / extra).unlink()
    sim = Sim(BOARDS[0], str(folder), 6)
    assert sim.app.lang == "en"  # the settings are untouched
    assert "Player 1" in sim.app.session.names  # and the names
    assert sim.app.session.has_game()  # and the running game
    _title_to(sim, "new_game")
    st = sim.state()
    assert st["preset"] == "zehntausend" and st["index"] == 0  # the defaults
    assert st["seats"] == [["Player 1", ""], ["Expert 2", "profi"]]



def test_rules_equal_to_a_preset_come_back_as_that_preset(tmp_path):
    from engine.rules import preset

    sim = _sim(tmp_path, BOARDS[0])
    sim.app.session.save_seating("", preset("kneipe"), [["Anna", ""]], [])
    _title_to(sim, "new_game")
    assert sim.state()["preset"] == "kneipe"
    assert sim.app.top().labels(sim.app)[0].endswith(t("de", "preset_kneipe"))
