"""The page's text layer: a readable copy of what the app draws.

firmware.font.recorder is None on the device. The browser host sets it to
a `Recorder`, which hears every text Font.draw puts on the canvas and the
few drawing calls of firmware.ui that carry meaning: the title bar, the
hint line, a menu (all its entries, not only the rows in view), each die
(its face, picked or crossed out), the die cursor and a tip's marks. A
whole-screen fill starts a new frame (webhost.Canvas.fill calls `clear`).
Because it listens where every screen draws, a new screen cannot forget
its text layer.

`snapshot()` turns the last frame into plain data (host.js makes the DOM
from it): the title, the other lines top to bottom, the menu, the dice,
the hint and what each button does now, parsed from the hint line ("↑
würfeln  ↓ sichern" -> UP: würfeln, DOWN: sichern).

Written for reading, not for 128 pixels: the play screen's header is
said in whole words ("Anna: 1800 Punkte, 1050 vor Ben, dieser Zug +0",
`play_header`), a help page comes as its whole paragraphs (`paragraphs`:
the device's few-line window is a drawing matter), and where the cursor
is on a die, the arrows and A are named by what they do to it ("die 5
nehmen"). The words are the page's own (WORDS): they cost the device
nothing.
"""

from firmware import font

# The hint line's key signs and the buttons they stand for.
ARROWS = {"↑": "UP", "↓": "DOWN", "←": "LEFT", "→": "RIGHT"}
# Scroll marks a list draws at its right edge: the menu lists every entry.
SCROLL = ("↑", "↓")
GAP = 3  # px between two texts on one line that still read as one word


WORDS = {
    "de": {
        "points": "%s: %d Punkte", "turn": "dieser Zug %+d", "solo": "Zug %d",
        "lead": "%d vor %s", "behind": "%d hinter %s", "need": "%d fehlen, um an %s vorbeizuziehen",
        "level": "gleichauf mit %s",
        "final": "Schlussrunde: letzter Zug für %s, %d zum Sieg",
        "LEFT": "zum Würfel links", "RIGHT": "zum Würfel rechts",
        "take": "die %d nehmen", "drop": "die %d zurücklegen",
        "to_move": "am Zug", "to_come": "hat noch einen Zug",
    },
    "en": {
        "points": "%s: %d points", "turn": "this turn %+d", "solo": "turn %d",
        "lead": "%d ahead of %s", "behind": "%d behind %s", "need": "%d needed to pass %s",
        "level": "level with %s",
        "final": "Final round: last turn for %s, %d to win",
        "LEFT": "to the die on the left", "RIGHT": "to the die on the right",
        "take": "take the %d", "drop": "put the %d back",
        "to_move": "to move", "to_come": "still has a turn",
    },
}


def header_text(lang, game, points):
    """The play screen's header in whole words: whose turn, their total,
    where they stand against the best other seat, the turn's points."""
    from firmware.screens.lines import race

    w = WORDS.get(lang, WORDS["de"])
    seats = game.seats
    seat = seats[game.current]
    parts = [w["points"] % (seat.name, seat.score)]
    if len(seats) == 1:
        parts[0] = w["solo"] % (seat.turns + 1) + ", " + parts[0]
    else:
        best = None
        for i, other in enumerate(seats):
            if i != game.current and other.active and (best is None or other.score > best.score):
                best = other
        standing = race(game)
        if standing is not None and standing[0] == "need":  # the final round, named
            parts.insert(0, w["final"] % (seat.name, standing[1]))
        elif standing is not None and best is not None:
            parts.append(w[standing[0]] % (standing[1], best.name))
        elif best is not None:
            parts.append(w["level"] % best.name)
    parts.append(w["turn"] % points)
    return ", ".join(parts)


def standing_words(lang, text):
    """A standings line of the device ("1.»Anna 4550", "2. Ben 300 •":
    firmware.screens.lines) in words ("1. Anna: 4550 Punkte, am Zug");
    None for any other text."""
    i = 0
    while i < len(text) and text[i].isdigit():
        i += 1
    if i == 0 or i + 2 >= len(text) or text[i] != "." or text[i + 1] not in "» •":
        return None
    mark = text[i + 1]
    rest = text[i + 2:]
    if rest.endswith(" •"):
        rest = rest[:-2]
        mark = "•"
    name, _, score = rest.rpartition(" ")
    if not name or not score.isdigit():
        return None
    w = WORDS.get(lang, WORDS["de"])
    out = text[:i] + ". " + w["points"] % (name, int(score))
    if mark == "»":
        out += ", " + w["to_move"]
    elif mark == "•":
        out += ", " + w["to_come"]
    return out


