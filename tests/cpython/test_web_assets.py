"""The browser page's made files (tools/web_assets.py): rules pages in
the device's words, one language each; PNG icons at whole pixels; a
manifest that names them."""

import json
import struct

from tools import web_assets


def test_rules_pages_tell_the_help_pages():
    from firmware.screens.help import PAGES
    from firmware.strings import text

    pages = web_assets.rules_pages()
    assert set(pages) == {"de", "en"}
    for lang, page in pages.items():
        assert '<html lang="%s">' % lang in page
        for key in PAGES:
            assert "<h2>%s</h2>" % text(lang, key).replace("&", "&amp;") in page, (lang, key)
    assert "Eine 1: 100" in pages["de"] and "A single 1: 100" in pages["en"]


def test_icons_and_manifest(tmp_path):
    names = web_assets.write_icons(tmp_path)
    manifest = json.loads(web_assets.manifest())
    assert [i["src"] for i in manifest["icons"]] == names
    for icon in manifest["icons"]:
        data = (tmp_path / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert "%dx%d" % (width, height) == icon["sizes"]
    rows = web_assets.die_rows(24)
    assert len(rows) == 24 and all(len(r) == 24 for r in rows)
    assert sum(r.count("#") for r in rows) == 4 * 16 + 5 * 9  # the rim and five 3x3 pips
