"""Saves survive a rule option added later.

`grow()` adds an option the way docs/contributing.md's checklist says (a
points option "bonus" appended to KEYS, its default the old behaviour, a
new encoding version R2) to the running engine.rules module; `undo` puts the
module back. Saves made before it (literal old texts and blobs written
by this code before growing) must still decode, mean the same, and keep
their encoding and so their fingerprint.
"""

from engine import rules
from engine.codec import decode_game, encode_game
from engine.dice import ScriptedDice
from engine.game import Game
from engine.rules import PRESETS, Rules, RulesError, preset
from tests.both.helpers import raises

# "kneipe" as version R1 wrote it, and its fingerprint (tables/ file names).
OLD_KNEIPE = "R1,6,10000,350,double,1000,1500,0/0,1500,0,0,must,0,0,0,0,0,last_turn,trigger"
OLD_KNEIPE_FINGERPRINT = "7f05501c"


def grow():
    """Add the option "bonus" (points, default 0) in encoding version R2;
    returns a function that takes it out again."""
    keys, defaults, versions = rules.KEYS, rules.DEFAULTS, rules.VERSIONS
    grown = dict(defaults)
    grown["bonus"] = 0
    rules.KEYS = keys + ("bonus",)
    rules.DEFAULTS = grown
    rules.VERSIONS = versions + (("R2", len(keys) + 1),)
    del rules._INTERNED[:]  # no Rules object of the old shape may be handed out

    def undo():
        rules.KEYS, rules.DEFAULTS, rules.VERSIONS = keys, defaults, versions
        del rules._INTERNED[:]

    return undo


def test_old_texts_decode_with_defaults_and_keep_their_fingerprint():
    before = [(preset(k).encode(), preset(k).fingerprint()) for k in PRESETS]
    undo = grow()
    try:
        for i, key in enumerate(PRESETS):
            text, fingerprint = before[i]
            old = Rules.decode(text)
            assert old.bonus == 0  # the new option's default: the old behaviour
            assert old.encode() == text and old.fingerprint() == fingerprint
            assert preset(key) == old and preset(key).fingerprint() == fingerprint
        kneipe = Rules.decode(OLD_KNEIPE)
        assert kneipe.fingerprint() == OLD_KNEIPE_FINGERPRINT
        expect = preset("kneipe").to_dict()
        expect["bonus"] = 0
        assert kneipe.to_dict() == expect
    finally:
        undo()


def test_the_new_option_is_written_in_the_new_version_only_when_set():
    undo = grow()
    try:
        plain = Rules(entry=350)
        assert plain.encode().startswith("R1,")  # nothing new to say
        with_bonus = Rules(entry=350, bonus=500)
        text = with_bonus.encode()
        assert text.startswith("R2,") and text.endswith(",500")
        assert Rules.decode(text) == with_bonus and Rules.decode(text).bonus == 500
        assert with_bonus.fingerprint() != plain.fingerprint()
        assert plain.replace(bonus=500) == with_bonus
        assert with_bonus.replace(bonus=0).encode() == plain.encode()
        # a text must hold exactly its version's options
        assert raises(RulesError, Rules.decode, "R2" + OLD_KNEIPE[2:]).key == "encoding"
        assert raises(RulesError, Rules.decode, OLD_KNEIPE + ",0").key == "encoding"
    finally:
        undo()
    # Firmware that does not know R2 refuses the text rather than misreading it.
    assert raises(RulesError, Rules.decode, text).key == "encoding"
    assert Rules.decode(OLD_KNEIPE) == preset("kneipe")


def test_an_old_game_save_resumes_after_the_option_is_added():
    faces = [3, 3, 3, 5, 2, 4, 1, 6]
    game = Game(preset("kneipe"), ["Anna", "Ben"], ScriptedDice(faces))
    game.apply(("roll",))
    game.apply(("keep", (3, 3, 3, 5)))  # mid-turn: 350 on the table, two dice left
    blob = bytes(encode_game(game))
    data = game.to_data()
    undo = grow()
    try:
        again = decode_game(blob, ScriptedDice([1, 6]))
        assert again.rules.bonus == 0 and again.rules.fingerprint() == OLD_KNEIPE_FINGERPRINT
        assert again.to_data() == data  # the same state, the same rules text
        assert bytes(encode_game(again)) == blob  # saved again: byte for byte the old save
        again.apply(("bank",))
        assert again.seats[0].score == 350
    finally:
        undo()
