"""The page's online screens (web/online.py) in the headless simulator:
the title's Online entry only with a network, the waiting room from a
server state, the play screen on a mirror of the server's game that
sends this browser's actions and applies nobody's locally."""

import json

from engine.dice import ScriptedDice
from engine.game import Game
from engine.rules import preset
from simulator.host import Sim
from tools.screenshots import online_module

online = online_module()


def sim_with_link(tmp_path, board="pico_ssd1306_i2c"):
    sim = Sim(board, data_dir=str(tmp_path), seed=3)
    link = online.Link()
    sim.app.online = link  # (web/webhost.py sets it before the first step)
    sim.app.version += 1  # the title works its entries out again
    sim.step()
    return sim, link


def seats(*names):
    return [None if n is None else {"name": n, "kind": "", "creator": i == 0, "away": False,
                                    "standin": False} for i, n in enumerate(names)]


def test_the_title_offers_online_only_with_a_network(tmp_path):
    sim = Sim(data_dir=str(tmp_path / "a"))
    assert "online" not in sim.app.top()._entries(sim.app)
    sim, link = sim_with_link(tmp_path / "b")
    assert "online" in sim.app.top()._entries(sim.app)


def test_the_waiting_room_shows_seats_and_the_creator_starts(tmp_path):
    sim, link = sim_with_link(tmp_path)
    link.receive(sim.app, json.dumps({"t": "welcome", "room": "abcdefghijkl", "seat": 0, "n": 1}))
    link.receive(sim.app, json.dumps({"t": "snap", "n": 1, "s": {
        "status": "lobby", "g": 0, "seats": seats("Ann", None)}}))
    room = sim.app.top()
    assert room.name == "room"
    labels = room.labels(sim.app)
    assert labels[0].startswith("1 Ann (") and labels[1] == "2 frei", labels
    assert room.title(sim.app) == "Raum abcdefghijkl"
    sim.app.top().index = labels.index("Starten")
    sim.press("A")
    assert json.loads(link.take()) == {"do": "start"}
    link.receive(sim.app, json.dumps({"t": "no", "text": "Es braucht mindestens 2 Menschen"}))
    page = sim.app.top()  # a page of its own, never menu rows (a reader takes a row for a choice)
    assert page.name == "message", page.name
    assert " ".join(page.text_lines) == "Es braucht mindestens 2 Menschen"  # wrapped to the width
    sim.press("A")
    assert sim.app.top() is room and "Es" not in " ".join(room.labels(sim.app))


def test_the_small_layout_titles_the_room_with_its_code(tmp_path):
    sim, link = sim_with_link(tmp_path, "thumby")
    link.receive(sim.app, json.dumps({"t": "welcome", "room": "abcdefghijkl", "seat": 1, "n": 1}))
    link.receive(sim.app, json.dumps({"t": "snap", "n": 1, "s": {
        "status": "lobby", "g": 0, "seats": seats("Ann", "Bea")}}))
    assert sim.app.top().title(sim.app) == "abcdefghijkl"


