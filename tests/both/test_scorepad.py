"""Tests of engine.scorepad: the score pad for evenings with real dice (002).
Run under CPython (pytest) and MicroPython (mprun)."""

from engine.codec import CodecError, pack, unpack
from engine.crc import crc32
from engine.scorepad import (
    BASE_TABLE,
    MARK_EVERY,
    MAX_LOG,
    MAX_ROWS,
    PadError,
    ScorePad,
    nearest,
)
from firmware.files import KIND_PAD
from tests.both.helpers import decode_pad, encode_pad, raises


def refused(pad, action, key=None):
    """Assert `action` is refused with a reason and leaves the pad unchanged."""
    before = pad.to_data()
    reason = pad.why_not(action)
    assert reason, action
    err = raises(PadError, pad.apply, action)
    assert err.reason == reason and str(err) == reason
    assert isinstance(err, ValueError)
    if key is not None:
        assert err.key == key, (err.key, key)
    assert pad.to_data() == before
    return err


def play(pad, *turns):
    """Enter turns for the seats in order: a number of points, or None for Nichts."""
    events = []
    for t in turns:
        events.extend(pad.nothing() if t is None else pad.enter(t))
    return events


def scores(pad):
    return [s.score for s in pad.seats]


def kinds(events):
    return [e[0] for e in events]


def roundtrip(pad):
    """The pad through to_data/from_data and through a codec blob."""
    again = ScorePad.from_data(pad.to_data())
    assert again == pad and again.to_data() == pad.to_data()
    blob = encode_pad(pad)
    assert blob[2] == 0x50 == KIND_PAD
    back = decode_pad(blob)
    assert back == pad
    return back


def test_base_table_and_nearest():
    assert dict(BASE_TABLE) == {"one": 100, "five": 50, "three_1": 1000, "three_2": 200,
                                "three_3": 300, "three_4": 400, "three_5": 500,
                                "three_6": 600}
    assert BASE_TABLE[0] == ("one", 100)
    assert nearest(120) == (100, 150)
    assert nearest(20) == (0, 50)
    assert nearest(350) == (350, 350)
    assert nearest(-120) == (-150, -100)


def test_setup_is_checked():
    pad = ScorePad(names=["Anna", "Ben"])
    assert (pad.target, pad.entry, pad.penalty) == (10000, 350, 1000)
    assert pad.current == 0 and pad.round_no == 1 and pad.winner == -1
    assert not pad.over and not pad.can_undo and pad.playoff is None
    for kwargs in ({"target": 0}, {"target": 120}, {"target": "10000"}, {"entry": 75},
                   {"entry": 20000}, {"entry": -50}, {"penalty": 30}, {"penalty": -1000},
                   {"target": True}):
        kwargs["names"] = ["Anna"]
        raises(ValueError, ScorePad, **kwargs)
    raises(PadError, ScorePad, names=[])
    raises(PadError, ScorePad, names=["P%d" % i for i in range(9)])
    raises(PadError, ScorePad, names=["Anna", " anna "])
    raises(PadError, ScorePad, names=["Anna", ""])
    raises(PadError, ScorePad, names=["A name far too long"])
    raises(PadError, ScorePad, names="Anna")
    ScorePad(target=5000, entry=0, penalty=0, names=["Solo"])
    ScorePad(target=50, entry=50, names=["P%d" % i for i in range(8)])


def test_refused_points_name_the_neighbours():
    pad = ScorePad(names=["Anna", "Ben"])
    err = refused(pad, ("enter", 120), "step")
    assert err.reason == "120 is not a multiple of 50: 100 or 150?"
    assert err.values == (120, 100, 150)
    refused(pad, ("enter", -50), "negative")
    refused(pad, ("enter", "350"), "number")
    refused(pad, ("enter", True), "number")
    refused(pad, ("enter", 350.0), "number")
    refused(pad, ("enter", 100050), "too_many")
    err = refused(pad, ("adjust", 0, -120), "step")
    assert err.values == (-120, -150, -100)
    refused(pad, ("adjust", 0, 0), "zero")
    refused(pad, ("adjust", 5, 100), "no_seat")
    refused(pad, ("adjust", -1, 100), "no_seat")
    refused(pad, ("enter",), "action")
    refused(pad, ("enter", 50, 50), "action")
    refused(pad, ("bank",), "action")
    refused(pad, ["enter", 50], "action")
    refused(pad, (), "action")
    refused(pad, ("undo",), "no_undo")
    raises(PadError, pad.undo)
    raises(PadError, pad.enter, 120)
    assert pad.log == [] and scores(pad) == [0, 0]
    pad.enter(0)  # the hurdle: a turn with 0
    pad.enter(150)
    assert scores(pad) == [0, 0] and pad.round_no == 2


