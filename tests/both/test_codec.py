"""Tests of engine.codec: save blobs of games and plain values, and every way
a blob can be damaged. Run under CPython (pytest) and MicroPython (mprun)."""

from engine import codec
from engine.codec import CodecError, decode_game, encode_game, pack, unpack, unpack_file
from engine.crc import crc32
from engine.dice import ScriptedDice
from engine.game import BANK, ROLL, Game
from engine.rules import Rules, preset
from tests.both.helpers import raises

KIND_OTHER = 0x53  # "S": some other file kind


def mid_turn_game():
    """Seat 0 of three has kept a 1 and rolled again: 4,4,4,2,5 on the table."""
    faces = [1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5, 1]
    g = Game(preset("zehntausend"), ["Anna", ("Robo", "careful"), "Jörg"], ScriptedDice(faces))
    g.apply(ROLL)
    g.apply(("keep", (1,)))
    g.apply(ROLL)
    assert g.phase == "keep" and g.roll == (4, 4, 4, 2, 5)
    return g


def blob_of(payload, kind=codec.KIND_GAME, version=codec.VERSION, magic=codec.MAGIC):
    """A blob with a correct length and CRC around raw payload bytes."""
    b = bytearray(magic)
    b.append(kind)
    b.append(version)
    b.append(len(payload) >> 8)
    b.append(len(payload) & 0xFF)
    b.extend(payload)
    crc = crc32(b)
    for shift in (24, 16, 8, 0):
        b.append((crc >> shift) & 0xFF)
    return bytes(b)


def payload_of(blob):
    return blob[6:-4]


# ---------------------------------------------------------------- games


def test_round_trip_mid_turn():
    g = mid_turn_game()
    blob = encode_game(g)
    assert isinstance(blob, bytearray) and len(blob) == 6 + (blob[4] << 8 | blob[5]) + 4
    h = decode_game(blob, ScriptedDice([1]))
    assert h == g
    assert not (h != g)
    assert h.to_data() == g.to_data()
    assert h.legal_actions() == g.legal_actions()
    assert h.roll == (4, 4, 4, 2, 5) and h.aside == (1,) and h.turn_total == 100
    assert h.seats[1].kind == "careful" and h.seats[2].name == "Jörg"
    assert h.rules == g.rules
    # Both play on the same.
    for game in (g, h):
        game.apply(("keep", (4, 4, 4, 5)))
        game.apply(ROLL)
        game.apply(("keep", (1,)))
    assert h == g and h.turn_total == 650 and h.hot()


def test_round_trip_bytearray_and_decide_phase():
    g = mid_turn_game()
    g.apply(("keep", (4, 4, 4)))
    blob = bytearray(encode_game(g))
    h = decode_game(blob)
    assert h == g and h.legal_actions() == g.legal_actions() == [ROLL, BANK]


def test_round_trip_offer_and_open_singles():
    rules = Rules(takeover=True, triples_across=True, penalty=500)
    g = Game(rules, ["A", "B"], ScriptedDice([1, 5, 2, 3, 6, 6]))
    g.apply(ROLL)
    g.apply(("keep", (1, 5)))
    assert g.open_singles == (1, 5)
    h = decode_game(encode_game(g))
    assert h == g and h.open_singles == (1, 5)
    g.apply(BANK)
    assert g.offer is not None
    h = decode_game(encode_game(g))
    assert h == g and h.offer == g.offer and h.legal_actions() == g.legal_actions()


def test_round_trip_over():
    g = Game(Rules(finish="immediate", target=1000), ["A", "B"],
             ScriptedDice([1, 1, 1, 2, 3, 4]))
    g.apply(ROLL)
    g.apply(("keep", (1, 1, 1)))
    g.apply(BANK)
    h = decode_game(encode_game(g))
    assert h == g and h.phase == "over" and h.winner == 0


def test_events_and_dice_not_saved():
    g = mid_turn_game()
    h = decode_game(encode_game(g))
    assert h.events == [] and h.dice is None


