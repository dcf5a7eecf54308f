"""Write a gallery of every screen in both sizes (`make screenshots`).

    python -m tools.screenshots [--out docs/screens]

Each picture comes from the headless simulator: a fresh Sim per scene,
driven by key presses, or given a scripted game state where chance would
take too long to reach it (a farkle, a takeover offer, the winner).
Writes DIR/BOARD/NAME.png and DIR/index.md.

The page's online screens (web/online.py) are shown on the same Sim, fed
the room server's messages as web/online.js hands them over.
"""

import argparse
import importlib.util
import json
import shutil
import sys
import tempfile
from pathlib import Path

from engine.dice import ScriptedDice
from engine.game import Game
from engine.rules import preset
from simulator.host import Sim

BOARDS = (("pico_ssd1306_i2c", "128x64"), ("thumby", "72x40"))
ROOT = Path(__file__).resolve().parent.parent


def _sim(board, tmp, seed=3):
    folder = tempfile.mkdtemp(dir=tmp)
    return Sim(board, folder, seed)


def _play_with(sim, game):
    """Show `game` on a play screen above the title."""
    from firmware.screens.play import Play

    sim.app.home(Play(sim.app, game))
    sim.run(500)


def _game(rules, names, faces, scores=None):
    game = Game(rules, names, ScriptedDice(faces))
    for i, score in enumerate(scores or []):
        game.seats[i].score = score
        game.seats[i].entered = score > 0
    return game


_PAD = "DOWN,A,RIGHT,UP,A"  # title -> Tafel, target 5000, (UP: the last row) start


def _title_to(sim, key):
    """From the title: the entry with text key `key`, then A."""
    labels = sim.app.top().labels(sim.app)
    sim.keys(",".join(["DOWN"] * labels.index(sim.app.t(key)) + ["A"]))


def _with_stats(sim):
    from firmware.stats import Stats

    st = Stats()
    st.add("Anna", "zehntausend:10000", True, 22, 5, 10450, 2350, False)
    st.add("Anna", "farkle4000:4000", True, 14, 2, 4000, 1000, True)
    st.add("Ben", "zehntausend:10000", True, 21, 3, 10050, 3000, False)
    st.add("*profi", "zehntausend:10000", False, 18, 2, 9100, 2000, False)
    st.save(sim.app.session.store)


def pad_stats_settings_scenes():
    """The score pad, the statistics and the settings."""

    def pad_setup(sim):
        sim.keys("DOWN,A,RIGHT,DOWN,RIGHT,RIGHT,DOWN,LEFT")  # target 5000, hurdle 1000, 500

    def pad(sim):
        sim.keys(_PAD + ",UP,UP,UP,UP,UP,UP,UP,UP,A,A,RIGHT,UP,UP")

    def pad_table(sim):
        sim.keys(_PAD + ",UP,UP,UP,UP,UP,UP,UP,UP,A,A,B,DOWN,DOWN,A")

    def pad_menu(sim):
        sim.keys(_PAD + ",UP,UP,UP,UP,UP,UP,UP,UP,A,A,B")

    def pad_digits(sim):
        sim.keys(_PAD + ",B,DOWN,DOWN,A,UP,RIGHT,UP,UP,A")

    def pad_playoff(sim):
        sim.keys(_PAD + ",RIGHT" * 10 + ",A" + ",RIGHT" * 10 + ",A")

    def stats(sim):
        _with_stats(sim)
        _title_to(sim, "stats_title")

    def stats_name(sim):
        _with_stats(sim)
        _title_to(sim, "stats_title")
        sim.keys("A")

    def settings(sim):
        _title_to(sim, "settings_title")
        sim.keys("DOWN,DOWN,DOWN")

    return (
        ("pad_setup", "Score pad: target, entry hurdle and penalty", pad_setup),
        ("pad", "Score pad", pad),
        ("pad_table", "Score pad: standings and scoring", pad_table),
        ("pad_menu", "Score pad menu", pad_menu),
        ("pad_digits", "Score pad: 120 refused", pad_digits),
        ("pad_playoff", "Score pad: play-off", pad_playoff),
        ("stats", "Statistics", stats),
        ("stats_name", "Statistics of a name", stats_name),
        ("settings", "Settings", settings),
    )