def test_entry_hurdle_records_a_zero_turn():
    pad = ScorePad(entry=350, names=["Anna", "Ben"])
    assert pad.hurdle_note(300) == "Anna needs 350 to get in: 300 does not count"
    assert pad.hurdle_note(350) is None
    ev = pad.enter(300)
    assert ev == [("hurdle", 0, 300, 350)]
    a = pad.seats[0]
    assert (a.score, a.turns, a.entered, a.nothing, a.best) == (0, 1, False, 0, 0)
    assert pad.current == 1
    assert pad.enter(400) == [("turn", 1, 400, 400), ("round", 2)]
    assert pad.seats[1].entered
    assert pad.hurdle_note(50) == "Anna needs 350 to get in: 50 does not count"
    play(pad, 350, 50)
    assert scores(pad) == [350, 450] and pad.seats[0].entered
    assert pad.hurdle_note(50) is None
    play(pad, 50)  # once in, every turn counts, even 50
    assert scores(pad) == [400, 450]
    assert pad.history()[:2] == [("enter", 0, 300), ("enter", 1, 400)]
    # No hurdle at all
    free = ScorePad(entry=0, names=["Anna"])
    assert free.enter(50) == [("turn", 0, 50, 50), ("round", 2)]


def test_nothing_and_the_penalty():
    pad = ScorePad(entry=0, penalty=1000, names=["Anna", "Ben"])
    play(pad, 1500, 200, None, 300)
    assert pad.seats[0].run == 1
    play(pad, None, 300)
    ev = play(pad, None)
    assert ev == [("nothing", 0, 3), ("penalty", 0, 1000, 500)]
    a = pad.seats[0]
    assert (a.score, a.run, a.nothing, a.penalties, a.turns) == (500, 0, 3, 1, 4)
    # A scored turn resets the run
    play(pad, 200, None, 300, None, 200, 100, 300, None, 0, None)
    assert pad.seats[0].run == 2 and pad.seats[0].score == 600 and pad.seats[0].penalties == 1
    # Never below 0
    low = ScorePad(entry=0, penalty=1000, names=["Cleo"])
    low.enter(400)
    play(low, None, None)
    assert play(low, None)[:2] == [("nothing", 0, 3), ("penalty", 0, 400, 0)]
    assert low.seats[0].score == 0 and low.seats[0].best == 400
    # Penalty off: Nichts cost nothing
    off = ScorePad(entry=0, penalty=0, names=["Dora"])
    off.enter(500)
    play(off, None, None, None, None)
    assert off.seats[0].score == 500 and off.seats[0].run == 4
    # A turn below the hurdle is no Nichts and ends the run
    hurdle = ScorePad(entry=350, penalty=500, names=["Emil"])
    hurdle.adjust(0, 600)
    play(hurdle, None, None, 0, None)
    assert hurdle.seats[0].score == 600 and hurdle.seats[0].run == 1


def test_adjust_is_a_correction_not_a_turn():
    pad = ScorePad(entry=350, names=["Anna", "Ben"])
    assert pad.adjust(1, 200) == [("adjust", 1, 200, 200)]
    assert pad.seats[1].entered and pad.seats[1].turns == 0 and pad.current == 0
    assert pad.adjust(1, -1000) == [("adjust", 1, -200, 0)]
    assert pad.seats[1].score == 0
    play(pad, 300, 50)  # Ben is in since the plus: his 50 counts
    assert scores(pad) == [0, 50]
    assert pad.history() == [("adjust", 1, 200), ("adjust", 1, -1000), ("enter", 0, 300),
                             ("enter", 1, 50)]


