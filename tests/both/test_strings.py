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


def _app():
    import framebuf  # (CPython: the simulator's stand-in, installed by tests/conftest.py)

    from engine.dice import SeededDice
    from firmware.app import App
    from firmware.store import Store
    from tools.fakes.memfs import MemFS

    canvas = framebuf.FrameBuffer(bytearray(128 * 8), 128, 64, framebuf.MONO_VLSB)
    return App(canvas, 128, 64, Store(MemFS()), SeededDice(1), None, 0)


def test_the_apps_kept_texts_follow_the_language_and_the_screens():
    from firmware import app as app_mod

    app = _app()
    assert app.t("new_game") == de.TEXTS["new_game"]
    assert app.t("new_game") is app.t("new_game")  # kept: no second lookup
    assert list(app._memo) == ["new_game"]
    assert app.t("no_such_key") == "no_such_key"
    app.lang = "en"  # as the settings screen switches it
    assert app.t("new_game") == en.TEXTS["new_game"]
    assert app.tf("new_game") == en.TEXTS["new_game"]
    assert list(app._memo) == ["new_game"]  # the German texts went with the language
    app.push(app.top())  # any change of the stack starts the memo again
    assert app.t("target") == en.TEXTS["target"]
    assert list(app._memo) == ["target"]
    for key in list(en.TEXTS)[:app_mod.MEMO + 20]:  # more than it keeps: all still right
        assert app.t(key) == en.TEXTS[key]
    assert len(app._memo) == app_mod.MEMO
    for key in list(en.TEXTS)[:app_mod.MEMO + 20]:
        assert app.t(key) == en.TEXTS[key]
    app.lang = "de"
    for key in list(de.TEXTS)[:app_mod.MEMO + 20]:
        assert app.t(key) == de.TEXTS[key]


def test_the_help_book_loads_only_for_its_texts_and_goes_with_release():
    strings.release()
    strings.text("de", "new_game")
    assert "firmware.texts_de_help" not in sys.modules  # a main-book text needs no help book
    assert strings.text("de", "op_exact") == de.TEXTS["op_exact"]
    assert "firmware.texts_de_help" in sys.modules
    assert strings.text("de", "new_game") == de.TEXTS["new_game"]
    strings.release()
    assert "firmware.texts_de_help" not in sys.modules
    assert strings.text("de", "help_keys") == de.TEXTS["help_keys"]  # loads again
    strings.text("en", "new_game")  # another language lets both books go
    assert "firmware.texts_de_help" not in sys.modules
    assert "firmware.texts_en_help" not in sys.modules
    assert strings.text("en", "help_keys") == en.TEXTS["help_keys"]
    strings.release()
    assert strings.text("de", "no-such-key") == "no-such-key"  # looked for in both books
