"""Both languages have every text, with the same placeholders."""

from firmware import strings


def _holes(text):
    return [part[0] for part in text.split("%")[1:] if part]


def test_german_and_english_have_the_same_keys():
    assert sorted(strings.DE) == sorted(strings.EN)


def test_placeholders_match():
    for key in strings.DE:
        assert _holes(strings.DE[key]) == _holes(strings.EN[key]), key


def test_lookup_and_fallback():
    assert strings.text("de", "new_game") == "Neues Spiel"
    assert strings.text("en", "new_game") == "New game"
    assert strings.text("en", "no-such-key") == "no-such-key"