def tips_rules_help_scenes():
    """Tips on the play screen, the rules editor and the help pages."""
    from firmware import tips_store

    def _tips_game(sim, rules, faces, scores=None):
        game = _game(rules, ["Anna", ("Profi 2", "profi")], faces, scores)
        tips_store.start_game(sim.app.session, game, [True, False])
        _play_with(sim, game)
        sim.keys("A,WAIT:500")

    def tips_pick(sim):
        _tips_game(sim, preset("zehntausend"), [1, 1, 5, 2, 3, 6])

    def tips_select(sim):
        _tips_game(sim, preset("zehntausend"), [1, 1, 5, 2, 3, 6])
        sim.keys("A")  # the cursor starts on the first 1: the tip's die is picked

    def tips_bank(sim):
        _tips_game(sim, preset("zehntausend"), [1, 1, 1, 5, 2, 3], [3000, 3000])
        sim.keys("UP")  # the tip's four dice picked: bank, two dice would often farkle

    def tips_cost(sim):
        _tips_game(sim, preset("zehntausend"), [1, 2, 3, 4, 6, 6, 2, 3, 4, 6, 6, 2])
        sim.keys("A,DOWN,DOWN")

    def _lesson(sim, faces):
        """Anna (tips off) against a cautious computer; the lesson started
        from the standings, its first page on the screen."""
        game = _game(preset("zehntausend"), ["Anna", ("Vorsichtig 2", "vorsichtig")], faces)
        tips_store.start_game(sim.app.session, game, [False, False])
        _play_with(sim, game)
        sim.keys("B")
        labels = sim.app.top().labels(sim.app)
        sim.keys(",".join(["DOWN"] * (labels.index(sim.app.t("lesson")) - sim.app.top().index)))
        sim.keys("A")

    def lesson_start(sim):
        _lesson(sim, [1, 1, 5, 2, 3, 6])

    def lesson_step(sim):
        _lesson(sim, [1, 1, 5, 2, 3, 6, 1, 5, 2, 3, 4])
        sim.keys("A,A,WAIT:500,A,UP,UP,WAIT:500")  # page, roll, pick the 1, roll on

    def lesson_done(sim):
        _lesson(sim, [1, 1, 5, 2, 3, 6, 1, 5, 2, 3, 4, 1, 5, 2, 3])
        # page, roll, pick the 1, roll on (1), pick the 1, roll on (2), bank (3)
        sim.keys("A,A,WAIT:500,A,UP,UP,WAIT:500,A,UP,UP,WAIT:500,DOWN,DOWN")

    # New game, A on the rules row: the editor; "exactly the target" on
    # (its fifth row), the finish "exact" changes along.
    def rules_edit(sim):
        sim.keys("A,A,DOWN,DOWN,DOWN,DOWN,RIGHT,A")

    def rules_linked(sim):
        sim.keys("A,A,DOWN,DOWN,DOWN,DOWN,RIGHT")

    def rules_unsaved(sim):
        sim.keys("A,A,DOWN,DOWN,DOWN,DOWN,RIGHT,A,B")

    def help_scoring(sim):
        _title_to(sim, "help")
        sim.keys("DOWN,A")

    def help_rules(sim):
        _title_to(sim, "help")
        sim.keys("RIGHT,RIGHT,RIGHT,RIGHT,DOWN,DOWN,DOWN,A")  # Punktlandung: these rules

    def help_odds(sim):
        _title_to(sim, "help")
        sim.keys("DOWN,DOWN,DOWN,DOWN,A,DOWN,DOWN")

    def help_thumb(sim):
        _title_to(sim, "help")
        sim.keys("DOWN,DOWN,DOWN,DOWN,DOWN,A")

    def help_tactics(sim):
        _title_to(sim, "help")
        sim.keys("DOWN,DOWN,DOWN,DOWN,DOWN,DOWN,A")

    return (
        ("tips_pick", "Tips: the dice to take, in plain words", tips_pick),
        ("tips_select", "Tips: picked, then what to do", tips_select),
        ("tips_bank", "Tips: bank, and why", tips_bank),
        ("tips_cost", "Tips: what a decision cost", tips_cost),
        ("lesson_start", "Tips lesson: its first page (from the standings)", lesson_start),
        ("lesson_step", "Tips lesson: a decision counted", lesson_step),
        ("lesson_done", "Tips lesson: the end page", lesson_done),
        ("rules_edit", "Rules editor", rules_edit),
        ("rules_linked", "Rules editor: linked options changed along", rules_linked),
        ("rules_unsaved", "Rules editor: B with unsaved changes", rules_unsaved),
        ("help_scoring", "Help: scoring", help_scoring),
        ("help_rules", "Help: the rules and decisions", help_rules),
        ("help_odds", "Help: odds", help_odds),
        ("help_thumb", "Help: rules of thumb", help_thumb),
        ("help_tactics", "Help: tactics", help_tactics),
    )


