"""A text broken into lines that fit the screen (help pages, the rules
editor's explanations)."""


def wrap(app, text, width=None):
    """`text` broken into lines that fit `width` px (default: the screen);
    '\\n' starts a new line."""
    ui = app.ui
    width = ui.w - 1 if width is None else width
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
            while ui.width(word) > width and len(word) > 1:  # a word wider than the screen
                cut = len(word) - 1
                while cut > 1 and ui.width(word[:cut]) > width:
                    cut -= 1
                out.append(word[:cut])
                word = word[cut:]
            line = word
        out.append(line)
    return out
