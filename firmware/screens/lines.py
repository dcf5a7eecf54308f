"""Text helpers the screens share: a text wrapped to the screen's width,
a game's standings as list lines, a person's name until one is picked,
and where the seat to move stands in the race (the play header and the
hand-over say it)."""


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


def standing_marks(table, playing, ending, todo):
    """(seat, mark) for each seat of `table` (a game or the score pad), best
    first: "»" the seat to play (while `playing`), "•" a seat that still
    has a turn (in `todo`) in the final round or play-off round
    (`ending`), else " "."""
    out = []
    current = table.current
    for i in table.standings():
        if i == current and playing:
            mark = "»"
        elif ending and i != current and i in todo:
            mark = "•"
        else:
            mark = " "
        out.append((i, mark))
    return out


def marked_lines(app, table, marks, fit=True):
    """'1.»Anna 4550' lines for `marks` (standing_marks), a "•" after the
    score; with `fit` a long name gives way to the score (fitted to a list
    entry's width)."""
    lines = []
    ui = app.ui
    rank = 0
    for i, mark in marks:
        seat = table.seats[i]
        rank += 1
        line = "%d.%s%%s %d%s" % (rank, " " if mark == "•" else mark, seat.score,
                                  " •" if mark == "•" else "")
        lines.append(ui.fit_name(line, seat.name, ui.w - 4) if fit else line % seat.name)
    return lines


def standing_lines(app, game):
    """A game's standings (see marked_lines), best first: » marks the seat
    to play, • a seat that still has a turn in the final round or play-off
    round."""
    marks = standing_marks(game, game.phase != "over",
                           game.final >= 0 or game.playoff is not None, game.pending)
    return marked_lines(app, game, marks)


def default_name(app, number, taken):
    """A person's name for seat `number` until one is picked: "Spieler 2"
    at seat 2 (the next free number when that name is taken), never a
    saved name the player did not choose."""
    while True:
        name = app.t("player_n") % number
        if name not in taken:
            return name
        number += 1


def race(game):
    """Where the seat to move stands, its turn's points counted: ("need",
    points) in the final round while it is behind (the points that put it
    ahead: the best other total + 50), else ("lead", points ahead) or
    ("behind", points behind the best other total); None when level or
    alone at the table."""
    mine = game.seat().score + game.turn_total
    best = -1
    for i in game.active_seats():
        if i != game.current and game.seats[i].score > best:
            best = game.seats[i].score
    if best < 0:
        return None
    if game.final >= 0 and mine <= best:
        return ("need", best - mine + 50)
    if mine > best:
        return ("lead", mine - best)
    return None if mine == best else ("behind", best - mine)  # level: nothing to say
