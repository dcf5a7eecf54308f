"""Text helpers the screens share: a text wrapped to the screen's width,
and a game's standings as list lines."""


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


def standing_lines(app, game):
    """'1. Name 1234' lines, best first: » marks the seat to play, • a seat
    that still has a turn in the final round or play-off round. A long
    name gives way to the score (fitted to a list entry's width)."""
    lines = []
    ui = app.ui
    ending = game.final >= 0 or game.playoff is not None
    for rank, i in enumerate(game.standings()):
        seat = game.seats[i]
        mark = "»" if i == game.current and game.phase != "over" else " "
        last = " •" if ending and i in game.pending and i != game.current else ""
        line = "%d.%s%%s %d%s" % (rank + 1, mark, seat.score, last)
        lines.append(ui.fit_name(line, seat.name, ui.w - 4))
    return lines
