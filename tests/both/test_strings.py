"""Both languages have every text, with the same placeholders; the packed
texts the device loads say the same as the written ones; only the language
in use stays loaded."""

import sys

from firmware import strings
from tools.texts import de, en


def _holes(text):
    return [part[0] for part in text.split("%")[1:] if part]


def test_german_and_english_have_the_same_keys():
    assert sorted(de.TEXTS) == sorted(en.TEXTS)


def test_placeholders_match():
    for key in de.TEXTS:
        assert _holes(de.TEXTS[key]) == _holes(en.TEXTS[key]), key


def test_every_packed_text_reads_back():
    for lang, texts in (("de", de.TEXTS), ("en", en.TEXTS)):
        for key in texts:
            assert strings.text(lang, key) == texts[key], (lang, key)


def test_lookup_and_unknown_keys():
    assert strings.text("de", "new_game") == "Neues Spiel"
    assert strings.text("en", "new_game") == "New game"
    assert strings.text("en", "no-such-key") == "no-such-key"
    assert strings.text("de", "") == ""


def test_only_one_language_is_held():
    strings.text("en", "new_game")
    assert "firmware.texts_de" not in sys.modules
    strings.text("de", "new_game")
    assert "firmware.texts_en" not in sys.modules
