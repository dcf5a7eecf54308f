"""Rules & help through the headless simulator: reachable from the title
and from a game's standings; for every preset the scoring table, the
options with the decisions of docs/rules.md, the odds from engine.odds, the
rules of thumb and tactics with their numbers from engine.odds; every line
fits both screens in both languages."""

from engine import odds
from engine.rules import PRESETS, preset
from firmware import strings
from firmware.screens import help as helpmod
from simulator.host import Sim
from tests.cpython.simdriver import new_game, press
from tools.texts import de as texts_de

BOARDS = ("pico_ssd1306_i2c", "thumby")


def _to_index(sim, index):
    while sim.state()["index"] != index:
        press(sim, "DOWN")


def _open_help(sim):
    labels = sim.app.top().labels(sim.app)
    _to_index(sim, labels.index(sim.app.t("help")))
    press(sim, "A")
    assert sim.state()["screen"] == "help"


def _page(sim, n):
    """Open page n (1-based row of the help menu); its wrapped lines."""
    _to_index(sim, n)
    press(sim, "A")
    assert sim.state()["screen"] == "text"
    return sim.app.top().lines(sim.app)


def test_every_page_of_every_preset_from_the_title(tmp_path):
    for board in BOARDS:
        for lang in ("de", "en"):
            sim = Sim(board, str(tmp_path / (board + lang)), 1)
            sim.app.lang = lang
            _open_help(sim)
            ui = sim.app.ui
            for k, key in enumerate(PRESETS):
                rules = preset(key)
                assert sim.state()["rules"] == rules.encode()
                title = sim.app.top().labels(sim.app)[0]
                assert title == strings.text(lang, "help_rules_of") % strings.text(
                    lang, "preset_" + key)
                for n in range(1, len(helpmod.PAGES) + 1):
                    lines = _page(sim, n)
                    for line in lines:
                        assert ui.width(line) <= ui.w - ui.width("↓") - 2, (board, line)
                    text = " ".join(lines)
                    page = helpmod.PAGES[n - 1]
                    if page == "help_options":
                        # The decisions of docs/rules.md show for every preset.
                        for dec in ("dec_penalty", "dec_takeover"):
                            assert strings.text(lang, dec) in text, (key, dec)
                    if page == "help_odds":
                        num, den = odds.score_chance(rules.dice, rules)
                        if sim.app.big:
                            assert "%d/%d" % (num, den) in text
                    # Scroll to the end and back by keys.
                    rows = sim.app.top()._rows(sim.app)
                    press(sim, *["DOWN"] * (len(lines) + 1))
                    assert sim.state()["first"] == max(0, len(lines) - rows)
                    press(sim, "LEFT")
                    press(sim, "B")
                    assert sim.state()["screen"] == "help"
                _to_index(sim, 0)
                press(sim, "RIGHT")
                if k == len(PRESETS) - 1:
                    assert sim.state()["rules"] == preset(PRESETS[0]).encode()
            press(sim, "B")
            assert sim.state()["screen"] == "title"


def test_scoring_lines_follow_the_rules():
    class App:
        lang = "de"
        big = True

        def t(self, key):
            return strings.text(self.lang, key)

    app = App()
    z = " ".join(helpmod.scoring_lines(app, preset("zehntausend")))
    assert "Drei 1er: 1000" in z and "4x2 = 400, 5x1 = 4000" in z
    assert "Straße 1-6: 1500" in z and "Drei Paare: 1500" in z
    assert "1 1 5 legen bringt 250" in z
    f = " ".join(helpmod.scoring_lines(app, preset("fuenf")))
    assert "4x5 = 550" in f and "Straße 1-6" not in f and "Drei Paare" not in f
    i = " ".join(helpmod.scoring_lines(app, preset("international")))
    assert "Drei 1er: 300" in i and "1000, 2000, 3000" in i
    assert "Vier Gleiche + Paar: 1500" in i and "Zwei Drillinge: 2500" in i
    s = " ".join(helpmod.scoring_lines(app, preset("farkle4000")))
    assert "Straße 1-5: 500, 2-6: 750" in s
    o = " ".join(helpmod.option_lines(app, preset("punktlandung")))
    assert texts_de.TEXTS["op_exact"] in o and texts_de.TEXTS["op_takeover"] in o
    assert texts_de.TEXTS["op_entry"] % 350 in o and texts_de.TEXTS["op_auto_keep"] in o
    d = helpmod.odds_lines(app, preset("zehntausend"))
    assert "6 W.: 97,7% 45576/46656" in d
    assert "1 W.: 33,3% 2/6" in d


