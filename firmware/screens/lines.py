"""The standings as list lines, with their marks: a game's and the score
pad's (firmware.screens.wrap breaks a text to the screen's width)."""


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


def need_of(table, i):
    """The points seat `i` of `table` (a game or the score pad) needs to
    bank to go ahead of every other active seat (their best total + 50
    less its own), 0 when it is ahead already."""
    seats = table.seats
    best = 0
    for j in range(len(seats)):
        if j != i and seats[j].active and seats[j].score > best:
            best = seats[j].score
    return max(0, best - seats[i].score + 50)


def race(game):
    """Where the seat to move stands on banked points alone (the turn's
    points are shown apart and may still be lost): ("need", points) in the
    final round while it is not ahead (the points that put it ahead: the
    best other total + 50 - its own), else ("lead", points ahead) or
    ("behind", points behind the best other total); None when level or
    alone at the table."""
    seats = game.seats
    current = game.current
    mine = seats[current].score
    best = -1
    for i in range(len(seats)):  # (no list of the active seats: the header asks every frame)
        seat = seats[i]
        if i != current and seat.active and seat.score > best:
            best = seat.score
    if best < 0:
        return None
    if game.final >= 0 and mine <= best:
        return ("need", best - mine + 50)
    if mine > best:
        return ("lead", mine - best)
    return None if mine == best else ("behind", best - mine)  # level: nothing to say
