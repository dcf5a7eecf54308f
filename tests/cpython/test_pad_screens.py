"""The score pad ("Tafel") through the headless simulator, by key presses.

An evening with a join, a leave, a Nichts, a penalty by hand, an undo, a
refused 120 and a play-off; fast stepping; resuming after a restart and
after power cuts at random steps and inside a save.
"""

import random

from engine.scorepad import ScorePad
from firmware import strings
from firmware.stats import Stats
from simulator.host import Sim
from tests.cpython.simdriver import Cut, CutSim, press
from tools.fakes.memfs import MemFS, PowerCut

BOARD = "pico_ssd1306_i2c"


def de(key):
    return strings.text("de", key)


def title_to(sim, key):
    """From the title: highlight the entry with text key `key` and press A."""
    top = sim.app.top()
    assert top.name == "title"
    labels = top.labels(sim.app)
    while labels[sim.state()["index"]] != sim.app.t(key):
        press(sim, "DOWN")
    press(sim, "A")


def menu_to(sim, prefix):
    """In a menu: move to the first entry starting with `prefix`, press A."""
    top = sim.app.top()
    labels = top.labels(sim.app)
    target = [i for i, s in enumerate(labels) if s.startswith(prefix)]
    assert target, (prefix, labels)
    while sim.state()["index"] != target[0]:
        press(sim, "DOWN")
    press(sim, "A")


def start_pad(sim, target=5000, names=2):
    """Title -> Tafel -> the form (target, seat count; the hurdle 350 and
    the penalty 1000 as they come) -> start."""
    title_to(sim, "pad_title")
    assert sim.state()["screen"] == "pad_setup"
    if target != 10000:
        press(sim, "RIGHT")
    press(sim, "DOWN", "DOWN", "DOWN")  # past the hurdle and the penalty to the seat count
    press(sim, *["RIGHT" if names > 2 else "LEFT"] * abs(names - 2))
    press(sim, *["DOWN"] * (names + 1))
    press(sim, "A")
    assert sim.state()["screen"] == "pad"


