"""Tests of engine.rules against docs/rules.md; run under CPython (pytest) and MicroPython."""

from engine.crc import crc32, crc32_pure
from engine.rules import (
    DEFAULTS,
    KEYS,
    PRESETS,
    REASONS,
    SIX_DICE_ONLY,
    Rules,
    preset,
    settle,
)
from tests.both.helpers import raises

# Every option key of docs/rules.md with its default (the zehntausend preset, 000;
# the options docs/rules.md marks "off by default" or names no default for are off).
RULES_MD_DEFAULTS = {
    "dice": 6,
    "target": 10000,
    "entry": 0,
    "n_of_kind": "double",
    "ones_triple": 1000,
    "straight": 1500,
    "small_straights": (0, 0),
    "three_pairs": 1500,
    "quad_pair": 0,
    "two_triplets": 0,
    "hot_dice": "may",
    "auto_keep": False,
    "triples_across": False,
    "penalty": 0,
    "takeover": False,
    "exact": False,
    "finish": "last_turn",
    "tie": "trigger",
}

# What each preset changes against the defaults, from the docs/rules.md preset table.
# Options a 5-dice game cannot have (straight, three pairs) are 0 there.
PRESET_CHANGES = {
    "zehntausend": {},
    "kneipe": {"entry": 350, "hot_dice": "must"},
    "fuenf": {
        "dice": 5, "n_of_kind": "triple_only", "entry": 350, "finish": "round",
        "tie": "playoff", "straight": 0, "three_pairs": 0,
    },
    "farkle4000": {
        "small_straights": (500, 750), "three_pairs": 0, "target": 4000, "tie": "playoff",
    },
    "punktlandung": {
        "dice": 5, "n_of_kind": "triple_only", "entry": 350, "exact": True,
        "takeover": True, "auto_keep": True, "finish": "exact", "straight": 0,
        "three_pairs": 0,
    },
    "international": {
        "ones_triple": 300, "n_of_kind": "fixed", "quad_pair": 1500, "two_triplets": 2500,
    },
}

# Computed once under CPython; MicroPython must give the same.
FINGERPRINT_DEFAULT = "51c4b372"
FINGERPRINT_PUNKTLANDUNG = "680e6c58"


def _changes(rules):
    """The options of ``rules`` that differ from the docs/rules.md defaults."""
    d = rules.to_dict()
    out = {}
    for key in d:
        if d[key] != RULES_MD_DEFAULTS[key]:
            out[key] = d[key]
    return out


def _names(exc, key):
    """True when the RulesError names option ``key`` and gives a reason key."""
    return exc.option == key and exc.key in REASONS


def _bad(key, **options):
    exc = raises(ValueError, Rules, **options)
    assert _names(exc, key), (key, options, str(exc))


# ---------------------------------------------------------------- defaults


def test_every_rules_md_key_with_default():
    assert sorted(KEYS) == sorted(RULES_MD_DEFAULTS.keys())
    assert len(KEYS) == len(RULES_MD_DEFAULTS)
    assert DEFAULTS == RULES_MD_DEFAULTS
    r = Rules()
    for key in RULES_MD_DEFAULTS:
        assert getattr(r, key) == RULES_MD_DEFAULTS[key], key
    assert r.to_dict() == RULES_MD_DEFAULTS


def test_defaults_equal_zehntausend_preset():
    assert Rules() == preset("zehntausend")
    assert preset("zehntausend") == Rules()
    assert not (Rules() != preset("zehntausend"))
    assert hash(Rules()) == hash(preset("zehntausend"))
    assert Rules().encode() == preset("zehntausend").encode()


def test_to_dict_is_a_fresh_copy():
    r = Rules()
    d = r.to_dict()
    d["dice"] = 5
    assert r.dice == 6
    assert r.to_dict()["dice"] == 6


# ---------------------------------------------------------------- presets