def test_blob_size_eight_seats_mid_turn():
    names = ["Maximilianus", "Bartholomäu", "Cleopatra123", "Dorothea_abc",
             "Emilia-Sofia", "Friedemann1", "Gwendolyn_12", "Hieronymus_1"]
    seats = [(n, "aggressive") for n in names]
    g = Game(preset("international"), seats, ScriptedDice([1, 3, 3, 5, 6, 6, 4, 4, 4, 2, 5]))
    for s in g.seats:
        s.score = 9950
        s.entered = True
        s.turns = 500
        s.farkle_turns = 200
        s.best_turn = 6000
    g.apply(ROLL)
    g.apply(("keep", (1,)))
    g.apply(ROLL)
    blob = encode_game(g)
    assert len(blob) < 600, len(blob)
    assert decode_game(blob) == g


# ---------------------------------------------------------------- damaged blobs


def test_bad_magic():
    blob = encode_game(mid_turn_game())
    bad = blob_of(payload_of(blob), magic=b"ZX")
    assert "not" in str(raises(CodecError, decode_game, bad))
    raises(CodecError, decode_game, b"XX" + blob[2:])


def test_other_kind():
    blob = pack([1, 2, 3], KIND_OTHER)
    assert "kind" in str(raises(CodecError, decode_game, blob))
    raises(CodecError, unpack, encode_game(mid_turn_game()), KIND_OTHER)


def test_newer_version():
    blob = encode_game(mid_turn_game())
    newer = blob_of(payload_of(blob), version=codec.VERSION + 1)
    assert "newer" in str(raises(CodecError, decode_game, newer))


def test_older_version():
    blob = encode_game(mid_turn_game())
    older = blob_of(payload_of(blob), version=codec.VERSION - 1)
    assert "older" in str(raises(CodecError, decode_game, older))


def test_truncated_at_every_length():
    blob = encode_game(mid_turn_game())
    for n in range(len(blob)):
        raises(CodecError, decode_game, blob[:n])


def test_flipped_bit_at_every_position():
    blob = encode_game(mid_turn_game())
    b = bytearray(blob)
    for i in range(len(b)):
        for bit in range(8):
            b[i] ^= 1 << bit
            raises(CodecError, decode_game, bytes(b))
            b[i] ^= 1 << bit
    assert bytes(b) == blob


def test_trailing_bytes():
    blob = encode_game(mid_turn_game())
    raises(CodecError, decode_game, blob + b"\x00")
    # A payload with a byte after the value, length and CRC made to fit.
    padded = blob_of(payload_of(blob) + b"\x00")
    assert "trailing" in str(raises(CodecError, decode_game, padded))


def test_not_bytes():
    raises(CodecError, decode_game, "ZT")
    raises(CodecError, decode_game, None)
    raises(CodecError, decode_game, [90, 84])
    raises(CodecError, decode_game, b"")


def test_damaged_payload_structure():
    for payload in (b"", b"\x09", b"\x03\x80", b"\x04\x05ab", b"\x05\x03\x00",
                    b"\x04\x02\xff\xfe", b"\x03" + b"\xff" * 11):
        raises(CodecError, unpack, blob_of(payload, kind=KIND_OTHER), KIND_OTHER)


def test_valid_blob_invalid_game():
    good = mid_turn_game().to_data()
    junk = [
        [1, 2, 3],
        None,
        "game",
        0,
        [],
        [None] * 16,
    ]
    for i, bad in ((0, "R9,1,2"), (0, 5), (1, []), (1, [["", "", 0]]), (2, 7), (2, -1),
                   (3, "fly"), (3, ["keep"]), (3, 3), (4, [7]), (4, [1] * 7), (5, "x"),
                   (6, -50), (6, 75), (6, True), (8, [100]), (8, [100, [1, 2, 3, 4, 5, 6]]),
                   (10, "oops"), (12, 5), (13, [9]), (14, "x"), (15, 0)):
        data = list(good)
        data[i] = bad
        junk.append(data)
    seat = list(good[1][0])
    seat[2] = -50
    data = list(good)
    data[1] = [seat]
    junk.append(data)
    data = list(good)
    data[4] = [1, 2, 3, 4, 5, 6]  # six on the table and one aside
    junk.append(data)
    for data in junk:
        blob = pack(data, codec.KIND_GAME)
        err = raises(CodecError, decode_game, blob)
        assert str(err)