def test_rules_of_thumb_and_tactics_by_keys(tmp_path):
    for board in BOARDS:
        for lang in ("de", "en"):
            sim = Sim(board, str(tmp_path / (board + lang)), 1)
            sim.app.lang = lang
            t = sim.app.t
            _open_help(sim)
            for key in PRESETS:
                rules = preset(key)
                hits = [int((1 - odds.farkle_chance(n, rules)) * 100 + 0.5) for n in (1, 2, 5)]
                text = " ".join(_page(sim, 1 + helpmod.PAGES.index("help_thumb")))
                # The numbers come from the odds of these rules: 92% with five
                # dice, 56% with two, one roll in three with one.
                assert t("th_five") % hits[2] in text, (board, lang, key, text)
                assert t("th_two") % hits[1] in text
                assert t("th_one") % (1, 3, hits[0]) in text
                if key == "zehntausend":
                    assert hits == [33, 56, 92]
                press(sim, "B")
                text = " ".join(_page(sim, 1 + helpmod.PAGES.index("help_tactics")))
                risk = int(odds.farkle_chance(2, rules) * 100 + 0.5)
                gain = int(odds.expected_best(2, rules) + 0.5)
                assert t("tt_bank") % (risk, gain) in text, (board, lang, key)
                assert (t("tt_entry") % rules.entry in text) == (rules.entry > 300)
                assert t("tt_behind") in text and t("tt_ahead") in text
                if key == "zehntausend":  # rolling on risks 133 for a mean 50: bank
                    assert (risk, gain) == (44, 50)
                press(sim, "B")
                _to_index(sim, 0)
                press(sim, "RIGHT")


def test_help_from_the_standings_shows_the_games_rules(tmp_path):
    sim = Sim("thumby", str(tmp_path), 8)
    new_game(sim, "kneipe", ["", "mutig"])
    if sim.state()["screen"] == "play":
        press(sim, "B")
    else:
        press(sim, "B")  # the hand-over opens the standings
    assert sim.state()["screen"] == "standings"
    labels = sim.app.top().labels(sim.app)
    _to_index(sim, labels.index(sim.app.t("help")))
    press(sim, "A")
    assert sim.state()["rules"] == preset("kneipe").encode()
    lines = _page(sim, 3)
    assert sim.app.t("op_hot_must").split()[0] in " ".join(lines)
    press(sim, "B", "B", "B")
    assert sim.state()["screen"] in ("handover", "play")


def test_wrap_breaks_long_words():
    class Ui:
        w = 40

        def width(self, s):
            return 4 * len(s)

    class App:
        ui = Ui()

    from firmware.screens.wrap import wrap

    lines = wrap(App(), "ab Donaudampfschifffahrt cd\nef")
    assert all(len(s) <= 10 for s in lines)
    assert "".join(lines).replace(" ", "") == "abDonaudampfschifffahrtcdef"


def _wrap_by_trials(ui, text, width):
    """The wrap that measures every trial line whole: the reference for
    firmware.screens.wrap, which adds up each word's width once."""
    out = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            trial = word if not line else line + " " + word
            if ui.width(trial) <= width:
                line = trial
                continue
            if line:
                out.append(line)
            while ui.width(word) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and ui.width(word[:cut]) > width:
                    cut -= 1
                out.append(word[:cut])
                word = word[cut:]
            line = word
        out.append(line)
    return out


def test_wrap_adds_up_widths_as_measuring_the_whole_line_would():
    from firmware.screens.wrap import wrap
    from tools.texts import en as texts_en

    odd = ["a  b", " lead", "trail ", "x" * 60 + " y", "", "  ", "Ä ß…→ • ok\nnext  line"]
    for board in BOARDS:
        app = Sim(board=board).app
        for width in (app.ui.w - 1, app.ui.w - app.ui.width("↓") - 2, 30):
            for texts in (texts_de.TEXTS, texts_en.TEXTS):
                for text in list(texts.values()) + odd:
                    text = text if "%" not in text else text.replace("%", "9")
                    assert wrap(app, text, width) == _wrap_by_trials(app.ui, text, width), text