def test_presets_order():
    assert PRESETS == (
        "zehntausend", "kneipe", "fuenf", "farkle4000", "punktlandung", "international",
    )
    assert sorted(PRESET_CHANGES.keys()) == sorted(PRESETS)


def test_each_preset_has_exactly_its_rules_md_options():
    for key in PRESETS:
        assert _changes(preset(key)) == PRESET_CHANGES[key], (key, _changes(preset(key)))


def test_preset_zehntausend():
    r = preset("zehntausend")
    assert r.dice == 6 and r.n_of_kind == "double"
    assert r.straight == 1500 and r.three_pairs == 1500
    assert r.entry == 0 and r.target == 10000
    assert r.finish == "last_turn" and r.tie == "trigger"
    assert _changes(r) == {}


def test_preset_kneipe():
    r = preset("kneipe")
    assert r.entry == 350
    assert r.hot_dice == "must"
    assert r.dice == 6 and r.n_of_kind == "double" and r.straight == 1500
    assert r.three_pairs == 1500 and r.target == 10000 and r.finish == "last_turn"
    assert len(_changes(r)) == 2


def test_preset_fuenf():
    r = preset("fuenf")
    assert r.dice == 5
    assert r.n_of_kind == "triple_only"
    assert r.entry == 350
    assert r.target == 10000
    assert r.finish == "round"
    assert r.tie == "playoff"
    assert r.straight == 0 and r.three_pairs == 0
    assert r.exact is False and r.takeover is False and r.auto_keep is False
    assert len(_changes(r)) == 7
    assert r.replace(target=5000).target == 5000  # "5000 selectable"


def test_preset_farkle4000():
    r = preset("farkle4000")
    assert r.dice == 6 and r.n_of_kind == "double"
    assert r.small_straights == (500, 750)
    assert r.straight == 1500
    assert r.three_pairs == 0
    assert r.target == 4000
    assert r.finish == "last_turn"
    assert r.tie == "playoff"
    assert r.entry == 0
    assert len(_changes(r)) == 4


def test_preset_punktlandung():
    r = preset("punktlandung")
    assert r.dice == 5
    assert r.n_of_kind == "triple_only"
    assert r.entry == 350
    assert r.target == 10000
    assert r.exact is True
    assert r.finish == "exact"
    assert r.takeover is True
    assert r.auto_keep is True
    assert r.straight == 0 and r.three_pairs == 0
    assert len(_changes(r)) == 9


def test_preset_international():
    r = preset("international")
    assert r.ones_triple == 300
    assert r.n_of_kind == "fixed"
    assert r.straight == 1500
    assert r.three_pairs == 1500
    assert r.quad_pair == 1500
    assert r.two_triplets == 2500
    assert r.target == 10000 and r.finish == "last_turn" and r.tie == "trigger"
    assert r.dice == 6
    assert len(_changes(r)) == 4


def test_unknown_preset():
    exc = raises(ValueError, preset, "yahtzee")
    assert exc.key == "preset"


def test_preset_returns_equal_rules_each_time():
    # preset() may hand out one shared (interned) object; only equality counts.
    a = preset("kneipe")
    b = preset("kneipe")
    assert a == b
    assert a.to_dict() == b.to_dict()


# ---------------------------------------------------------------- validation


def test_unknown_key_names_it():
    exc = raises(ValueError, Rules, colour="red")
    assert _names(exc, "colour")
    exc = raises(ValueError, Rules, dice=6, bonus=1)
    assert _names(exc, "bonus")


def test_bad_target():
    _bad("target", target=10010)
    _bad("target", target=0)
    _bad("target", target=-50)
    _bad("target", target="10000")
    _bad("target", target=True)
    assert Rules(target=50).target == 50
    assert Rules(target=4000).target == 4000
    assert Rules(target=5000).target == 5000