def test_join_and_leave_move_the_order_on():
    pad = ScorePad(entry=0, names=["Anna", "Ben", "Cleo"])
    play(pad, 100)
    assert pad.join("Dora") == [("join", 3, "Dora")]
    assert pad.current == 1 and pad.to_play() == [1, 2, 3]
    refused(pad, ("join", "dora "), "name_taken")
    refused(pad, ("join", ""), "name")
    refused(pad, ("join", 7), "name")
    play(pad, 200, 300, 400)  # Dora plays in this round already
    assert pad.round_no == 2 and pad.current == 0
    assert pad.leave(0) == [("leave", 0, "Anna")]  # the current seat: the dice move on
    assert pad.current == 1 and pad.to_play() == [1, 2, 3]
    play(pad, 50)
    pad.leave(3)  # Dora, still to play: Cleo's turn closes the round
    play(pad, 50)
    assert pad.round_no == 3 and pad.current == 1 and pad.active_seats() == [1, 2]
    refused(pad, ("leave", 0), "no_seat")
    refused(pad, ("adjust", 0, 50), "no_seat")
    pad.join("Anna")  # back again: a new row at 0
    assert pad.seats[4].name == "Anna" and pad.seats[4].score == 0
    assert pad.standings() == [2, 1, 4]
    pad.leave(1)
    assert pad.current == 2
    pad.leave(2)  # the current seat: the new Anna still plays in this round
    assert pad.current == 4 and pad.round_no == 3
    play(pad, 50)
    assert pad.current == 4 and pad.round_no == 4
    refused(pad, ("leave", 4), "last_seat")
    assert [s.active for s in pad.seats] == [False, False, False, False, True]
    assert pad.seats[0].score == 100 and pad.seats[0].turns == 1


def test_table_limits():
    pad = ScorePad(entry=0, names=["P%d" % i for i in range(8)])
    refused(pad, ("join", "Neu"), "full")
    for i in range(MAX_ROWS - 8):
        pad.leave(7 + i)
        pad.join("Q%d" % i)
    assert len(pad.seats) == MAX_ROWS
    pad.leave(0)
    refused(pad, ("join", "Neu"), "rows")


def test_equal_turns_at_the_end_target_5000():
    pad = ScorePad(target=5000, entry=350, names=["Anna", "Ben", "Cleo"])
    play(pad, 2000, 1000, 500)
    play(pad, 2000, 1000, 500)
    ev = play(pad, 1000)  # Anna reaches 5000: Ben and Cleo still play this round
    assert ev == [("turn", 0, 1000, 5000), ("final", (1, 2))]
    assert pad.final_round and not pad.over
    refused(pad, ("join", "Dora"), "final")
    play(pad, 2500)  # Ben: 4500
    assert pad.final_round
    ev = play(pad, 100)
    assert ev == [("turn", 2, 100, 1100), ("win", 0, 5000)]
    assert pad.over and pad.winner == 0 and not pad.final_round and pad.to_play() == []
    assert [s.turns for s in pad.seats] == [3, 3, 3]
    for action in (("enter", 50), ("nothing",), ("adjust", 0, 50), ("join", "Dora"),
                   ("leave", 1)):
        refused(pad, action, "over")
    assert pad.standings() == [0, 1, 2]
    # The last seat in order reaching the target ends the evening at once
    last = ScorePad(target=5000, entry=0, names=["Anna", "Ben"])
    play(last, 100, 4000, 100)
    assert play(last, 1000)[-1] == ("win", 1, 5000)
    # A passed leader: the highest total at the end of the round wins
    passed = ScorePad(target=5000, entry=0, names=["Anna", "Ben"])
    play(passed, 4000, 3000, 1000)
    assert passed.final_round
    assert play(passed, 2500)[-1] == ("win", 1, 5500)