def test_the_play_screen_sends_its_own_turn_and_mirrors_the_others(tmp_path):
    sim, link = sim_with_link(tmp_path)
    server_game = Game(preset("zehntausend"), [("Ann", ""), ("Bea", "")],
                       ScriptedDice([1, 5, 2, 3, 4, 6]))
    link.receive(sim.app, json.dumps({"t": "welcome", "room": "abcdefghijkl", "seat": 1, "n": 2}))
    state = {"status": "playing", "g": 1, "seats": seats("Ann", "Bea"),
             "game": server_game.to_data()}
    link.receive(sim.app, json.dumps({"t": "snap", "n": 2, "s": state}))
    play = sim.app.top()
    assert play.name == "play" and not play.person_to_move()  # Ann's turn
    assert play._hint(sim.app) == "B Tabelle"  # nothing to hurry: the server plays its pace
    sim.press("A")  # on another's turn nothing is sent, nothing rolled
    assert link.take() == "" and not play.game.roll

    before = server_game.events_total
    server_game.apply(("roll",))
    event = {"k": "act", "seat": 0, "by": "p", "a": ["roll"],
             "ev": [list(e) for e in server_game.events[-(server_game.events_total - before):]]}
    link.receive(sim.app, json.dumps({"t": "ev", "n": 3, "e": event,
                                      "s": dict(state, game=server_game.to_data())}))
    assert list(play.game.roll) == [1, 5, 2, 3, 4, 6]  # the server's dice

    server_game.apply(("keep", (1, 5)))
    server_game.apply(("bank",))  # Bea's turn
    link.receive(sim.app, json.dumps({"t": "ev", "n": 4, "e": {"k": "act", "seat": 0, "ev": []},
                                      "s": dict(state, game=server_game.to_data())}))
    play = sim.app.find("play")
    assert play.person_to_move()
    while sim.app.top().name != "play":  # a message over the play screen
        sim.press("A")
    sim.press("A")  # roll: asked of the server, not rolled here
    assert json.loads(link.take()) == {"do": "act", "a": ["roll"]}
    assert play.game.phase == "start" and not play.game.roll


def test_a_refusal_over_the_play_screen_is_a_page_of_its_own(tmp_path):
    sim, link = sim_with_link(tmp_path, "thumby")
    game = Game(preset("zehntausend"), [("Ann", ""), ("Bea", "")], ScriptedDice([1] * 6))
    link.receive(sim.app, json.dumps({"t": "welcome", "room": "abcdefghijkl", "seat": 0, "n": 2}))
    link.receive(sim.app, json.dumps({"t": "snap", "n": 2, "s": {
        "status": "playing", "g": 1, "seats": seats("Ann", "Bea"), "game": game.to_data()}}))
    text = "Wer den Raum eröffnet hat, bleibt bis zum Start"
    link.receive(sim.app, json.dumps({"t": "no", "text": text}))
    page = sim.app.top()
    assert page.name == "message" and len(page.text_lines) > 3  # the small screen scrolls it
    assert " ".join(page.text_lines) == text
    assert all(sim.app.ui.width(line) <= sim.app.ui.w - 1 for line in page.text_lines)
    sim.press("A")
    assert sim.app.top().name == "play"


def _my_turn_with_dice(tmp_path, tips, seat=0):
    """A room's game where Ann (seat 0) has rolled 1 2 3 4 4 6, seen from
    the browser of `seat`, which asked for tips or not."""
    sim, link = sim_with_link(tmp_path)
    game = Game(preset("zehntausend"), [("Ann", ""), ("Bea", "")],
                ScriptedDice([1, 2, 3, 4, 4, 6]))
    game.apply(("roll",))
    link.receive(sim.app, json.dumps({"t": "welcome", "room": "abcdefghijkl", "seat": seat,
                                      "n": 2, "tips": tips}))
    link.receive(sim.app, json.dumps({"t": "snap", "n": 2, "s": {
        "status": "playing", "g": 1, "seats": seats("Ann", "Bea"), "game": game.to_data()}}))
    for _ in range(5):  # the coach answers in the pass after the frame
        sim.step()
    return sim, link, sim.app.find("play")


def test_tips_show_for_the_seat_that_asked_on_its_own_device_only(tmp_path):
    sim, link, play = _my_turn_with_dice(tmp_path / "a", True)
    assert play.tips.on(0) and not play.tips.on(1)
    view = play.tips.view
    assert view is not None and view.marks, "no tip mark under a die"
    assert [play.game.roll[i] for i in view.marks] == [1]  # the one die that scores
    assert view.move(sim.app, play), "no tip line"  # the move in words, below the dice
    # the same table without tips, and Bea's browser (tips on, but not her turn)
    _, _, plain = _my_turn_with_dice(tmp_path / "b", False)
    assert plain.tips.view is None and not plain.tips.on(0)
    _, _, other = _my_turn_with_dice(tmp_path / "c", True, seat=1)
    assert other.tips.on(1) and not other.tips.active(other) and other.tips.view is None
    # a room's tips never touch the local game's tips file
    assert not sim.app.session.store.fs.exists("tips")