def keys_of(hint):
    """What each button does, from a hint line: a dict button -> action.
    Keys written together share the action after them ("←→ A Würfel
    wählen"); groups are apart by two spaces, or by the next key."""
    out = {}
    if not hint:
        return out
    for group in hint.split("  "):
        pending = []
        words = []
        for word in group.split(" "):
            if not word:
                continue
            keys = []
            i = 0
            while i < len(word) and word[i] in ARROWS:
                keys.append(ARROWS[word[i]])
                i += 1
            if not keys and word in ("A", "B"):
                keys.append(word)
                i = 1
            if keys:
                if words:
                    _give(out, pending, words)
                    pending = []
                    words = []
                pending.extend(keys)
                word = word[i:]
            if word:
                words.append(word)
        _give(out, pending, words)
    return out


def hint_spans(hint, width):
    """The hint line's actions as they are drawn from x 0: [x from, x to,
    the button] each; a tap there presses the button ("←→ A Würfel
    wählen": A, the arrows are no single tap's). `width(text)` in px."""
    starts = []
    i = 0
    n = len(hint)
    signs = "".join(ARROWS) + "AB"
    while i < n:
        word_start = i == 0 or hint[i - 1] == " "
        letter_key = hint[i] in "AB" and (i + 1 == n or hint[i + 1] == " ")
        if word_start and (hint[i] in ARROWS or letter_key):
            # a key after keys only ("←→ A") belongs to the same action
            if not (starts and hint[starts[-1]:i].replace(" ", "").strip(signs) == ""):
                starts.append(i)
        i += 1
    out = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else n
        keys = list(keys_of(hint[start:end]))
        if not keys:
            continue
        key = "A" if "A" in keys else keys[0]
        out.append([width(hint[:start]), width(hint[:end].rstrip()), key])
    return out


def _give(out, keys, words):
    action = " ".join(words)
    for key in keys:
        if key not in out:
            out[key] = action