def test_bad_dice():
    _bad("dice", dice=4)
    _bad("dice", dice=7)
    _bad("dice", dice=0)
    _bad("dice", dice="6")
    _bad("dice", dice=True)


def test_bad_n_of_kind():
    _bad("n_of_kind", n_of_kind="x")
    _bad("n_of_kind", n_of_kind="Double")
    _bad("n_of_kind", n_of_kind=None)


def test_six_dice_options_need_six_dice():
    _bad("straight", dice=5)  # the default straight 1500
    _bad("straight", dice=5, three_pairs=0)
    _bad("three_pairs", dice=5, straight=0)
    _bad("quad_pair", dice=5, straight=0, three_pairs=0, quad_pair=1500)
    _bad("two_triplets", dice=5, straight=0, three_pairs=0, two_triplets=2500)
    r = Rules(dice=5, straight=0, three_pairs=0)
    assert r.dice == 5


def test_five_flat_needs_five_dice():
    _bad("n_of_kind", n_of_kind="five_flat")
    _bad("n_of_kind", n_of_kind="five_flat", dice=6)
    r = Rules(dice=5, straight=0, three_pairs=0, n_of_kind="five_flat")
    assert r.n_of_kind == "five_flat"


def test_exact_and_finish_go_together():
    _bad("exact", exact=True)
    _bad("exact", exact=True, finish="last_turn")
    _bad("exact", exact=True, finish="round")
    _bad("finish", finish="exact")
    _bad("finish", finish="exact", exact=False)
    r = Rules(exact=True, finish="exact")
    assert r.exact is True and r.finish == "exact"
    for finish in ("last_turn", "round", "immediate"):
        assert Rules(finish=finish).finish == finish
    _bad("finish", finish="sudden")


def _settled(start, key, value):
    """`settle` after setting `key` of the Rules `start` to `value`: the
    options are valid again, `key` kept its value, and the changes list
    exactly the options that differ."""
    opts = start.to_dict()
    opts[key] = value
    before = dict(opts)
    d, changes = settle(opts, key)
    assert opts == before  # the input is left alone
    assert d[key] == value
    Rules(**d)  # valid
    differ = [k for k in KEYS if d[k] != opts[k]]
    assert sorted(differ) == sorted(k for k, _v in changes)
    for k, v in changes:
        assert d[k] == v
    return d, changes


def test_settle_five_dice_turns_the_six_dice_combinations_off():
    d, changes = _settled(preset("international"), "dice", 5)
    assert changes == [("straight", 0), ("three_pairs", 0), ("quad_pair", 0),
                       ("two_triplets", 0)]
    for k in SIX_DICE_ONLY:
        assert d[k] == 0
    d, changes = _settled(preset("zehntausend"), "dice", 5)
    assert changes == [("straight", 0), ("three_pairs", 0)]


def test_settle_a_six_dice_combination_means_six_dice():
    d, changes = _settled(preset("fuenf"), "straight", 1500)
    assert changes == [("dice", 6)]
    five_flat = Rules(dice=5, straight=0, three_pairs=0, n_of_kind="five_flat")
    d, changes = _settled(five_flat, "three_pairs", 500)
    assert changes == [("dice", 6), ("n_of_kind", "double")]


def test_settle_five_flat_and_six_dice_exclude_each_other():
    d, changes = _settled(preset("zehntausend"), "n_of_kind", "five_flat")
    assert changes == [("dice", 5), ("straight", 0), ("three_pairs", 0)]
    five_flat = Rules(dice=5, straight=0, three_pairs=0, n_of_kind="five_flat")
    d, changes = _settled(five_flat, "dice", 6)
    assert changes == [("n_of_kind", "double")]
    assert d["straight"] == 0  # nothing is turned on that was off