def test_playoff_between_two_tied_leaders():
    pad = ScorePad(target=5000, entry=0, penalty=500, names=["Anna", "Ben", "Cleo"])
    play(pad, 3000, 2000, 4000)  # Cleo ends on 4500
    ev = play(pad, 2000, 3000, 500)
    assert ev[-2:] == [("playoff", (0, 1)), ("round", 3)]
    assert pad.playoff == [0, 1] and pad.round_no == 3 and pad.current == 0
    assert not pad.final_round and pad.to_play() == [0, 1]
    refused(pad, ("join", "Dora"), "final")
    ev = play(pad, 500, 500)  # still tied: only they play on
    assert ev[-2:] == [("playoff", (0, 1)), ("round", 4)]
    assert pad.seats[2].turns == 2 and pad.current == 0
    pad.adjust(2, 5000)  # Cleo is not in the play-off: she cannot win now
    ev = play(pad, None, 50)
    assert ev[-1] == ("win", 1, 5550) and pad.winner == 1
    assert [s.turns for s in pad.seats] == [4, 4, 2]
    # Three tied, one falls behind: the play-off narrows
    three = ScorePad(target=1000, entry=0, names=["A", "B", "C", "D"])
    assert play(three, 1000, 1000, 1000, 0)[-2:] == [("playoff", (0, 1, 2)), ("round", 2)]
    assert play(three, 100, None, 100)[-2:] == [("playoff", (0, 2)), ("round", 3)]
    assert pad.standings()[0] == 2
    # A play-off seat leaves: the other wins at once
    assert three.leave(2) == [("leave", 2, "C"), ("win", 0, 1100)]


def test_playoff_seat_leaving_mid_round():
    pad = ScorePad(target=1000, entry=0, names=["A", "B", "C", "D"])
    play(pad, 1000, 1000, 1000, 0)
    pad.enter(100)
    assert pad.leave(1) == [("leave", 1, "B")]  # the current play-off seat: C's turn
    assert pad.current == 2 and pad.playoff == [0, 2]
    assert play(pad, 50)[-1] == ("win", 0, 1100)


def test_solo_evening():
    pad = ScorePad(target=5000, entry=350, names=["Solo"])
    play(pad, 300, 2000, 2000)
    assert pad.round_no == 4
    assert play(pad, 1000)[-1] == ("win", 0, 5000)
    assert pad.seats[0].turns == 4


def test_undo_step_by_step_back_to_the_start():
    pad = ScorePad(target=5000, entry=350, penalty=1000, names=["Anna", "Ben"])
    actions = [("enter", 300), ("enter", 1500), ("nothing",), ("nothing",), ("join", "Cleo"),
               ("nothing",), ("adjust", 0, 200), ("enter", 400), ("nothing",),
               ("leave", 1), ("enter", 3000), ("enter", 3000), ("enter", 2000),
               ("enter", 2450)]
    states = [pad.to_data()]
    for a in actions:
        pad.apply(a)
        states.append(pad.to_data())
    assert pad.over and pad.winner == 2
    assert pad.last_entry() == ("enter", 2, 2450)
    assert pad.undo() == [("undo", ("enter", 2, 2450))]
    assert pad.to_data() == states[-2] and not pad.over
    assert pad.last_entry() == ("enter", 0, 2000)
    for k in range(len(actions) - 2, -1, -1):
        entry = pad.last_entry()
        assert pad.undo() == [("undo", entry)]
        assert pad.to_data() == states[k], k
    assert not pad.can_undo and pad.last_entry() is None
    refused(pad, ("undo",), "no_undo")
    assert pad == ScorePad(target=5000, entry=350, penalty=1000, names=["Anna", "Ben"])


def test_undo_of_join_and_leave():
    pad = ScorePad(entry=0, names=["Anna", "Ben"])
    pad.join("Cleo")
    assert pad.last_entry() == ("join", 2, "Cleo")
    assert pad.undo() == [("undo", ("join", 2, "Cleo"))]
    assert len(pad.seats) == 2
    pad.leave(0)
    assert pad.current == 1
    pad.undo()
    assert pad.current == 0 and pad.seats[0].active


