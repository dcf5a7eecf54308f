"""Every refusal the engine can give has a text in German and English that
fits the status line of both layouts.

The engine refuses with reason keys and values (engine.game.REASONS,
engine.scorepad.REASONS, engine.rules.REASONS); the screens show
"why_" + key, "pad_err_" + key and "rule_why_" + key filled by `App.tf`.
A scan of the engine's source finds every key literal it can raise, so a
new refusal without its place in REASONS (and so without texts) fails here.
"""

import re
from pathlib import Path

import pytest

from engine import game, rules, scorepad
from firmware import font
from firmware.screens.rules_edit import SHORT
from tools.texts import de, en

ROOT = Path(__file__).resolve().parent.parent.parent
LANGS = {"de": de.TEXTS, "en": en.TEXTS}

# Long values each refusal can carry (the rest carry none): the largest
# numbers, but a long real name and a mistyped three-digit score (the
# text-fit test, tests/cpython/test_text_fit.py, measures four digits).
GAME_VALUES = {"not_on_table": (6,), "past_target": (100000,), "entry": (100000,),
               "full": (game.MAX_SEATS,), "name": (game.MAX_NAME,)}
PAD_VALUES = {"seats": (game.MAX_SEATS,), "name": (game.MAX_NAME,),
              "name_taken": ("Maximilian12",), "pad_full": (scorepad.MAX_LOG,),
              "no_seat": (31,), "full": (game.MAX_SEATS,), "rows": (scorepad.MAX_ROWS,),
              "negative": (-99950,), "step": (120, 100, 150),
              "too_many": (scorepad.MAX_POINTS, 999950)}
RULE_VALUES = {"target": (rules.MAX_POINTS,), "points": (rules.MAX_POINTS,),
               "entry": (rules.MAX_POINTS,)}


def _source_keys(name, pattern):
    text = (ROOT / "engine" / (name + ".py")).read_text()
    return set(re.findall(pattern, text))


def test_the_engine_raises_only_listed_keys():
    """The reason keys written in the engine's source are exactly REASONS."""
    found = _source_keys("game", r'\("([a-z_]+)", \((?:\)|[^"]*?,\))\)')
    assert found == set(game.REASONS), found ^ set(game.REASONS)
    found = _source_keys("scorepad", r'PadError\((?:"[^"]*"(?:\s*%\s*(?:\([^)]*\)|[A-Za-z_.]+))?'
                                      r'|str\(e\)),\s*"([a-z_]+)"')
    assert found == set(scorepad.REASONS), found ^ set(scorepad.REASONS)
    found = _source_keys("rules", r'_fail\([^,()]+, "([a-z_]+)"')
    assert found == set(rules.REASONS), found ^ set(rules.REASONS)


def _fill(texts, key, values):
    text = texts[key]
    n = text.count("%")
    assert n <= len(values), (key, text, values)  # a text never asks for more
    return text % tuple(values[:n]) if n else text


CASES = ([("why_" + k, GAME_VALUES.get(k, ())) for k in game.REASONS]
         + [("pad_err_" + k, PAD_VALUES.get(k, ())) for k in scorepad.REASONS])


@pytest.mark.parametrize("lang", sorted(LANGS))
@pytest.mark.parametrize("key, values", CASES)
def test_refusals_are_translated_and_fit(lang, key, values):
    texts = LANGS[lang]
    assert key in texts, "%s has no %s" % (lang, key)
    line = _fill(texts, key, values)
    # The play and pad screens show a refusal on one status line.
    assert font.SMALL.width(line) <= 72, (lang, line)
    assert font.REGULAR.width(line) <= 128, (lang, line)


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_rules_refusals_are_translated(lang):
    texts = LANGS[lang]
    for key in rules.REASONS:
        values = ("Label",) + RULE_VALUES.get(key, ())
        assert _fill(texts, "rule_why_" + key, values)
    for key in SHORT:
        assert key in rules.REASONS
        assert _fill(texts, "rule_why_" + key + "_short", ("Label",))


def test_app_fills_only_the_placeholders_a_text_has(tmp_path):
    from simulator.host import Sim

    sim = Sim("thumby", str(tmp_path), 1)
    app = sim.app
    for lang in LANGS:
        app.lang = lang
        assert app.tf("why_entry", (350,)) == LANGS[lang]["why_entry"] % 350
        assert app.tf("why_hot_must", ()) == LANGS[lang]["why_hot_must"]
        assert app.tf("rule_why_entry", ("x", 500)) == LANGS[lang]["rule_why_entry"]


@pytest.mark.parametrize("board", ["pico_ssd1306_i2c", "thumby"])
def test_play_screen_shows_the_engines_bank_refusal(tmp_path, board):
    """Keep one single and bank below the entry of 350: the play screen asks
    the engine (Game.bank_refusal) and shows its reason in the player's
    language; nothing is kept or banked."""
    from simulator.host import Sim
    from tests.cpython.simdriver import new_game, press

    for lang in LANGS:
        sim = Sim(board, str(tmp_path / lang), 3)
        sim.app.lang = lang
        new_game(sim, "kneipe", [""])
        for _ in range(40):
            state = sim.state()
            if state["phase"] == "keep" and (1 in state["roll"] or 5 in state["roll"]):
                break
            press(sim, "A")  # roll, or pass a farkle on
        else:
            raise AssertionError("no single 1 or 5 in 40 rolls")
        press(sim, "A", "DOWN")  # the die under the cursor (a 1 or a 5), then bank
        after = sim.state()
        assert after["phase"] == "keep" and after["turn_total"] == state["turn_total"]
        assert after["message"] == LANGS[lang]["why_entry"] % 350