def test_settle_exact_and_finish_follow_each_other():
    zt = preset("zehntausend")
    assert _settled(zt, "exact", True)[1] == [("finish", "exact")]
    assert _settled(zt, "finish", "exact")[1] == [("exact", True)]
    pl = preset("punktlandung")
    assert _settled(pl, "exact", False)[1] == [("finish", "last_turn")]
    assert _settled(pl, "finish", "round")[1] == [("exact", False)]
    assert _settled(pl, "finish", "immediate")[1] == [("exact", False)]


def test_settle_entry_and_target():
    kn = preset("kneipe")  # entry 350
    assert _settled(kn, "target", 300)[1] == [("entry", 300)]
    assert _settled(kn.replace(target=500), "entry", 1000)[1] == [("target", 1000)]
    assert _settled(kn, "target", 350)[1] == []


def test_settle_changes_nothing_that_is_fine():
    for key in PRESETS:
        r = preset(key)
        for k in KEYS:
            d, changes = settle(r.to_dict(), k)
            assert changes == [] and Rules(**d) == r
    d, changes = _settled(preset("zehntausend"), "penalty", 500)
    assert changes == []


def test_settle_leaves_bad_values_to_rules():
    opts = preset("zehntausend").to_dict()
    opts["entry"] = "350"
    d, changes = settle(opts, "entry")
    assert changes == [] and d["entry"] == "350"
    assert raises(ValueError, lambda: Rules(**d))


def test_settle_every_single_change_gives_valid_rules():
    values = {
        "dice": (6, 5), "target": (300, 500, 10000), "entry": (0, 350, 1000),
        "n_of_kind": ("double", "triple_only", "add", "fixed", "five_flat"),
        "ones_triple": (1000, 300), "straight": (0, 1500), "small_straights": ((0, 0), (500, 750)),
        "three_pairs": (0, 750), "quad_pair": (0, 1500), "two_triplets": (0, 2500),
        "hot_dice": ("may", "must"), "auto_keep": (False, True),
        "triples_across": (False, True), "penalty": (0, 500), "takeover": (False, True),
        "exact": (False, True), "finish": ("last_turn", "round", "exact", "immediate"),
        "tie": ("trigger", "playoff"),
    }
    for name in PRESETS:
        for k in KEYS:
            for v in values[k]:
                _settled(preset(name), k, v)


def test_entry_from_zero_to_target():
    _bad("entry", entry=10050)
    _bad("entry", target=4000, entry=4050)
    _bad("entry", entry=-50)
    _bad("entry", entry=120)
    _bad("entry", entry="350")
    for entry in (0, 50, 300, 350, 500, 1000, 10000):
        assert Rules(entry=entry).entry == entry
    assert Rules(target=4000, entry=4000).entry == 4000


def test_bad_penalty():
    _bad("penalty", penalty=120)
    _bad("penalty", penalty=-500)
    _bad("penalty", penalty="500")
    for penalty in (0, 500, 1000):
        assert Rules(penalty=penalty).penalty == penalty


def test_bad_choices_and_flags():
    _bad("hot_dice", hot_dice="x")
    _bad("auto_keep", auto_keep="yes")
    _bad("takeover", takeover="no")
    _bad("triples_across", triples_across=None)
    _bad("exact", exact=2, finish="exact")
    _bad("tie", tie="coin")
    _bad("ones_triple", ones_triple=500)
    assert Rules(hot_dice="must").hot_dice == "must"
    assert Rules(tie="playoff").tie == "playoff"
    assert Rules(ones_triple=300).ones_triple == 300
    assert Rules(auto_keep=True).auto_keep is True


def test_bad_points_options():
    _bad("small_straights", small_straights=(500,))
    _bad("small_straights", small_straights=500)
    _bad("small_straights", small_straights=(500, 750, 1000))
    _bad("small_straights", small_straights=(500, 120))
    _bad("small_straights", small_straights=(-500, 750))
    _bad("straight", straight=1234)
    _bad("three_pairs", three_pairs=-750)
    _bad("quad_pair", quad_pair=1501)
    _bad("two_triplets", two_triplets="2500")
    assert Rules(small_straights=(500, 750)).small_straights == (500, 750)
    assert Rules(small_straights=[1000, 2000]).small_straights == (1000, 2000)
    assert Rules(three_pairs=750).three_pairs == 750
    assert Rules(three_pairs=500).three_pairs == 500


