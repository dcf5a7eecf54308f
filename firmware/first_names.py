"""Where the letter grid's cursor goes next (firmware.screens.typer.Typer):
to the next letter of the first name that begins with what is typed, from
the names used before and then common first names; to the ✓ when what is
typed is such a name. The typer also offers a whole name that begins
with what is typed (`complete`: the first of those lists) on its title
line, a row of its own the cursor may wait on (`next_cell` weighs it
against the letters); LEFT/RIGHT there show the others in list order.

Loaded with the letter grid only (the list is about 900 bytes)."""

# Common first names, the more common (across the ages at a table) first:
# where two share a beginning the earlier one is offered first and weighs
# more for the cursor's next cell, so a later one costs a move or two. The
# nine names issue 34 measured are in it.
COMMON = (
    "Anna Paul Lena Emma Timo Tim Max Lea Ben Mia Tom Leon Lisa Jan Tina Karl Ines Jörg Bert "
    "Lukas Laura Finn Sara Elias Julia Noah Marie Felix Lina Jonas Ida Moritz Nina Luca Ella "
    "Emil Nele Hans Eva Uwe Ute Peter Petra Klaus Karin Frank Anja Dirk Heike Jens Silke "
    "Sven Tanja Kai Katja Olaf Maren Axel Ilse Ralf Gabi Rolf Inge Udo Elke Jürgen Sabine "
    "Thomas Susanne Michael Andrea Stefan Birgit Andreas Monika Frieda Otto Oma Opa Mama "
    "Papa Kurt Erika Fritz Grete Horst Helga Heinz Ursula Günter Bärbel Björn Sören Maja "
    "Luise Clara Hanna Jakob Theo Lara Leni Ole Mats Lotta Carl Greta Anton Mila Niklas Sophie "
    "Johanna David Nils Alex Maria Daniel Sandra Markus Nicole Tobias Simone Florian "
    "Christian Claudia Martin Kerstin Jana Lars Lutz Ingo Dora Cleo Ali Can Emre Elif Ayse "
    "Mehmet Ivan Olga Igor Jack Lily Mark Rosa Vera Ruth Erik Gerd Dieter Bernd"
).split(" ")


def complete(typed, used, taken, current="", step=0):
    """A whole name that begins with `typed` and is longer, not in `taken`,
    from `used` (the names used before) and then COMMON, in that order:
    the first, or with `current` (a name so offered) the one `step`
    places after it, round the ends. "" when nothing is typed or no name
    fits. Two passes over the lists, nothing kept."""
    n = len(typed)
    if not n:
        return ""
    count = 0
    at = 0
    for names in (used, COMMON):
        for name in names:
            if (len(name) > n and name.startswith(typed) and name not in taken
                    and (names is used or name not in used)):
                if name == current:
                    at = count
                count += 1
    if not count:
        return ""
    want = (at + step) % count if current else 0
    for names in (used, COMMON):
        for name in names:
            if (len(name) > n and name.startswith(typed) and name not in taken
                    and (names is used or name not in used)):
                if not want:
                    return name
                want -= 1
    return ""


OFFER = "*"  # _letters' key for the whole name the typer offers


def _letters(typed, used, taken, offer=""):
    """{next letter: weight} over the names that begin with `typed` ("" for
    the name's end, OFFER for `offer`, the whole name offered), the names
    used before counting most; {} when none."""
    n = len(typed)
    out = {}
    for names, weight in ((used, 12), (COMMON, 0)):
        for rank in range(len(names)):
            name = names[rank]
            if len(name) >= n and name.startswith(typed) and name not in taken:
                ch = OFFER if name == offer else name[n] if len(name) > n else ""
                w = weight or max(1, 8 - rank // 10)  # the more common, the more
                out[ch] = out.get(ch, 0) + w
    return out


def _pairs(last):
    """{letter: count} of the letters that follow `last` inside the names
    (a guess for a name of no list)."""
    out = {}
    for name in COMMON:
        i = name.find(last, 1)
        while 0 < i < len(name) - 1:
            ch = name[i + 1]
            out[ch] = out.get(ch, 0) + 1
            i = name.find(last, i + 1)
    return out


def next_cell(typed, used, taken, cell_of, distance, offer=""):
    """The grid cell the cursor should go to after `typed`: the one with the
    fewest presses on average to the letter that follows (weighted by the
    names that begin with `typed`, from `used`, the names used before, then
    COMMON; names in `taken` are refused by the grid and skipped; "" is
    the ✓). Without such a name, the letters that follow its last letter
    inside the names. `cell_of(ch)` gives a letter's cell (None when the
    grid has none), `distance(a, b)` the presses between two cells. With
    `offer` (the whole name the typer offers, a row of its own),
    `cell_of(OFFER)` gives that row's cell: the cursor may wait there above
    the column of a letter that may follow, and reaching it counts as
    typing the offered name. None: no guess, the cursor stays."""
    weights = _letters(typed, used, taken, offer)
    if not weights and typed:
        weights = _pairs(typed[-1].lower())
    cells = []
    for ch in weights:
        cell = cell_of(ch)
        if cell is not None:
            cells.append((cell, weights[ch]))
    spots = [cell for cell, _ in cells]  # the cursor sits on a letter that may follow
    if offer:
        row = cell_of(OFFER)[0]
        for cell, _ in cells:  # or on the offer, above such a letter's column
            if cell[0] != row:
                spots.append((row, cell[1]))
    best = None
    best_cost = 0
    for spot in spots:
        cost = 0
        for other, w in cells:
            cost += w * distance(spot, other)
        if best is None or cost < best_cost:
            best, best_cost = spot, cost
    return best