def test_the_creators_tips_go_with_the_create_request(tmp_path):
    sim, link = sim_with_link(tmp_path)
    menu = online.OnlineMenu(link)
    sim.app.push(menu)
    menu.choose(sim.app, 0)
    form = sim.app.top()
    assert form.name == "online_setup"
    form.tips = [form.seats[0][0]]  # the tips row: the first person
    form._start(sim.app)
    asked = json.loads(link.take())
    assert asked["do"] == "create" and asked["tips"] is True, asked


def test_the_creators_name_typed_in_the_page_goes_into_the_room_form(tmp_path):
    sim, link = sim_with_link(tmp_path)
    sim.app.push(online.OnlineMenu(link))
    assert json.loads(link.take(sim.app) or "{}").get("do") != "name_field"
    sim.app.top().choose(sim.app, 0)
    asked = json.loads(link.take(sim.app))
    assert asked == {"do": "name_field", "on": True, "name": "Spieler 1"}, asked
    form = sim.app.top()
    form.tips = [form.seats[0][0]]
    link.receive(sim.app, json.dumps({"t": "name", "name": "  Anna   Lena "}))
    assert form.seats[0][0] == "Anna Lena" and form.tips == ["Anna Lena"]
    assert "1 Anna Lena" in form.labels(sim.app)
    link.receive(sim.app, json.dumps({"t": "name", "name": "Spieler 2"}))  # another seat's
    assert form.seats[0][0] == "Anna Lena"
    link.receive(sim.app, json.dumps({"t": "name", "name": ""}))  # emptied: the default
    assert form.seats[0][0] == "Spieler 1"
    form._start(sim.app)
    sim.app.home()
    out = [json.loads(line) for line in link.take(sim.app).split("\n")]
    assert out[0]["do"] == "create" and out[-1] == {"do": "name_field", "on": False, "name": ""}


def test_the_room_form_shows_two_people_and_never_adds_a_seat(tmp_path):
    sim, link = sim_with_link(tmp_path)
    sim.app.push(online.OnlineMenu(link))
    sim.app.top().choose(sim.app, 0)
    form = sim.app.top()
    assert [kind for _, kind in form.seats] == ["", ""], form.seats  # you and a second person
    assert "Plätze: 2" in form.labels(sim.app)
    form._start(sim.app)
    asked = [json.loads(line) for line in link.take().split("\n")]
    assert asked[-1]["people"] == 2 and asked[-1]["computers"] == [], asked
    # a form set to one person and a computer is refused here, in words, and nothing is sent
    sim.app.home()
    sim.app.push(online.OnlineMenu(link))
    sim.app.top().choose(sim.app, 0)
    form = sim.app.top()
    form.seats[1] = ["Profi 2", "profi"]
    link.take()
    form._start(sim.app)
    assert link.take() == "" and sim.app.top().name == "message"
    assert "mindestens 2 Menschen" in " ".join(sim.app.top().text_lines)


def test_offline_the_title_offers_no_online_play(tmp_path):
    sim, link = sim_with_link(tmp_path)
    assert "online" in sim.app.top()._entries(sim.app)
    link.receive(sim.app, json.dumps({"t": "net", "up": False}))
    sim.step()
    assert "online" not in sim.app.top()._entries(sim.app)
    link.receive(sim.app, json.dumps({"t": "net", "up": True}))
    sim.step()
    assert "online" in sim.app.top()._entries(sim.app)


def test_the_title_offers_a_running_room_first(tmp_path):
    # (web/online.js looks the browser's rooms up and says which one runs)
    sim, link = sim_with_link(tmp_path)
    title = sim.app.top()
    assert title._entries(sim.app)[0] != "back_room"
    link.receive(sim.app, json.dumps({"t": "rooms", "rooms": [["abcdefghijkl", "Ann"]],
                                      "live": "abcdefghijkl"}))
    sim.step()
    assert title._entries(sim.app)[0] == "back_room"
    assert title.labels(sim.app)[0] == "Zurück in den Raum" and title.index == 0
    sim.press("A")  # one press back in
    assert json.loads(link.take()) == {"do": "enter", "code": "abcdefghijkl"}
    link.receive(sim.app, json.dumps({"t": "rooms", "rooms": [], "live": None}))
    sim.step()
    assert "back_room" not in title._entries(sim.app)


