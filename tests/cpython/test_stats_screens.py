"""Statistics through the headless simulator: after several games, after a
damaged game save, records, reset with a confirmation."""

from firmware import strings
from firmware.stats import HEADER, Stats
from simulator.host import Sim
from tests.cpython.simdriver import new_game, play_to_end, press
from tests.cpython.test_pad_screens import menu_to, title_to

BOARD = "pico_ssd1306_i2c"


def de(key):
    return strings.text("de", key)


def open_stats(sim):
    title_to(sim, "stats_title")
    assert sim.state()["screen"] == "stats"
    return sim.state()


def to_top(sim):
    """Back on the title: highlight its first entry (new_game expects it)."""
    assert sim.state()["screen"] == "title"
    while sim.state()["index"]:
        press(sim, "UP")


def games_played(sim, names=("Spieler 1", "*mutig")):
    return {n: Stats.load(sim.app.session.store)[0].person(n)["games"] for n in names}


def test_statistics_after_several_games_and_a_damaged_save(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 3)
    winners = []
    for _ in range(3):
        new_game(sim, "farkle4000", ["", "mutig"])
        state, _ = play_to_end(sim)
        winners.append(state["winner"])
        press(sim, "B")  # to the title (A would start a rematch)
    new_game(sim, "farkle4000", [""])  # alone: the solo record
    state, _ = play_to_end(sim)
    press(sim, "B")
    solo_turns = Stats.load(sim.app.session.store)[0].person("Spieler 1")["solo"][0][1]
    assert solo_turns > 0
    st = open_stats(sim)
    assert st["names"] == ["Spieler 1", "*mutig"]
    labels = sim.app.top().labels(sim.app)
    assert labels[0] == "Spieler 1 (4)"
    assert labels[1] == de("stats_bot") % de("level_mutig") + " (3)"
    press(sim, "A")
    st = sim.state()
    assert st["screen"] == "stats_name" and st["title"] == "Spieler 1"
    lines = st["lines"]
    assert lines[0] == de("stats_games") % 4
    wins = winners.count(0) + 1
    assert lines[1] == de("stats_wins") % (wins, (wins * 100 + 2) // 4)
    assert lines[-2] == de("stats_solo") % de("preset_farkle4000")
    assert lines[-1] == de("stats_turns") % solo_turns
    sim.png(str(tmp_path / "person.png"))
    press(sim, "DOWN", "DOWN", "DOWN")
    assert sim.state()["first"] == 3  # scrolled to the end (4 rows shown)
    press(sim, "B")
    menu_to(sim, de("stats_records"))
    st = sim.state()
    assert st["screen"] == "stats_records"
    assert st["lines"][0] == "» " + de("preset_farkle4000")
    assert any(line.startswith(de("stats_rec_solo") % (solo_turns, "")[:5])
               for line in st["lines"])
    press(sim, "B", "B")
    to_top(sim)
    before = games_played(sim)
    assert before == {"Spieler 1": 4, "*mutig": 3}

    # A game in progress, then every copy of its save damaged.
    new_game(sim, "farkle4000", ["", "mutig"])
    press(sim, "A", "A")
    for name in ("game", "game.bak", "game.new"):
        path = tmp_path / name
        if path.exists():
            path.write_bytes(b"ZT" + bytes(20))
    again = Sim(BOARD, str(tmp_path), 4)
    press(again, "A")  # Continue
    assert again.state()["title"] == de("save_damaged")
    press(again, "A")
    assert games_played(again) == before  # the statistics are intact
    st = open_stats(again)
    assert again.app.top().labels(again.app)[0] == "Spieler 1 (4)" and st["note"] is None
    press(again, "B")
    to_top(again)
    new_game(again, "farkle4000", ["", "mutig"])
    play_to_end(again)
    press(again, "A")
    assert games_played(again) == {"Spieler 1": 5, "*mutig": 4}


def test_reset_only_after_a_confirmation(tmp_path):
    sim = Sim(BOARD, str(tmp_path), 5)
    new_game(sim, "farkle4000", ["", "vorsichtig"])
    play_to_end(sim)
    press(sim, "B")
    open_stats(sim)
    menu_to(sim, de("stats_reset"))
    assert sim.state()["screen"] == "confirm"
    press(sim, "B")  # no
    assert sim.state()["screen"] == "stats" and len(sim.state()["names"]) == 2
    menu_to(sim, de("stats_reset"))
    press(sim, "A")  # yes
    st = sim.state()
    assert st["screen"] == "stats" and st["names"] == []
    assert sim.app.top().labels(sim.app)[0] == de("stats_none")
    assert not (tmp_path / "stats").exists()
    again = Sim(BOARD, str(tmp_path), 6)
    assert Stats.load(again.app.session.store)[0].rows == []


def test_statistics_on_the_thumby_in_english(tmp_path):
    sim = Sim("thumby", str(tmp_path), 7)
    sim.app.lang = "en"
    new_game(sim, "farkle4000", ["", "mutig"])
    play_to_end(sim)
    press(sim, "B")
    open_stats(sim)
    press(sim, "A")
    st = sim.state()
    assert st["lines"][0] == strings.text("en", "stats_games") % 1
    for line in st["lines"]:  # every line fits the 72 px screen
        assert sim.app.ui.width(line) <= 72, line


def test_pull_stats_reads_the_file_the_device_writes(tmp_path):
    from tools import pull_stats

    sim = Sim(BOARD, str(tmp_path), 8)
    new_game(sim, "farkle4000", ["", "profi"])
    play_to_end(sim)
    text = pull_stats.to_csv((tmp_path / "stats").read_bytes())
    lines = text.splitlines()
    assert lines[0] == ",".join(HEADER)
    assert lines[1].startswith("Spieler 1,farkle4000:4000,1,") and len(lines) == 3
