"""The browser page's made files beside the app (tools/web.py build calls
`write_all`): its rules pages, its icons, its web manifest and the list of
files its service worker keeps for offline use.

- `rules-de.html`, `rules-en.html`: the rules as the device's help tells
  them (firmware/screens/help.py's pages for the default rules, in the
  game's own words), one language per page;
- `icon-192.png`, `icon-512.png`: a die showing five, drawn from the pip
  layout the device uses (firmware.ui), as whole pixels;
- `manifest.webmanifest`: name, colours, icons, so the page can be installed.
"""

import html
import json
import tempfile
from pathlib import Path

LANGS = ("de", "en")
BACK = "#1b1d22"  # the page's background (web/index.html)
INK = (200, 230, 255)  # the game's lit pixel (web/host.js ON)
PAPER = (27, 29, 34)
ICONS = ((192, 24), (512, 32))  # (px, game pixels across): whole pixels per game pixel
TITLES = {"de": "Zehntausend: die Regeln", "en": "Zehntausend: the rules"}
BACK_LINK = {"de": "Zurück zum Spiel", "en": "Back to the game"}
INTRO = {
    "de": "So steht es in der Hilfe des Spiels (Regeln & Hilfe), für die Standardregeln. "
          "Im Spiel lassen sich andere Regeln wählen; die Hilfe beschreibt dann diese.",
    "en": "As the game's help (Rules & help) tells it, for the default rules. Other rules "
          "can be chosen in the game; the help then describes those.",
}


def rules_pages():
    """{lang: html} of the rules pages, from the device's help pages."""
    from engine.rules import Rules
    from firmware.screens.help import PAGES, page_lines
    from simulator.host import Sim

    out = {}
    with tempfile.TemporaryDirectory() as data:
        app = Sim("pico_ssd1306_i2c", data, seed=1).app
        for lang in LANGS:
            app.lang = lang
            parts = []
            for key in PAGES:
                parts.append("<h2>%s</h2>" % html.escape(app.t(key)))
                items = "".join("<li>%s</li>" % html.escape(line)
                                for line in page_lines(app, key, Rules()) if line)
                parts.append("<ul>%s</ul>" % items)
            out[lang] = PAGE % {
                "lang": lang, "title": html.escape(TITLES[lang]), "intro": html.escape(INTRO[lang]),
                "back": html.escape(BACK_LINK[lang]), "body": "\n".join(parts)}
    return out


PAGE = """<!doctype html>
<html lang="%(lang)s">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="icon-192.png" type="image/png">
<title>%(title)s</title>
<style>
  body { margin: 0 auto; max-width: 40em; padding: 12px 16px; background: #1b1d22; color: #ccd;
         font: 16px/1.5 system-ui, sans-serif; }
  a { color: #9cf; } h1 { color: #e6e6e6; } h2 { color: #e6e6e6; font-size: 1.15em; }
</style>
</head>
<body>
<main>
<p><a href="./">%(back)s</a></p>
<h1>%(title)s</h1>
<p>%(intro)s</p>
%(body)s
</main>
</body>
</html>
"""


def die_rows(cells):
    """A die showing five, 17 game pixels wide as on the 128x64 screen,
    centred in `cells` x `cells`, as rows of '#' and '.'."""
    from firmware.ui import _DIE_GEOMETRY, _PIPS

    size = 17
    pip, grid = _DIE_GEOMETRY[size]
    lit = set()
    for i in range(size):
        lit.update({(i, 0), (i, size - 1), (0, i), (size - 1, i)})
    for col, row in _PIPS[5]:
        for dx in range(pip):
            for dy in range(pip):
                lit.add((grid[col] + dx, grid[row] + dy))
    at = (cells - size) // 2
    return ["".join("#" if (x - at, y - at) in lit else "." for x in range(cells))
            for y in range(cells)]


def write_icons(out):
    """The PNG icons into folder `out`; returns their names."""
    from simulator.host import write_png

    names = []
    for px, cells in ICONS:
        name = "icon-%d.png" % px
        write_png(str(Path(out) / name), die_rows(cells), px // cells, INK, PAPER)
        names.append(name)
    return names


def manifest():
    """The web manifest (JSON text)."""
    return json.dumps({
        "name": "Zehntausend",
        "short_name": "Zehntausend",
        "description": "Das Würfelspiel Zehntausend / the dice game 10000",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": BACK,
        "theme_color": BACK,
        "lang": "de",
        "icons": [{"src": "icon-%d.png" % px, "sizes": "%dx%d" % (px, px), "type": "image/png",
                   "purpose": "any"} for px, _ in ICONS],
    }, ensure_ascii=False, indent=1)


def write_all(out):
    """Rules pages, icons and manifest into folder `out`; returns the names written."""
    out = Path(out)
    names = []
    for lang, text in rules_pages().items():
        name = "rules-%s.html" % lang
        (out / name).write_text(text, encoding="utf-8")
        names.append(name)
    names += write_icons(out)
    (out / "manifest.webmanifest").write_text(manifest(), encoding="utf-8")
    names.append("manifest.webmanifest")
    return names