def test_the_play_screen_counts_down_to_the_stand_in(tmp_path):
    for board in ("pico_ssd1306_i2c", "thumby"):
        sim, link = sim_with_link(tmp_path / board, board)
        game = Game(preset("zehntausend"), [("Ann", ""), ("Bea", "")], ScriptedDice([1, 5, 2, 3]))
        link.receive(sim.app, json.dumps({"t": "welcome", "room": "abcdefghijkl", "seat": 1,
                                          "n": 2}))
        away = seats("Ann", "Bea")  # (Ann to move, this browser is Bea's)
        state = {"status": "playing", "g": 1, "cur": 0, "seats": away, "game": game.to_data(),
                 "standin_at": None}
        link.receive(sim.app, json.dumps({"t": "snap", "n": 2, "s": state, "now": 1000.0}))
        play = sim.app.top()
        assert play.away_text(sim.app) == ""
        away[0]["away"], away[0]["gone"] = True, 988.0
        state["standin_at"] = 1018.0
        link.receive(sim.app, json.dumps({"t": "snap", "n": 3, "s": state, "now": 1000.0}))
        assert play.away_text(sim.app) == "weg 12s, PC in 18s"
        link.receive(sim.app, json.dumps({"t": "clock", "now": 1001.0}))
        sim.step()
        assert play.away_shown == "weg 13s, PC in 17s"  # drawn: the clock redrew the screen
        link.receive(sim.app, json.dumps({"t": "clock", "now": 1019.0}))
        assert play.away_text(sim.app) == "weg 31s, PC gleich"
        away[0]["standin"] = True
        state["standin_at"] = None
        link.receive(sim.app, json.dumps({"t": "snap", "n": 4, "s": state, "now": 1019.0}))
        sim.step()
        assert play.away_shown == "Computer spielt"


def ann_to_move(tmp_path, me):
    """A room's play screen with Ann to move; this browser's seat `me`:
    (sim, link, the game mirrored, the play screen)."""
    sim, link = sim_with_link(tmp_path)
    game = Game(preset("zehntausend"), [("Ann", ""), ("Bea", "")], ScriptedDice([1, 5, 2, 3]))
    link.receive(sim.app, json.dumps({"t": "welcome", "room": "abcdefghijkl", "seat": me, "n": 2}))
    link.receive(sim.app, json.dumps({"t": "snap", "n": 2, "s": {
        "status": "playing", "g": 1, "cur": 0, "seats": seats("Ann", "Bea"),
        "game": game.to_data()}}))
    return sim, link, game, sim.app.top()


def test_hot_dice_are_said_to_the_turn_that_has_them_only(tmp_path):
    sim, link, game, play = ann_to_move(tmp_path, 1)
    play.receive(sim.app, game, {"k": "act", "ev": [["keep", 0, [1, 1, 1, 5, 5, 5], 1500],
                                                    ["hot", 0]]})
    assert play.msg == sim.app.t("hot")
    play.receive(sim.app, game, {"k": "act", "ev": [["bank", 0, 1500, 1500], ["turn", 1]]})
    assert play.msg == ""  # Bea's turn begins: Ann's hot dice are not hers


def test_a_tab_whose_seat_plays_elsewhere_offers_no_move(tmp_path):
    sim, link, _, play = ann_to_move(tmp_path, 0)
    assert play.person_to_move() and play._hint(sim.app) != "B Tabelle"
    link.receive(sim.app, json.dumps({"t": "conn", "s": "other"}))
    assert not play.person_to_move() and play._hint(sim.app) == "B Tabelle"
    sim.press("A")
    assert link.take() == ""  # nothing sent for a seat this tab no longer plays