# ---------------------------------------------------------------- replace


def test_replace_returns_new_checked_rules():
    base = Rules()
    changed = base.replace(entry=350, hot_dice="must")
    assert changed is not base
    assert isinstance(changed, Rules)
    assert changed.entry == 350 and changed.hot_dice == "must"
    assert changed == preset("kneipe")
    assert base == Rules()
    assert base.entry == 0 and base.hot_dice == "may"


def test_replace_leaves_a_preset_alone():
    kneipe = preset("kneipe")
    higher = kneipe.replace(entry=500)
    assert higher.entry == 500 and higher.hot_dice == "must"
    assert kneipe.entry == 350
    assert preset("kneipe").entry == 350
    assert preset("kneipe") == kneipe
    assert higher.preset_key() is None and kneipe.preset_key() == "kneipe"


def test_replace_checks_the_combination():
    base = Rules()
    _replace_bad(base, "straight", dice=5)
    _replace_bad(base, "target", target=10010)
    _replace_bad(base, "exact", exact=True)
    exc = raises(ValueError, base.replace, colour="red")
    assert _names(exc, "colour")
    assert base == Rules()
    five = base.replace(dice=5, straight=0, three_pairs=0, n_of_kind="triple_only",
                        entry=350, finish="round", tie="playoff")
    assert five == preset("fuenf")


def _replace_bad(rules, key, **changes):
    exc = raises(ValueError, rules.replace, **changes)
    assert _names(exc, key), (key, changes, str(exc))


def test_replace_without_changes_is_equal():
    r = preset("international")
    copy = r.replace()
    assert copy == r
    assert copy.to_dict() == r.to_dict()


# ---------------------------------------------------------------- encoding


def _custom_rules():
    return [
        Rules(target=5000, entry=500, penalty=1000, takeover=True),
        Rules(dice=5, straight=0, three_pairs=0, n_of_kind="five_flat",
              small_straights=(1000, 2000), triples_across=True),
        Rules(n_of_kind="add", three_pairs=750, small_straights=(500, 500), finish="immediate"),
        Rules(ones_triple=300, straight=0, quad_pair=1500, tie="playoff", hot_dice="must"),
        Rules(target=50, entry=50, exact=True, finish="exact", auto_keep=True),
    ]


def test_encode_decode_round_trip():
    for key in PRESETS:
        r = preset(key)
        text = r.encode()
        assert text.startswith("R1,")
        back = Rules.decode(text)
        assert back == r, key
        assert back.to_dict() == r.to_dict(), key
        assert back.encode() == text
    for r in _custom_rules():
        back = Rules.decode(r.encode())
        assert back == r
        assert back.to_dict() == r.to_dict()


def test_encode_is_text_with_every_option():
    text = Rules().encode()
    assert isinstance(text, str)
    assert len(text.split(",")) == len(KEYS) + 1


def test_decode_garbage_raises():
    good = Rules().encode()
    for text in (
        "", "R1", "garbage", "R2" + good[2:], good + ",1", good[: good.rfind(",")],
        good.replace("double", "dbl"), good.replace("10000", "ten"),
        good.replace("0/0", "0-0"), good.replace(",may,0,", ",may,2,"),
        good.replace(",6,", ",4,", 1), "R1" + "," * len(KEYS),
    ):
        raises(ValueError, Rules.decode, text)
    raises(ValueError, Rules.decode, None)
    raises(ValueError, Rules.decode, 5)
    raises(ValueError, Rules.decode, good.encode())


# ---------------------------------------------------------------- fingerprint


