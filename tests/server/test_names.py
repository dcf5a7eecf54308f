"""Names a person cannot tell apart are refused (issue 31), through a
real server: an invisible name (U+3164 HANGUL FILLER alone, and other
blank or default-ignorable characters), and a look-alike of a name in
the room (NFKC plus a small table of Cyrillic, Greek, Armenian and
Cherokee letters drawn like Latin ones), each with its reason in German and English."""

import re

import pytest

from server.client import ServerRefused, create_room, http, join_room
from server.names import skeleton, visible_name


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164", "\u115f", "\uffa0 \u3164"])
def test_invisible_names_refused(server, name):
    with pytest.raises(ServerRefused) as e:
        create_room(server.base, name)
    assert e.value.status == 400 and e.value.why == "name_invisible"
    info = create_room(server.base, "Anna")
    with pytest.raises(ServerRefused) as e:
        join_room(server.base, info["code"], name)
    assert e.value.why == "name_invisible"


@pytest.mark.parametrize("taken, lookalike", [
    ("Ann", "\u0410nn"),  # Cyrillic A
    ("Olga", "\u039flga"),  # Greek capital omicron
    ("Bert", "\uff22\uff45\uff52\uff54"),  # fullwidth: NFKC
    ("Joey", "Jo\u3164ey"),  # a filler inside
    ("Ian", "lan"),  # capital I and small l
    ("Bob", "B0b"),
    ("Cleo", "\u0421l\u0435\u043e"),  # Cyrillic C, e, o
    ("Ann", "An\u0578"),  # Armenian vo
    ("Ann", "\u13aann"),  # Cherokee go
    ("Anna", "\u0251nna"),  # Latin alpha
    ("Emma", "Ernma"),  # "rn" reads as "m"
])
def test_lookalike_of_a_name_in_the_room_refused(server, taken, lookalike):
    info = create_room(server.base, taken, people=3)
    with pytest.raises(ServerRefused) as e:
        join_room(server.base, info["code"], lookalike)
    assert e.value.status == 400 and e.value.why == "name_lookalike", lookalike
    # A different name still joins, and the room shows both as sent.
    join_room(server.base, info["code"], "Dora")
    seats = http(server.base, "GET", "/api/rooms/" + info["code"])["seats"]
    names = [s and s["name"] for s in seats]
    assert names[:2] == [taken, "Dora"]


def test_names_that_only_resemble_are_not_lookalikes():
    assert skeleton("Anna") != skeleton("Ana")
    assert skeleton("Müller") != skeleton("Muller")  # an umlaut is seen
    assert skeleton("Jan") != skeleton("Jon")
    assert visible_name("A\u3164") and not visible_name("\u3164")


def test_reasons_in_both_languages(server):
    reasons = http(server.base, "GET", "/api/reasons")
    for key in ("name_invisible", "name_lookalike"):
        assert reasons["de"][key] and reasons["en"][key]
        assert reasons["de"][key] != reasons["en"][key]


# A finite verb of each language: a reason without one is a fragment
# ("Nachricht zu groß"), not the sentence a person is told.
VERBS = {
    "de": {"ist", "bist", "sind", "gibt", "hat", "braucht", "kann", "können", "bleibt", "läuft",
           "kamen", "gehört", "gehen", "wurden", "kam", "wechselt", "erreicht", "spielt",
           "übernimmt", "verstanden", "begonnen", "passiert", "verloren"},
    "en": {"is", "are", "has", "have", "needs", "can", "cannot", "stays", "came", "belongs",
           "were", "does", "did", "happened", "lost", "takes", "comes", "exist", "work"},
}


def test_every_reason_is_a_whole_sentence_in_both_languages(server):
    # (what the page shows: GET /api/reasons, server/reasons.py; issue 50)
    reasons = http(server.base, "GET", "/api/reasons")
    assert set(reasons["de"]) == set(reasons["en"])
    for lang, texts in reasons.items():
        for key, text in texts.items():
            assert text[0].isupper() and text.endswith((".", "!", "?")), (lang, key, text)
            words = set(re.findall(r"[^\W\d_]+", text.lower()))
            assert words & VERBS[lang], (lang, key, text)
    # a name's refusal says what is allowed, the signs too
    for lang in ("de", "en"):
        assert "- _ . '" in reasons[lang]["name"], reasons[lang]["name"]