def enter(sim, points):
    """The points with RIGHT (500s) and UP (50s), then A."""
    assert sim.state()["screen"] == "pad" and sim.state()["value"] == 0
    press(sim, *["RIGHT"] * (points // 500))
    press(sim, *["UP"] * (points % 500 // 50))
    assert sim.state()["value"] == points
    press(sim, "A")


def pad_menu(sim, prefix):
    """Pad screen -> menu (B) -> the entry."""
    press(sim, "B")
    assert sim.state()["screen"] == "pad_menu"
    menu_to(sim, prefix)


def type_name(sim, name):
    """On the Typer: type `name` and take it (simdriver.type_name)."""
    from tests.cpython.simdriver import type_name as typed

    typed(sim, name)


def pad_of(sim):
    for screen in sim.app.stack:
        if screen.name == "pad":
            return screen.pad
    return None


def test_an_evening_with_everything(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    start_pad(sim, 5000)
    pad = pad_of(sim)
    assert pad.target == 5000 and [s.name for s in pad.seats] == ["Spieler 1", "Spieler 2"]
    enter(sim, 400)
    assert sim.state()["scores"] == [400, 0]
    # Nichts: A at 0 points
    press(sim, "A")
    st = sim.state()
    assert st["scores"] == [400, 0] and pad.seats[1].nothing == 1
    assert st["message"] == de("pad_nothing_n") % ("Spieler 2", 1)
    assert st["round"] == 2
    # a join: menu, new name typed
    pad_menu(sim, de("menu_join")[:5])
    assert sim.state()["screen"] == "names"
    press(sim, "A")  # the only entry: new name
    type_name(sim, "Cleo")
    st = sim.state()
    assert st["screen"] == "pad" and st["message"] == de("seat_joined") % "Cleo"
    assert [s.name for s in pad.seats] == ["Spieler 1", "Spieler 2", "Cleo"]
    # digits: 120 refused with both neighbours, then 150
    pad_menu(sim, de("pad_menu_digits"))
    assert sim.state()["screen"] == "pad_digits"
    press(sim, "UP", "RIGHT", "UP", "UP")
    assert sim.state()["value"] == 120
    press(sim, "A")
    st = sim.state()
    assert st["screen"] == "pad_digits" and st["message"] == de("pad_err_step") % (120, 100, 150)
    assert pad.seats[0].score == 400  # nothing entered
    press(sim, "UP", "UP", "UP", "A")
    assert sim.state()["screen"] == "pad" and pad.seats[0].score == 550
    enter(sim, 500)  # Spieler 2 gets in
    enter(sim, 600)  # Cleo
    assert sim.state()["scores"] == [550, 500, 600] and pad.round_no == 3
    # a penalty by hand: -200 for Spieler 2
    pad_menu(sim, de("pad_menu_adjust"))
    assert sim.state()["screen"] == "seat_pick"
    press(sim, "DOWN", "A")
    assert sim.state()["screen"] == "pad_adjust"
    press(sim, "DOWN", "DOWN", "DOWN", "DOWN", "A")
    st = sim.state()
    assert st["screen"] == "pad" and st["scores"] == [550, 300, 600]
    assert st["message"] == "Spieler 2 -200 = 300"
    # undo takes the penalty back, naming it
    press(sim, "B")  # the menu: its first entry takes it back, naming it
    assert sim.app.top().labels(sim.app)[0].endswith("2 -200")
    press(sim, "A")
    st = sim.state()
    assert st["scores"] == [550, 500, 600]
    assert st["message"] == de("pad_undone") % "Spieler 2 -200"
    # Cleo leaves
    pad_menu(sim, de("menu_leave"))
    press(sim, "DOWN", "DOWN", "A")
    assert sim.state()["screen"] == "confirm"  # asked first (issue 34)
    press(sim, "A")
    st = sim.state()
    assert st["message"] == de("seat_left") % "Cleo" and not pad.seats[2].active
    # both reach 5000 in the same round: a tie, so a play-off
    enter(sim, 4450)
    from firmware.screens.lines import need_of

    # the final round: the status names it and what the next seat needs (issue 34)
    assert sim.app.top().status(sim.app) == de("pad_final_need") % need_of(pad, pad.current)
    pad_menu(sim, de("menu_join")[:5])  # nobody joins now: said at once
    assert sim.state()["screen"] == "pad" and sim.state()["message"] == de("pad_err_final")
    enter(sim, 4500)
    st = sim.state()
    assert st["scores"][:2] == [5000, 5000] and st["message"] == de("playoff")
    assert pad.playoff == [0, 1]
    sim.png(str(tmp_path / "playoff.png"))
    press(sim, "A")  # Nichts for Spieler 1
    enter(sim, 50)
    st = sim.state()
    assert st["screen"] == "pad_winner" and st["winner"] == 1
    # B on the winner screen takes the last entry back, asked first ...
    press(sim, "B")
    assert sim.state()["screen"] == "confirm"
    press(sim, "A")
    assert sim.state()["screen"] == "pad" and not pad.over
    enter(sim, 100)
    assert sim.state()["screen"] == "pad_winner"
    # ... A ends the evening: the save is gone, the statistics count it
    press(sim, "A")
    assert sim.state()["screen"] == "title"
    assert sim.app.t("pad_continue") not in sim.app.top().labels(sim.app)
    st = Stats.load(sim.app.session.store)[0]
    assert st.person("Spieler 2")["wins"] == 1 and st.person("Spieler 2")["best_turn"] == 4500
    assert st.person("Cleo")["games"] == 1 and st.person("Spieler 1")["farkles"] == 1
    assert st.rows[0][1] == "tafel:5000"


def test_held_buttons_step_faster_and_left_right_by_500(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    start_pad(sim, 10000)
    sim.press("UP", 1200)  # ~7 repeats: 50s then 100s
    v1 = sim.state()["value"]
    sim.press("UP", 3000)  # the steps grow to 500
    v2 = sim.state()["value"]
    assert 350 <= v1 <= 1000 and v2 - v1 >= 4000 and v2 % 50 == 0
    press(sim, "LEFT")
    assert sim.state()["value"] == v2 - 500
    sim.press("DOWN", 20000)
    assert sim.state()["value"] == 0  # never below 0
    press(sim, "RIGHT", "RIGHT", "DOWN")
    assert sim.state()["value"] == 950


def test_entry_hurdle_and_the_base_table(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    start_pad(sim, 10000)
    press(sim, "UP", "UP", "UP")
    assert sim.app.top().status(sim.app) == de("why_entry") % 350  # said before A
    press(sim, "A")
    st = sim.state()
    assert st["scores"] == [0, 0] and st["message"] == de("pad_hurdle") % 350
    assert st["current"] == 1
    press(sim, "B")  # the menu; its overview: the standings next to the base table
    menu_to(sim, de("pad_menu_overview"))
    assert sim.state()["screen"] == "pad_table"
    rows = "\n".join(sim.rows())
    assert rows.count("#") > 600  # standings and table drawn
    press(sim, "B")
    assert sim.state()["screen"] == "pad"


def test_english_and_the_thumby(tmp_path):
    sim = Sim("thumby", str(tmp_path), 1)
    title_to(sim, "settings_title")
    press(sim, "A")  # language row: English
    press(sim, "B")
    start_pad(sim, 10000, 3)
    assert sim.state()["screen"] == "pad"
    press(sim, "UP", "UP", "UP", "A")
    assert sim.state()["message"] == strings.text("en", "pad_hurdle") % 350
    press(sim, "B")
    menu_to(sim, strings.text("en", "pad_menu_overview"))
    for _ in range(8):
        press(sim, "DOWN")  # scroll down to the table
    assert sim.app.top().first > 0
    press(sim, "A")
    assert sim.state()["screen"] == "pad_menu"


def test_restart_resumes_the_same_pad(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    start_pad(sim, 10000, 3)
    enter(sim, 500)
    press(sim, "A")  # Nichts
    before = pad_of(sim).to_data()
    again = Sim(BOARD, str(tmp_path), 2)
    labels = again.app.top().labels(again.app)
    assert labels[labels.index(again.app.t("new_game")) + 1] == again.app.t("pad_continue")
    title_to(again, "pad_continue")
    assert again.state()["screen"] == "pad"
    assert pad_of(again).to_data() == before
    # a new pad asks before it replaces the saved one
    press(again, "B")
    menu_to(again, again.app.t("to_title"))
    title_to(again, "pad_title")
    assert again.state()["screen"] == "confirm"
    press(again, "B")
    assert again.state()["screen"] == "title"
    title_to(again, "pad_title")
    press(again, "A")
    assert again.state()["screen"] == "pad_setup"


def evening_step(sim, rng):
    """One random but sensible press of an evening at the pad."""
    st = sim.state()
    screen = st["screen"]
    if screen == "title":
        while sim.state()["index"]:
            press(sim, "UP")
        labels = sim.app.top().labels(sim.app)
        title_to(sim, "pad_continue" if sim.app.t("pad_continue") in labels else "pad_title")
    elif screen == "pad_setup":
        press(sim, "UP", "A")  # the start row
    elif screen in ("pad_winner", "message", "confirm"):
        press(sim, "A")
    elif screen == "pad":
        r = rng.random()
        if r < 0.1:
            press(sim, "B")
            menu_to(sim, sim.app.t("pad_menu_undo")[:4] if pad_of(sim).can_undo else
                    sim.app.t("pad_menu_nothing")[:4])
        else:
            press(sim, *["RIGHT"] * rng.randint(0, 3), *["UP"] * rng.randint(0, 9), "A")
    else:
        press(sim, "B")


def test_power_cut_during_an_evening(tmp_path):
    rng = random.Random(5)
    sim = CutSim(BOARD, str(tmp_path), 1)
    cuts = resumed = 0
    while cuts < 12:
        sim.steps_left = rng.randint(1, 400)
        try:
            while True:
                evening_step(sim, rng)
        except Cut:
            cuts += 1
            pad = pad_of(sim)
            before = None if pad is None or pad.over else pad.to_data()
            sim = CutSim(BOARD, str(tmp_path), rng.randrange(1 << 30))
            if before is None:
                continue
            title_to(sim, "pad_continue")
            assert pad_of(sim).to_data() == before
            resumed += 1
    assert resumed >= 6, resumed


def test_power_cut_inside_a_pad_save(mem_sim):
    fs = MemFS()
    sim = mem_sim(fs, 1)
    start_pad(sim, 10000)
    enter(sim, 500)
    files = dict(fs.files)
    before = pad_of(sim).to_data()

    def entry(cut=None, torn=None):
        disk = MemFS(files)
        s = mem_sim(disk, 2)
        title_to(s, "pad_continue")
        assert pad_of(s).to_data() == before
        press(s, "RIGHT")
        start = disk.ops
        if cut is not None:
            disk.power_cut_after(cut, torn)
        try:
            press(s, "A")
        except PowerCut:
            return disk, None, None
        return disk, pad_of(s).to_data(), disk.ops - start

    _, after, ops = entry()
    assert after != before and ops >= 4
    seen = set()
    for n in range(ops + 1):
        for torn in (None, 0, 7):
            disk, _, _ = entry(n, torn)
            disk.power_on()
            again = mem_sim(disk, 3)
            title_to(again, "pad_continue")
            loaded = pad_of(again).to_data()
            assert loaded in (before, after)
            seen.add(loaded == after)
    assert seen == {True, False}


def test_a_damaged_pad_save_is_reported(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    start_pad(sim, 10000)
    enter(sim, 500)
    enter(sim, 400)
    for name in ("pad", "pad.bak"):
        path = tmp_path / name
        path.write_bytes(path.read_bytes()[:9])
    again = Sim(BOARD, str(tmp_path), 2)
    title_to(again, "pad_continue")
    st = again.state()
    assert st["screen"] == "message" and st["title"] == de("save_damaged")
    press(again, "A")
    assert again.state()["screen"] == "title"


def test_a_decided_pad_resumes_on_its_winner(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    start_pad(sim, 5000)
    enter(sim, 5000)
    enter(sim, 400)
    assert sim.state()["screen"] == "pad_winner"
    again = Sim(BOARD, str(tmp_path), 2)
    title_to(again, "pad_continue")
    assert again.state()["screen"] == "pad_winner"
    assert ScorePad.from_data(pad_of(again).to_data()).winner == 0


def test_refusals_stay_on_their_screen(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    start_pad(sim, 10000, 1)
    pad_menu(sim, de("pad_menu_adjust"))
    press(sim, "A")  # the only seat
    press(sim, "A")  # a change of 0
    st = sim.state()
    assert st["screen"] == "pad_adjust" and st["message"] == de("pad_err_zero")
    press(sim, "UP", "A")
    assert sim.state()["screen"] == "pad" and sim.state()["scores"] == [50]
    pad_menu(sim, de("menu_leave"))
    press(sim, "A")
    assert sim.state()["message"] == de("pad_err_last_seat")
    pad_menu(sim, de("pad_menu_digits"))
    press(sim, "LEFT", "LEFT", "UP", "A")  # 10000: alone, the round ends at the target
    st = sim.state()
    assert st["screen"] == "pad_winner" and st["scores"] == [10050] and st["winner"] == 0
    press(sim, "A")
    assert Stats.load(sim.app.session.store)[0].person("Spieler 1")["solo"] == [
        ("tafel:10000", 1)]


def test_hurdle_and_penalty_chosen_when_the_evening_starts(tmp_path):
    """The form offers the hurdle (0, 300, 350, 500, 1000) and the penalty
    for three Nichts (off, 500, 1000); the pad plays and saves them, and
    the next new pad starts from them."""
    for board in ("pico_ssd1306_i2c", "thumby"):
        for lang in ("de", "en"):
            data = str(tmp_path / board / lang)
            sim = Sim(board, data, 1)
            sim.app.lang = lang
            t = sim.app.t
            title_to(sim, "pad_title")
            form = sim.app.top()
            labels = form.labels(sim.app)
            assert labels[1] == t("opt_entry") + ": 350"  # as before the options
            assert labels[2] == t("pad_penalty") % "-1000"
            press(sim, "DOWN")
            seen = []
            for _ in range(5):
                seen.append(sim.state()["entry"])
                press(sim, "RIGHT")
            assert sorted(seen) == [0, 300, 350, 500, 1000]
            press(sim, "LEFT", "LEFT")  # 350 -> 300 -> 0
            assert sim.state()["entry"] == 0
            assert form.labels(sim.app)[1] == t("opt_entry") + ": " + t("val_off")
            press(sim, "RIGHT", "RIGHT", "RIGHT", "RIGHT")  # 0 -> 1000
            assert sim.state()["entry"] == 1000
            press(sim, "DOWN", "RIGHT")  # penalty 1000 -> off
            assert sim.state()["penalty"] == 0
            assert form.labels(sim.app)[2] == t("pad_penalty") % t("val_off")
            for label in form.labels(sim.app):
                assert sim.app.ui.width(label) <= sim.app.ui.w - 4, label
            press(sim, "UP", "UP", "UP", "A")  # the start row
            assert sim.state()["screen"] == "pad"
            pad = pad_of(sim)
            assert (pad.entry, pad.penalty) == (1000, 0)
            enter(sim, 950)  # below the hurdle: 0, said first
            assert sim.state()["message"] == strings.text(lang, "pad_hurdle") % 1000
            enter(sim, 1000)  # Ben is in
            for _ in range(6):
                press(sim, "A")  # Nichts for both, three times
            assert sim.state()["scores"] == [0, 1000]  # no penalty
            # the choices stay with the saved pad
            again = Sim(board, data, 2)
            again.app.lang = lang
            title_to(again, "pad_continue")
            assert (pad_of(again).entry, pad_of(again).penalty) == (1000, 0)
            press(again, "B")
            menu_to(again, again.app.t("pad_menu_overview"))
            assert again.app.top().heading(again.app) == strings.text(lang, "pad_overview") % (
                10000, 1000)
            # the next evening's form starts from this table's choice
            press(again, "A")
            menu_to(again, again.app.t("to_title"))
            title_to(again, "pad_title")
            press(again, "A")  # replace the saved pad
            assert again.state()["screen"] == "pad_setup"
            assert (again.state()["entry"], again.state()["penalty"]) == (1000, 0)


def test_no_hurdle_and_a_penalty_of_500(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 1)
    title_to(sim, "pad_title")
    press(sim, "DOWN", "LEFT", "LEFT")  # hurdle 350 -> 300 -> none
    press(sim, "DOWN", "LEFT")  # penalty 1000 -> 500
    assert (sim.state()["entry"], sim.state()["penalty"]) == (0, 500)
    press(sim, "UP", "UP", "UP", "A")
    enter(sim, 50)  # counts at once
    assert sim.state()["scores"] == [50, 0]
    press(sim, "B")  # the menu's overview names no hurdle
    menu_to(sim, de("pad_menu_overview"))
    assert sim.state()["screen"] == "pad_table"
    assert sim.app.top().heading(sim.app) == "Tafel 10000"
    press(sim, "B")
    enter(sim, 1000)
    for _ in range(6):
        press(sim, "A")
    assert sim.state()["scores"] == [0, 500]
    assert sim.state()["message"] == de("penalty") % (pad_of(sim).seats[1].name, 500)
def test_undo_of_a_nichts_fits_both_layouts(tmp_path):
    """'Weg: Spieler 2 Nichts' in the menu and as the message: the name
    gives way (keeping its number), what is taken back stays readable."""
    for board in ("pico_ssd1306_i2c", "thumby"):
        sim = Sim(board, str(tmp_path / board), 1)
        start_pad(sim, 5000)
        enter(sim, 400)
        press(sim, "A")  # Spieler 2: Nichts
        press(sim, "B")
        assert sim.state()["screen"] == "pad_menu"
        ui = sim.app.ui
        undo = sim.app.top().labels(sim.app)[0]  # the first entry
        if sim.app.big:  # 128x64 names what it takes back; 72x40 says it after
            assert undo.startswith(de("pad_menu_undo").split("%s")[0])
            assert undo.endswith(" " + de("pad_nothing")), undo
            assert "Spieler 2 " in undo or "…2 " in undo  # the seat's number stays readable
        else:
            assert undo == de("pad_menu_undo_small")
        assert ui.width(undo) <= ui.w - 4, (board, undo)
        menu_to(sim, undo)
        st = sim.state()
        assert st["screen"] == "pad" and st["message"].endswith(" " + de("pad_nothing"))
        assert ui.width(st["message"]) <= ui.w, (board, st["message"])
        assert "Spieler 2 " in st["message"] or "…2 " in st["message"]