# ---------------------------------------------------------------- pack / unpack


def test_pack_unpack_nested_values():
    value = [None, True, False, 0, 1, -1, 63, 64, -64, -65, 127, 128, 300, -300,
             2 ** 31, -(2 ** 31), 2 ** 62, -(2 ** 62), 10 ** 18, -(10 ** 18),
             "", "a", "Größe, Übermaß, Ärger", "\u20ac", ["x", [1, [2, [3, [None]]]]], [],
             (4, 5)]
    out = unpack(pack(value, KIND_OTHER), KIND_OTHER)
    expect = list(value)
    expect[-1] = [4, 5]  # tuples come back as lists
    assert out == expect
    assert out[1] is True and out[2] is False and out[0] is None
    assert type(out[3]) is int


# ---------------------------------------------------------------- from a file


def _from_file(blob, kind):
    import io

    return unpack_file(io.BytesIO(blob), kind)


def test_unpack_file_reads_what_unpack_reads():
    value = [b"\x00\x01" * 300, [b"", b"xyz"], "Größe", -5, None, [True, [7]]]
    blob = pack(value, KIND_OTHER)
    assert _from_file(blob, KIND_OTHER) == unpack(blob, KIND_OTHER) == value


def test_unpack_file_refuses_what_unpack_refuses():
    blob = pack([b"abc" * 20, 12345, "text"], KIND_OTHER)
    for n in range(len(blob)):  # truncated anywhere
        raises(CodecError, _from_file, blob[:n], KIND_OTHER)
    raises(CodecError, _from_file, blob + b"\x00", KIND_OTHER)
    b = bytearray(blob)
    for i in range(len(b)):  # any flipped bit: the checksum at the latest
        for bit in (0, 3, 7):
            b[i] ^= 1 << bit
            raises(CodecError, _from_file, bytes(b), KIND_OTHER)
            b[i] ^= 1 << bit
    raises(CodecError, _from_file, blob, KIND_OTHER + 1)
    for payload in (b"", b"\x09", b"\x03\x80", b"\x04\x05ab", b"\x05\x03\x00"):
        raises(CodecError, _from_file, blob_of(payload, kind=KIND_OTHER), KIND_OTHER)


def test_pack_scalars():
    for value in (None, True, False, 0, -7, 12345678901234, "Zehntausend"):
        assert unpack(pack(value, KIND_OTHER), KIND_OTHER) == value


def test_pack_largest_ints():
    for value in (2 ** 69 - 1, -(2 ** 69)):
        assert unpack(pack(value, KIND_OTHER), KIND_OTHER) == value
    for value in (2 ** 69, -(2 ** 69) - 1, 2 ** 80, 10 ** 30):
        raises(CodecError, pack, value, KIND_OTHER)


def test_pack_refuses_other_types():
    raises(CodecError, pack, 1.5, KIND_OTHER)
    raises(CodecError, pack, {"a": 1}, KIND_OTHER)
    raises(CodecError, pack, object(), KIND_OTHER)
    deep = [1]
    for _ in range(20):
        deep = [deep]
    raises(CodecError, pack, deep, KIND_OTHER)


def test_pack_too_big():
    raises(CodecError, pack, ["x" * 1000] * 66, KIND_OTHER)  # 66198 bytes


def test_pack_layout():
    blob = pack([], KIND_OTHER)
    assert blob[0:2] == b"ZT" and blob[2] == KIND_OTHER and blob[3] == codec.VERSION
    assert blob[4] == 0 and blob[5] == 2 and len(blob) == 12
    assert blob == blob_of(b"\x05\x00", kind=KIND_OTHER)