def test_a_long_evening_undoes_back_to_the_start():
    """Beyond the snapshots kept every MARK_EVERY entries, undo still gives
    back every state exactly (compared by the checksum of its save)."""
    pad = ScorePad(target=100000, entry=350, penalty=500, names=["Anna", "Ben", "Cleo"])
    values = [300, None, 500, 50, 1000, None, None, None, 450, 350]
    states = [crc32(encode_pad(pad))]
    k = 0
    while len(pad.log) < 3 * MARK_EVERY + 5:
        if k % 37 == 5:
            pad.join("J%d" % k)
        elif k % 37 == 20:
            pad.leave(pad.active_seats()[0])
        elif k % 11 == 3:
            pad.adjust(pad.active_seats()[-1], -300)
        else:
            v = values[k % len(values)]
            pad.nothing() if v is None else pad.enter(v)
        states.append(crc32(encode_pad(pad)))
        k += 1
    assert len(pad._marks) == 3
    saved = decode_pad(encode_pad(pad))
    for pads in (pad, saved):
        for n in range(len(states) - 2, -1, -1):
            pads.undo()
            assert crc32(encode_pad(pads)) == states[n], n
        assert not pads.can_undo and pads._marks == []


def test_the_pad_has_room_for_an_evening():
    pad = ScorePad(target=100000, entry=0, penalty=0, names=["Anna", "Ben"])
    for _ in range(MAX_LOG):
        pad.nothing()
    refused(pad, ("nothing",), "pad_full")
    refused(pad, ("join", "Cleo"), "pad_full")
    pad.undo()
    assert len(encode_pad(pad)) < 4000
    pad.enter(100)


def test_a_whole_evening():
    pad = ScorePad(target=10000, entry=350, penalty=1000, names=["Anna", "Ben", "Cleo"])
    refused(pad, ("enter", 120))
    # Round 1: Anna stays under the hurdle, Ben gets in, Cleo rolls Nichts
    assert kinds(play(pad, 300, 450, None)) == ["hurdle", "turn", "nothing", "round"]
    # Dora joins for round 2 and plays after Cleo
    pad.join("Dora")
    play(pad, 600, 2000, None, 800)
    assert pad.round_no == 3 and scores(pad) == [600, 2450, 0, 800]
    # Cleo's third Nichts in a row would cost 1000, but she has nothing yet
    play(pad, 1000, 1500)
    assert kinds(pad.nothing()) == ["nothing", "penalty"]
    assert pad.seats[2].penalties == 1 and pad.seats[2].score == 0
    play(pad, 700)
    # Mid-evening save and restore
    mid = roundtrip(pad)
    assert mid.to_data() == pad.to_data() and mid.history() == pad.history()
    # Ben gets three Nichts in a row
    play(pad, 2000, None, 400, 500)
    play(pad, 500, None, 600, 500)
    assert kinds(play(pad, 500, None)) == ["turn", "nothing", "penalty"]
    assert pad.seats[1].score == 2950 and pad.seats[1].nothing == 3
    # A wrong entry, taken back twice and entered again
    before = pad.to_data()
    play(pad, 5000, 1000)
    pad.undo()
    pad.undo()
    assert pad.to_data() == before
    play(pad, 500, 1000)
    # The +/- button: a correction for Anna
    pad.adjust(0, -500)
    assert scores(pad) == [4100, 2950, 1500, 3500]
    # Cleo leaves when her turn comes; the rest plays on
    play(pad, 1000, 500)
    assert pad.current == 2
    pad.leave(2)
    assert pad.current == 3
    play(pad, 1500)
    assert pad.round_no == 8 and scores(pad) == [5100, 3450, 1500, 5000]
    roundtrip(pad)
    for _ in range(4):
        play(pad, 1200, 1200, 1200)
    assert scores(pad) == [9900, 8250, 1500, 9800] and not pad.final_round
    ev = play(pad, 200)
    assert ev == [("turn", 0, 200, 10100), ("final", (1, 3))] and pad.final_round
    play(pad, 1850)  # Ben: level with Anna
    ev = play(pad, 300)  # Dora reaches 10100 too: three tied leaders
    assert ev[-2:] == [("playoff", (0, 1, 3)), ("round", 13)]
    assert scores(pad) == [10100, 10100, 1500, 10100]
    saved = roundtrip(pad)
    ev = play(pad, None, 400, 400)
    assert ev[-2:] == [("playoff", (1, 3)), ("round", 14)]
    ev = play(pad, 450, 350)
    assert ev[-1] == ("win", 1, 10950)
    assert pad.winner == 1 and pad.standings() == [1, 3, 0]
    assert pad.stats(1) == {"name": "Ben", "score": 10950, "entered": True, "active": True,
                            "turns": 14, "nothing": 3, "best": 2000, "penalties": 1,
                            "run": 0}
    assert pad.stats(2)["active"] is False and pad.stats(2)["turns"] == 6
    assert [s.turns for s in pad.seats] == [13, 14, 6, 13]
    final = roundtrip(pad)
    assert final.over
    # The saved play-off goes on just the same
    play(saved, None, 400, 400, 450, 350)
    assert saved == pad