def play_key_scenes():
    """The play screen's questions, the hand-over after a computer's turn,
    a turn taken over, a tie, a game alone and a table of computers."""

    def ask_roll(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben"], [1, 5, 3, 3, 4, 6], [2500, 3100])
        game.apply(("roll",))
        _play_with(sim, game)
        sim.keys("UP")

    def ask_bank(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben"], [1, 5, 3, 3, 4, 6], [2500, 3100])
        game.apply(("roll",))
        _play_with(sim, game)
        sim.keys("DOWN")

    def handover_results(sim):
        game = _game(preset("zehntausend"), [("Anna", ""), ("Profi 2", "profi")],
                     [1, 1, 1, 2, 3, 4] + [2, 3, 4, 6, 6, 2], [2500, 3100])
        _play_with(sim, game)
        sim.keys("A,DOWN,DOWN,WAIT:8000")

    def taken(sim):
        rules = preset("zehntausend").replace(takeover=True)
        game = _game(rules, ["Anna", "Ben"], [1, 1, 1, 2, 3, 4], [2500, 3100])
        _play_with(sim, game)
        sim.keys("A,DOWN,DOWN,UP")

    def tie(sim):
        rules = preset("zehntausend").replace(target=1000)
        game = _game(rules, ["Anna", "Ben"], [1, 1, 1, 2, 3, 4] * 2)
        _play_with(sim, game)
        sim.keys("A,DOWN,DOWN,A,DOWN,DOWN,WAIT:500")

    def solo(sim):
        game = _game(preset("zehntausend"), ["Anna"], [1, 5, 3, 3, 4, 6], [2350])
        game.seats[0].turns = 6
        _play_with(sim, game)
        sim.keys("A")

    def solo_winner(sim):
        rules = preset("zehntausend").replace(target=1000)
        game = _game(rules, ["Anna"], [2, 3, 4, 6, 6, 2] * 3 + [1, 1, 1, 2, 3, 4])
        _play_with(sim, game)
        sim.keys("A,A,A,A,A,A,A,DOWN,DOWN,WAIT:500")

    def computers(sim):
        game = _game(preset("zehntausend"), [("Profi 1", "profi"), ("Mutig 2", "mutig")],
                     [1, 1, 1, 2, 3, 4, 5, 2, 3], [2500, 3100])
        _play_with(sim, game)
        sim.run(700)

    return (
        ("ask_roll", "Rolling on asks first", ask_roll),
        ("ask_bank", "Banking asks first", ask_bank),
        ("handover_results", "Hand-over: what the last turns scored", handover_results),
        ("taken", "A turn taken over: the inherited points", taken),
        ("tie", "A tie and its reason", tie),
        ("solo", "A game alone: the turn count", solo),
        ("solo_winner", "A game alone: turns and record", solo_winner),
        ("computers", "Computers only: B leads out", computers),
    )


def online_module():
    """web/online.py, the page's online screens (web/ is the page's folder,
    no package: loaded from its file once, as module `online`)."""
    if "online" not in sys.modules:
        spec = importlib.util.spec_from_file_location("online", ROOT / "web" / "online.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["online"] = module
        spec.loader.exec_module(module)
    return sys.modules["online"]


ROOM = "Ab3xZq90Lm7K"  # a room code as the server makes them (12 characters)


def _with_network(sim, rooms=()):
    """The Sim as the page on the room server: the title offers Online;
    `rooms` are this browser's rooms ([code, own name])."""
    link = online_module().Link()
    link.rooms = [list(r) for r in rooms]
    sim.app.online = link  # (web/webhost.py sets it before the first step)
    sim.app.version += 1  # the title works its entries out again
    sim.app.redraw()
    sim.step()
    return link


def _seat(name, kind="", creator=False, away=False, standin=False, score=None):
    """One seat of a room's public state (server/room.py)."""
    seat = {"name": name, "kind": kind, "creator": creator, "away": away, "standin": standin}
    if score is not None:
        seat["score"] = score
    return seat


def _in_room(sim, link, seats, game=None, me=0, status=None, rematch=None):
    """This browser in room ROOM on seat `me`: the server's welcome and
    a snapshot of the room (waiting, or playing `game`, or over; then
    `rematch`: the seats that said yes to the next game)."""
    state = {"status": status or ("lobby" if game is None else "playing"), "g": 1,
             "seats": seats}
    if rematch is not None:
        state["rematch"] = rematch
    if game is not None:
        state["game"] = game.to_data()
    link.receive(sim.app, json.dumps({"t": "welcome", "room": ROOM, "seat": me, "n": 5}))
    link.receive(sim.app, json.dumps({"t": "conn", "s": "connected"}))
    link.receive(sim.app, json.dumps({"t": "snap", "n": 5, "s": state}))
    sim.run(300)


def online_scenes():
    """The page's online screens: the menu, the room form, the waiting
    room, playing (this browser's turn, a computer standing in for an
    absent person) and the end of a room's game."""

    def online_menu(sim):
        _with_network(sim, [(ROOM, "Anna")])
        _title_to(sim, "online")

    def online_setup(sim):
        _with_network(sim)
        _title_to(sim, "online")
        sim.keys("A,DOWN,DOWN,DOWN,DOWN")

    def online_room(sim):
        link = _with_network(sim)
        _in_room(sim, link, [_seat("Anna", creator=True), _seat("Bea", away=True), None,
                             _seat("Profi 4", "profi")])

    def online_play(sim):
        link = _with_network(sim)
        game = _game(preset("zehntausend"), ["Anna", "Bea", ("Profi 3", "profi")],
                     [1, 5, 3, 3, 4, 6], [2500, 3100, 1800])
        game.apply(("roll",))
        _in_room(sim, link, [_seat("Anna", creator=True, score=2500), _seat("Bea", score=3100),
                             _seat("Profi 3", "profi", score=1800)], game)

    def online_standin(sim):
        link = _with_network(sim)
        game = _game(preset("zehntausend"), ["Anna", "Bea"], [2, 3, 4, 6, 6, 2, 1, 1, 5, 2, 3, 6],
                     [2500, 3100])
        game.apply(("roll",))  # Anna farkles: Bea's turn, a computer plays it for her
        game.apply(("pass",))
        game.apply(("roll",))
        _in_room(sim, link, [_seat("Anna", creator=True, score=2500),
                             _seat("Bea", away=True, standin=True, score=3100)], game)

    def online_won(sim, **room):
        """Anna wins the room's game by banking past the target."""
        link = _with_network(sim)
        game = _game(preset("zehntausend").replace(finish="immediate"), ["Anna", "Bea"],
                     [1, 1, 1, 1, 5, 2], [9200, 6100])
        game.apply(("roll",))
        game.apply(("keep", (1, 1, 1, 1, 5)))
        game.apply(("bank",))
        _in_room(sim, link, [_seat("Anna", creator=True, score=game.seats[0].score),
                             _seat("Bea", score=6100)], game, status="over", **room)

    def online_winner(sim):
        online_won(sim)

    def online_rematch(sim):
        online_won(sim, rematch=[0])  # Anna has said yes

    return (
        ("online_menu", "Online: open a room, or back into one of this browser's", online_menu),
        ("online_setup", "Online: the room form", online_setup),
        ("online_room", "Online: the waiting room", online_room),
        ("online_play", "Online: this browser's turn", online_play),
        ("online_standin", "Online: a computer plays for an absent person", online_standin),
        ("online_winner", "Online: the end of a room's game", online_winner),
        ("online_rematch", "Online: yes to a rematch, waiting for the others", online_rematch),
    )


def scenes():
    """(name, caption, function(sim)) for every screen worth a picture."""

    def title(sim):
        pass

    def setup(sim):
        sim.keys("A,DOWN,DOWN,DOWN,DOWN")

    def setup_solve(sim):
        # New game on custom rules (three pairs 1000, as the editor hands
        # them over): the Profi's plan is not shipped, the start row says
        # how long it takes to work out.
        sim.keys("A")
        form = sim.app.top()
        form.custom = preset("zehntausend").replace(three_pairs=1000)
        form.preset = form._choice_count() - 1
        form.relabel()
        sim.keys("UP")

    def typer(sim):
        # New game, first seat, "New name…", then P and a on the letter grid:
        # the title line offers "Paul" and the cursor waits on it.
        sim.keys("A,DOWN,DOWN,DOWN,A,A,UP,LEFT,UP,UP,LEFT,A,LEFT,LEFT,LEFT,LEFT,A")

    def handover(sim):
        sim.keys("A,UP,A")

    def play_pick(sim):
        sim.keys("A,UP,A,A,WAIT:500,A")

    def play_all(sim):
        sim.keys("A,UP,A,A,WAIT:500,UP")

    def play_bad(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben"], [1, 5, 3, 3, 4, 6])
        game.apply(("roll",))
        _play_with(sim, game)
        sim.keys("RIGHT,A,RIGHT,A")

    def farkle(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben"], [5, 2, 3, 4, 6, 6, 2, 3, 4, 6, 6],
                     [2500, 3100])
        game.apply(("roll",))
        game.apply(("keep", (5,)))
        game.apply(("roll",))
        _play_with(sim, game)

    def hot(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben"], [1, 1, 1, 5, 5, 5, 2, 3, 4, 6, 2, 2])
        game.apply(("roll",))
        _play_with(sim, game)
        sim.keys("UP,UP,WAIT:500")

    def offer(sim):
        rules = preset("punktlandung")
        game = _game(rules, ["Anna", "Ben"], [1, 1, 1, 2, 3], [4000, 5200])
        game.apply(("roll",))
        game.apply(("bank",))
        _play_with(sim, game)

    def entry(sim):
        game = _game(preset("kneipe"), ["Anna", "Ben"], [1, 5, 2, 2, 3, 4])
        game.apply(("roll",))
        _play_with(sim, game)
        sim.keys("DOWN")

    def computer(sim):
        game = _game(preset("zehntausend"), [("Anna", ""), ("Profi 2", "profi")],
                     [2, 3, 4, 6, 6, 2, 1, 1, 5, 2, 3, 6, 4, 4, 4, 2, 3, 6], [1200, 900])
        game.apply(("roll",))
        game.apply(("pass",))
        game.apply(("roll",))
        _play_with(sim, game)
        sim.run(700)

    def standings(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben", "Cleo", "Dora"], [1] * 6,
                     [4550, 6100, 3900, 7250])
        _play_with(sim, game)
        sim.keys("B")

    def join(sim):
        standings(sim)
        labels = sim.app.top().labels(sim.app)
        sim.keys(",".join(["DOWN"] * labels.index(sim.app.t("menu_join")) + ["A"]))

    def final(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben", "Cleo"], [1, 1, 1, 1, 5, 2],
                     [9200, 6100, 7400])
        game.apply(("roll",))
        game.apply(("keep", (1, 1, 1, 1, 5)))
        game.apply(("bank",))
        _play_with(sim, game)

    def exact(sim):
        # An exact target: 9650 banked, 250 on the table, the 1 picked lands exactly.
        rules = preset("zehntausend").replace(exact=True, finish="exact")
        game = _game(rules, ["Anna", "Ben"], [1, 1, 5, 2, 3, 6, 1, 4, 6], [9650, 8200])
        game.apply(("roll",))
        game.apply(("keep", (1, 1, 5)))
        game.apply(("roll",))
        _play_with(sim, game)
        sim.keys("A")

    def solving(sim):
        rules = preset("zehntausend").replace(target=3000, three_pairs=1000)  # custom scoring
        game = _game(rules, [("Profi 1", "profi"), ("Anna", "")], [2, 3, 4, 6, 6, 2])
        from firmware.screens.play import Play

        sim.app.home(Play(sim.app, game))
        for _ in range(60):
            sim.step(20)

    def _won(sim, names, scores):
        """Anna banks 2050 past the target: the winner screen."""
        game = _game(preset("zehntausend").replace(finish="immediate"), names,
                     [1, 1, 1, 1, 5, 2], scores)
        game.apply(("roll",))
        game.apply(("keep", (1, 1, 1, 1, 5)))
        game.apply(("bank",))
        _play_with(sim, game)

    def winner(sim):
        _won(sim, ["Anna", "Ben"], [9200, 6100])

    def rematch(sim):
        _won(sim, ["Anna", "Ben", ("Profi 3", "profi")], [9200, 6100, 8450])

    def replace_game(sim):
        game = _game(preset("zehntausend"), ["Anna", "Ben"], [1] * 6, [4550, 6100])
        sim.app.session.save_game(game)  # as after its first decision
        sim.app.home()
        _title_to(sim, "new_game")
        sim.keys("UP,A")  # the form's last row starts the game: the question

    return (
        ("title", "Title", title),
        ("setup", "New game", setup),
        ("setup_solve", "New game: custom rules, the plan still to work out", setup_solve),
        ("typer", "Typing a name", typer),
        ("handover", "Hand-over", handover),
        ("play_pick", "Picking dice", play_pick),
        ("play_all", "All scoring dice", play_all),
        ("play_bad", "A die that does not score", play_bad),
        ("hot", "Hot dice", hot),
        ("entry", "Entry hurdle refused", entry),
        ("farkle", "Farkle", farkle),
        ("offer", "Takeover offer", offer),
        ("computer", "A computer's turn", computer),
        ("standings", "Standings", standings),
        ("join", "Someone joins a running game", join),
        ("final", "Final round", final),
        ("exact", "Exact target: the pick lands exactly", exact),
        ("winner", "Winner", winner),
        ("rematch", "Winner: A starts a rematch", rematch),
        ("replace_game", "New game while a game is running", replace_game),
        ("solving", "Working out a plan for custom rules", solving),
    ) + play_key_scenes() + pad_stats_settings_scenes() + tips_rules_help_scenes() + \
        online_scenes()


def main(argv=None):
    """Write every picture and the index page."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "docs" / "screens"))
    args = p.parse_args(argv)
    out = Path(args.out)
    tmp = tempfile.mkdtemp()
    index = ["# Screens", "", "Written by `make screenshots` (tools/screenshots.py).", "",
             "| screen | 128x64 | 72x40 |", "| --- | --- | --- |"]
    try:
        for name, caption, scene in scenes():
            cells = []
            for board, size in BOARDS:
                sim = _sim(board, tmp)
                scene(sim)
                target = out / board / (name + ".png")
                target.parent.mkdir(parents=True, exist_ok=True)
                sim.png(str(target), 3 if size == "128x64" else 4)
                cells.append("![%s %s](%s/%s.png)" % (caption, size, board, name))
            index.append("| %s | %s |" % (caption, " | ".join(cells)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    (out / "index.md").write_text("\n".join(index) + "\n")
    print("wrote %d screens for %d boards to %s" % (len(scenes()), len(BOARDS), out))


if __name__ == "__main__":
    main()