def _is_hex8(text):
    if len(text) != 8:
        return False
    for ch in text:
        if ch not in "0123456789abcdef":
            return False
    return True


def test_fingerprint_shape_and_equality():
    fp = Rules().fingerprint()
    assert isinstance(fp, str)
    assert _is_hex8(fp), fp
    assert Rules().fingerprint() == preset("zehntausend").fingerprint()
    assert Rules(entry=350, hot_dice="must").fingerprint() == preset("kneipe").fingerprint()
    prints = [preset(key).fingerprint() for key in PRESETS]
    for fp in prints:
        assert _is_hex8(fp), fp
    assert len(set(prints)) == len(PRESETS)
    assert Rules(target=5000).fingerprint() != Rules().fingerprint()


def test_fingerprint_hard_coded():
    # Same value on CPython and MicroPython.
    assert Rules().fingerprint() == FINGERPRINT_DEFAULT
    assert preset("punktlandung").fingerprint() == FINGERPRINT_PUNKTLANDUNG
    assert Rules().fingerprint() == "%08x" % crc32_pure(Rules().encode().encode())


# ---------------------------------------------------------------- preset_key


def test_preset_key():
    for key in PRESETS:
        assert preset(key).preset_key() == key
    assert Rules().preset_key() == "zehntausend"
    assert Rules(entry=350, hot_dice="must").preset_key() == "kneipe"
    assert Rules().replace(ones_triple=300, n_of_kind="fixed", quad_pair=1500,
                           two_triplets=2500).preset_key() == "international"
    assert Rules(entry=350).preset_key() is None
    assert preset("farkle4000").replace(target=10000).preset_key() is None
    assert preset("fuenf").replace(target=5000).preset_key() is None


def test_preset_gives_the_rules_in_use_and_knows_decoded_ones():
    kneipe = preset("kneipe")
    assert preset("kneipe") is kneipe  # compared by its options, not made again
    assert kneipe == Rules(entry=350, hot_dice="must")
    for key in PRESETS:
        assert Rules.decode(preset(key).encode()).preset_key() == key
        assert preset(key).encode() == Rules(**preset(key).to_dict()).encode()


# ---------------------------------------------------------------- crc32


def test_crc32_known_value():
    assert crc32(b"123456789") == 0xCBF43926
    assert crc32_pure(b"123456789") == 0xCBF43926
    assert crc32(b"") == 0
    assert crc32_pure(b"") == 0


def test_crc32_pure_equals_crc32():
    samples = [
        b"", b"a", b"abc", b"123456789", b"\x00", b"\xff\xff\xff\xff",
        bytes(range(256)), Rules().encode().encode(),
        b"The quick brown fox jumps over the lazy dog",
    ]
    for data in samples:
        assert crc32_pure(data) == crc32(data), data
        assert 0 <= crc32(data) <= 0xFFFFFFFF
    assert crc32(b"The quick brown fox jumps over the lazy dog") == 0x414FA339


def test_crc32_running_value():
    whole = crc32(b"123456789")
    assert crc32(b"6789", crc32(b"12345")) == whole
    assert crc32_pure(b"6789", crc32_pure(b"12345")) == whole


def test_floats_for_int_choices_are_refused():
    assert _names(raises(ValueError, Rules, dice=6.0), "dice")
    assert _names(raises(ValueError, Rules, ones_triple=1000.0), "ones_triple")


def test_points_and_target_have_an_upper_bound():
    assert _names(raises(ValueError, Rules, straight=5000000), "straight")
    assert _names(raises(ValueError, Rules, small_straights=(200000, 0)), "small_straights")
    assert _names(raises(ValueError, Rules, target=10000000), "target")
    big = Rules(straight=100000)
    from engine.scoring import score_keep

    assert score_keep([1, 2, 3, 4, 5, 6], big) == 100000
    assert score_keep([1, 2, 3, 4, 5, 6], big) == 100000  # memo hit