class Recorder:
    """What the current frame shows, as heard from the drawing calls."""

    def __init__(self, big):
        self.font = font.REGULAR if big else font.SMALL
        self.clear()

    def clear(self):
        """A new frame: forget the last one."""
        self.heading = None
        self.hint = None
        self.entries = None  # (labels, index) of a menu
        self.texts = []  # (y, x, end x, text, colour)
        self.dice = []  # [face, picked, crossed, size, x, cursor, marked]
        self.skip = 0  # texts still to come that a call below has said already
        self.header = None  # (game, turn points) of the play screen's header
        self.rows = None  # where a menu's rows are drawn (see menu)
        self.paragraphs = None  # a text page's whole paragraphs

    def text(self, s, x, y, color):
        """Font.draw: `s` at (x, y) in `color` (0: dark on a lit bar)."""
        if self.skip:
            self.skip -= 1
            return
        if s in SCROLL or not s:
            return
        self.texts.append((y, x, x + self.font.width(s), s, color))

    def title(self, s):
        """Ui.title: the screen's title (its fitted text is drawn next)."""
        self.heading = s
        self.skip = 1

    def hints(self, s, drawn):
        """Ui.hints: the hint line; `drawn` is 1 when its text is drawn next."""
        self.hint = s
        self.skip = drawn

    def play_header(self, game, points):
        """Play._draw: the header of `game` with the turn's `points`; its
        two fitted texts (ui.header) are drawn next."""
        self.header = (game, points)
        self.skip = 2

    def text_page(self, paragraphs):
        """TextPage.draw: the page's whole paragraphs (its wrapped lines,
        drawn next, are the device's window on them)."""
        self.paragraphs = list(paragraphs)

    def menu(self, labels, index, shown, first=None, y=0, line=0):
        """Ui.menu: all entries, the highlighted one, and how many are drawn
        next; where they are (`first` entry shown, its row's y, the rows'
        height: a tap on a row chooses it) when a list of rows draws them."""
        self.entries = (list(labels), index)
        self.skip = shown
        self.rows = None if first is None else {"first": first, "shown": shown, "y": y,
                                                 "line": line}

    def die(self, face, picked, crossed, size, x, digit, y=0):
        """Ui.draw_die: a die at (x, y); `digit` 1 when its face is drawn as a text next."""
        self.dice.append([face, bool(picked), bool(crossed), size, x, False, False, y])
        self.skip = digit

    def cursor(self, x):
        """Ui.cursor: the cursor bar under the die at x."""
        for d in self.dice:
            if d[4] == x:
                d[5] = True

    def mark(self, cx):
        """Ui.mark: a tip's arrow under the die centred on cx."""
        for d in self.dice:
            if d[4] <= cx < d[4] + d[3]:
                d[6] = True

    def lines(self):
        """The texts as lines top to bottom, each a (text, highlighted) pair;
        texts on one line are joined with two spaces (none when they touch)."""
        out = []
        last_y = None
        end = 0
        for y, x, right, s, color in sorted(self.texts):
            if out and y == last_y:
                text, lit = out[-1]
                out[-1] = (text + ("" if x - end <= GAP else "  ") + s, lit or color == 0)
            else:
                out.append((s, color == 0))
            last_y = y
            end = right
        return out

    def snapshot(self, lang, screen=None):
        """The frame as plain data (see the module docstring). `screen`:
        the screen on top; while its dice tumble (random faces drawn, a
        decoration) the copy gives the dice on the table, not the faces
        of the animation's frame."""
        big = max([d[3] for d in self.dice] or [0])
        dice = []
        aside = []
        at = []  # where the big dice are: a tap on one picks it
        for face, picked, crossed, size, x, cursor, marked, y in self.dice:
            if size == big:
                dice.append({"value": face, "picked": picked, "crossed": crossed,
                             "cursor": cursor, "marked": marked})
                at.append([x, y, size])
            else:
                aside.append(face)
        table = _tumbling(screen)
        if table is not None and len(table) == len(dice):
            for i, face in enumerate(table):  # (MicroPython's zip takes no strict=)
                dice[i]["value"] = face
        menu = None
        if self.entries is not None:
            menu = {"items": self.entries[0], "index": self.entries[1]}
        keys = keys_of(self.hint)
        lines = self.lines()
        for text, _ in lines:  # a line of key signs ("←→ A Würfel wählen") names them too
            if text[:1] in ARROWS or text[:2] == "A ":
                for key, action in keys_of(text).items():
                    keys.setdefault(key, action)
        words = WORDS.get(lang, WORDS["de"])
        for d in dice:
            if d["cursor"]:  # the arrows and A on the die under the cursor
                keys["LEFT"] = words["LEFT"]
                keys["RIGHT"] = words["RIGHT"]
                keys["A"] = words["drop" if d["picked"] else "take"] % d["value"]
        title = self.heading
        if self.header is not None:
            title = header_text(lang, self.header[0], self.header[1])
        if menu is not None:  # (the standings are a menu: in words too)
            menu["items"] = [standing_words(lang, t) or t for t in menu["items"]]
        out = {"lang": lang, "title": title,
               "lines": [{"text": standing_words(lang, t) or t, "selected": lit}
                         for t, lit in lines],
               "menu": menu, "dice": dice, "aside": aside, "hint": self.hint, "keys": keys}
        if self.header is not None:  # the play screen: the whole table, as a room's page lists it
            game = self.header[0]
            out["table"] = [{"name": seat.name, "score": seat.score, "computer": bool(seat.kind),
                             "active": seat.active, "current": i == game.current}
                            for i, seat in enumerate(game.seats)]
        if self.paragraphs is not None:
            out["lines"] = []
            out["paragraphs"] = self.paragraphs
        # where a tap on the screen lands (host.js maps it to presses)
        out["taps"] = {"dice": at, "rows": self.rows, "line": self.font.height,
                       "hint": hint_spans(self.hint, self.font.width) if self.hint else []}
        return out


def _tumbling(screen):
    """The dice on the table while `screen` (a play screen) shows them
    tumbling; None otherwise."""
    anim = getattr(screen, "anim", None)
    game = getattr(screen, "game", None)
    if anim is None or game is None or not anim.armed:
        return None
    return list(game.roll)


def install(big):
    """Make a Recorder and let firmware.font report to it; returns it."""
    rec = Recorder(big)
    font.recorder = rec
    return rec
