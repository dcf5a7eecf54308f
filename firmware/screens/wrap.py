"""A text broken into lines that fit the screen (help pages, the rules
editor's explanations)."""

from firmware.font import SPACING


def wrap(app, text, width=None):
    """`text` broken into lines that fit `width` px (default: the screen);
    '\\n' starts a new line. Each word is measured once and a line's width
    added up (glyphs stand SPACING apart, so a joined text is as wide as
    its parts plus SPACING at each seam), instead of making every trial
    line as a new str and measuring it whole: less garbage, the same lines
    (tests/cpython/test_help_screens.py)."""
    ui = app.ui
    width = ui.w - 1 if width is None else width
    space = ui.width(" ") + SPACING  # a space and its seam before it
    out = []
    for para in text.split("\n"):
        line = ""
        size = 0  # the width of `line`
        for word in para.split(" "):
            wide = ui.width(word)
            if not line:
                trial = wide
            else:  # line + " " + word
                trial = size + space + (SPACING + wide if word else 0)
            if trial <= width:
                line = word if not line else line + " " + word
                size = trial
                continue
            if line:
                out.append(line)
            while wide > width and len(word) > 1:  # a word wider than the screen
                cut = len(word) - 1
                while cut > 1 and ui.width(word[:cut]) > width:
                    cut -= 1
                out.append(word[:cut])
                word = word[cut:]
                wide = ui.width(word)
            line = word
            size = wide
        out.append(line)
    return out
