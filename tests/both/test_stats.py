"""Tests of firmware.stats: statistics per name and records per group.
Run under CPython (pytest) and MicroPython (mprun)."""

from engine.codec import pack, unpack
from engine.game import Game
from engine.rules import preset
from engine.scorepad import ScorePad
from firmware import stats
from firmware.stats import HEADER, KIND_STATS, Stats, group_of, percent, record_game, record_pad
from firmware.store import Store
from tools.fakes.memfs import MemFS
from tools.mp.randomplay import play


def _finished(names, scores, turns, farkles, best, winner, rules=None):
    game = Game(rules or preset("zehntausend"), names)
    for i in range(len(names)):
        s = game.seats[i]
        s.score, s.turns, s.farkle_turns, s.best_turn = scores[i], turns[i], farkles[i], best[i]
    game.winner = winner
    game.phase = "over"
    return game


def test_groups_follow_preset_and_target():
    assert group_of(preset("zehntausend")) == "zehntausend:10000"
    assert group_of(preset("farkle4000")) == "farkle4000:4000"
    changed = preset("kneipe").replace(target=5000)
    assert group_of(changed) == "kneipe:5000"
    low = preset("kneipe").replace(target=300, entry=300)  # entry follows a low target
    assert group_of(low) == "kneipe:300"
    custom = preset("zehntausend").replace(penalty=500, target=3000)
    assert group_of(custom) == "custom:3000"


def test_a_game_counts_every_seat_that_played():
    st = Stats()
    game = _finished([("Anna", ""), ("Profi 2", "profi"), ("Ben", "")], [10200, 7300, 0],
                     [20, 21, 0], [4, 6, 0], [1500, 2000, 0], 0)
    st.add_game(game)
    assert st.names() == ["Anna", "*profi"]  # Ben played no turn; the computer by its level
    anna = st.person("Anna")
    assert anna["games"] == 1 and anna["wins"] == 1 and anna["turns"] == 20
    assert anna["farkles"] == 4 and anna["points"] == 10200
    assert anna["best_turn"] == 1500 and anna["best_total"] == 10200 and anna["solo"] == []
    game2 = _finished([("Anna", ""), ("Profi 3", "profi")], [6000, 10050], [18, 19], [5, 2],
                      [900, 2500], 1)
    st.add_game(game2)
    anna = st.person("Anna")
    assert anna["games"] == 2 and anna["wins"] == 1 and anna["turns"] == 38
    assert anna["best_turn"] == 1500 and anna["best_total"] == 10200
    bot = st.person("*profi")
    assert bot["games"] == 2 and bot["wins"] == 1 and bot["best_turn"] == 2500
    assert percent(anna["farkles"], anna["turns"]) == 24  # 9 of 38
    assert percent(1, 3) == 33 and percent(2, 3) == 67 and percent(5, 0) == 0


def test_solo_record_is_the_fewest_turns_to_win_alone():
    st = Stats()
    st.add_game(_finished(["Cleo"], [10000], [25], [3], [2000], 0))
    st.add_game(_finished(["Cleo"], [10050], [19], [2], [3000], 0))
    st.add_game(_finished(["Cleo"], [10000], [30], [9], [1000], 0))
    st.add_game(_finished(["Cleo", "Dora"], [10000, 50], [12, 12], [0, 9], [3000, 50], 0))
    assert st.person("Cleo")["solo"] == [("zehntausend:10000", 19)]
    assert st.records()[0] == ("zehntausend:10000", (3000, "Cleo"), (10050, "Cleo"),
                               (19, "Cleo"))


def test_records_per_group():
    st = Stats()
    st.add_game(_finished(["Anna", "Ben"], [10000, 8000], [20, 20], [2, 3], [1200, 2100], 0))
    st.add_game(_finished(["Anna", "Ben"], [4100, 3000], [9, 9], [1, 1], [900, 600], 0,
                          preset("farkle4000")))
    st.add_game(_finished(["Ben", "Anna"], [10500, 9950], [22, 22], [2, 3], [1800, 2100], 0))
    recs = st.records()
    assert [r[0] for r in recs] == ["zehntausend:10000", "farkle4000:4000"]
    assert recs[0][1] == (2100, "Anna")  # a tie with Ben: the row counted first keeps it
    assert recs[0][2] == (10500, "Ben") and recs[0][3] is None
    assert recs[1] == ("farkle4000:4000", (900, "Anna"), (4100, "Anna"), None)


def test_pad_evenings_count_under_their_own_group():
    pad = ScorePad(5000, 350, 1000, ["Anna", "Ben"])
    pad.enter(400)
    pad.nothing()
    pad.adjust(0, 4600)
    pad.nothing()  # Anna
    pad.enter(500)  # Ben: the round ends with Anna at the target
    assert pad.over and pad.winner == 0
    st = Stats()
    st.add_pad(pad)
    assert st.rows[0][:2] == ["Anna", "tafel:5000"]
    assert st.person("Ben")["farkles"] == 1 and st.person("Ben")["best_turn"] == 500
    assert st.person("Anna")["wins"] == 1 and st.person("Anna")["best_total"] == 5000


def test_file_round_trip_has_a_header_row():
    fs = MemFS()
    store = Store(fs)
    assert record_game(store, play(preset("fuenf"), 3, 4)[0]) is None
    value = unpack(fs.files["stats"], KIND_STATS)
    assert value[0] == list(HEADER) and len(value) == 4
    again, note = Stats.load(store)
    assert note is None and again.rows == value[1:]
    assert record_game(store, play(preset("fuenf"), 3, 5)[0]) is None
    again, _ = Stats.load(store)
    assert sum(again.person(n)["games"] for n in again.names()) == 6
    assert Stats.reset(store) is None
    assert Stats.load(store)[0].rows == []


def test_damaged_file_starts_again_and_never_raises():
    fs = MemFS()
    store = Store(fs)
    game = play(preset("zehntausend"), 2, 8)[0]
    record_game(store, game)
    record_game(store, game)
    fs.damage("stats", flip=12)
    st, note = Stats.load(store)  # the last good copy (.bak): one game
    assert note and sum(st.person(n)["games"] for n in st.names()) == 2
    fs.damage("stats.bak", truncate=5)
    st, note = Stats.load(store)
    assert st.rows == [] and note
    assert record_game(store, game) is None  # a fresh file replaces the damaged one
    assert Stats.load(store)[1] is None
    fs.fail_next_write()
    assert record_game(store, game)  # the reason; nothing raised
    fs.files["stats"] = pack(["not", "rows", [1, 2]], KIND_STATS)
    assert Stats.load(store)[0].rows == []  # foreign rows are left out
    assert record_pad(store, ScorePad(names=["A"])) is None


def test_rows_are_bounded():
    st = Stats()
    for i in range(stats.MAX_ROWS + 5):
        st.add("N%d" % i, "zehntausend:10000", False, 10, 1, 500, 200, False)
        if i % 2:
            st.add("N%d" % i, "zehntausend:10000", False, 10, 1, 500, 200, False)
    assert len(st.rows) == stats.MAX_ROWS
    assert st.person("N1")["games"] == 2  # rows with fewer games went first