def test_saves_are_checked():
    pad = ScorePad(target=5000, entry=350, names=["Anna", "Ben"])
    play(pad, 400, None, 500)
    pad.join("Cleo")
    data = pad.to_data()
    assert ScorePad.from_data(data) == pad

    def bad(changed):
        raises(ValueError, ScorePad.from_data, changed)
        try:
            blob = pack(changed, KIND_PAD)
        except CodecError:  # a float: the codec cannot even save it
            return
        raises(CodecError, decode_pad, blob)

    for i in range(len(data)):
        copy = list(data)
        copy[i] = 7777
        bad(copy)
    bad(data[:-1])
    bad(["P2"] + data[1:])
    bad(None)
    tampered = pad.to_data()
    tampered[6][0][1] = 950  # Anna's total disagrees with the entries
    bad(tampered)
    for entry in (120, "", 3.5, None, [1], (5 << 7) | 1, (2 << 7) | 3, 1 << 2):
        copy = pad.to_data()
        copy[5].append(entry)
        bad(copy)
    copy = pad.to_data()
    copy[5][0] = copy[5][0] | (1 << 2)  # an entry for the seat not on turn
    bad(copy)
    copy = pad.to_data()
    copy[2] = 400  # another hurdle: Anna's 400 would count differently
    copy[4] = ["Anna", "Anna"]
    bad(copy)
    assert unpack(encode_pad(pad), KIND_PAD) == data
    blob = bytearray(encode_pad(pad))
    blob[8] ^= 1
    raises(CodecError, decode_pad, bytes(blob))
    raises(CodecError, decode_pad, pack(data, 0x47))


def test_the_hurdle_and_penalty_chosen_for_the_evening():
    """Every hurdle and penalty the pad screen offers: a turn below the
    hurdle counts 0, one at it counts; three Nichts in a row cost the
    penalty (nothing with 0); both survive the save."""
    for entry in (0, 300, 350, 500, 1000):
        for penalty in (0, 500, 1000):
            pad = ScorePad(10000, entry, penalty, ["Anna", "Ben"])
            assert pad.entry == entry and pad.penalty == penalty
            if entry:
                assert pad.hurdle_note(entry - 50)
                assert kinds(pad.enter(entry - 50)) == ["hurdle"]  # Anna: below
            else:
                assert pad.hurdle_note(50) is None
                play(pad, 50)  # Anna: with no hurdle every turn counts
            play(pad, entry + 1000)  # Ben is in
            play(pad, None, None, None, None, None)  # Anna, Ben, Anna, Ben, Anna
            events = play(pad, None)  # Ben's third Nichts in a row
            ben = entry + 1000
            if penalty:
                assert ("penalty", 1, penalty, ben - penalty) in events
                assert pad.seats[1].score == ben - penalty
            else:
                assert "penalty" not in kinds(events) and pad.seats[1].score == ben
            back = roundtrip(pad)
            assert back.entry == entry and back.penalty == penalty
            assert scores(back) == scores(pad)


def test_a_save_from_before_the_options_loads_as_before():
    """A pad saved before the hurdle and penalty could be chosen held the
    fixed 350 and 1000 already: it loads and plays on with them."""
    data = ['P1', 10000, 350, 1000, ['Anna', 'Ben'], [768, 1028, 1, 5, 1, 5, 1280, 5],
            [['Anna', 500, True, True, 4, 2, 500, 0, 0], ['Ben', 0, True, True, 4, 3, 400, 1, 0]],
            0, 5, None, -1]
    pad = decode_pad(pack(data, KIND_PAD))
    assert pad.entry == 350 and pad.penalty == 1000 and scores(pad) == [500, 0]
    assert pad.seats[1].penalties == 1  # Ben's 400 went for three Nichts
    assert ScorePad(names=["Anna"]).entry == 350 and ScorePad(names=["Anna"]).penalty == 1000
