"""What a roll is worth: scoring of kept dice under any `Rules`.

Dice are plain ints 1..6 in any sequence. A *keep* is the dice set aside from
one roll; it is valid when every die belongs to a scoring combination, and
then it scores its best reading (docs/rules.md: the highest reading counts).

Combinations: single 1 and 5, n of a kind (per `n_of_kind`; two triples of
one face also read as two triples), the 1-6 straight, the small straights
1-5 and 2-6, three pairs (three different pairs: four of a kind plus a pair
is not three pairs; this reading reproduces the published optimal-play
figures), four of a kind plus a pair, and two triplets (of two different
faces; six of one face is read by `n_of_kind` or as two plain triples).

Triples across rolls (`triples_across`): the game passes the singles (1s
and 5s) set aside earlier in the turn and not yet used as `aside`. A keep may
then complete a triple with them: two 5s kept onto an earlier single 5 make
the triple of 5s. Such a keep scores what it adds: the triple's value minus
the singles' points already counted (500 - 50 = 450 in the example). Only
plain triples are completed; without the option `aside` is ignored.

Results are memoised in 3.7 KB of bytearrays: a 16-bit slot per multiset
of up to six dice (924 of them, ranked by the combinatorial number system)
in each of two flavours. It holds the results of one rule set at a time
and is cleared when another is asked about. A dict would cost ten times the
heap on the device. The memo is four pieces of at most 1 KB, not one
block: the module is imported on demand (the help pages, a game), and late
in a long session on the chip one 3.7 KB block could not be had from the
fragmented heap (issue 21).
"""

_SINGLE = (0, 100, 0, 0, 0, 50, 0)
# _BINOM[a][b] = C(a, b) for a <= 10, b <= 6; _OFFSET[n] = multisets of < n dice.
_BINOM = [[1] + [0] * 6 for _ in range(11)]
for _a in range(1, 11):
    for _b in range(1, 7):
        _BINOM[_a][_b] = _BINOM[_a - 1][_b - 1] + _BINOM[_a - 1][_b]
_OFFSET = (0, 1, 7, 28, 84, 210, 462)
_SLOTS = 924
_PIECE_SHIFT = 9  # 512 slots of 2 bytes a piece of the memo
_MEMO = [bytearray(2 << _PIECE_SHIFT) for _ in range(_SLOTS * 2 >> _PIECE_SHIFT)]
_MEMO.append(bytearray((_SLOTS * 2 & ((1 << _PIECE_SHIFT) - 1)) * 2))
_memo_rules = [None]  # the encoding of the rules whose results _MEMO holds


def _memo_for(rules):
    """The memo, cleared first when it holds another rule set's results."""
    code = rules.encode()
    held = _memo_rules[0]
    if held is not code and held != code:  # (one test on the way every call takes)
        if held is None:  # as made: zeroed already (the loop below is 25 ms on the chip)
            _memo_rules[0] = code
            return _MEMO
        for memo in _MEMO:
            for i in range(len(memo)):
                memo[i] = 0
        _memo_rules[0] = code
    return _MEMO


def counts_of(dice):
    """Counts per face as a 7-list (index 0 unused); ValueError on a bad die."""
    c = [0, 0, 0, 0, 0, 0, 0]
    for d in dice:
        if type(d) is not int or d < 1 or d > 6:
            raise ValueError("a die shows 1 to 6, not %r" % (d,))
        c[d] += 1
    return c


def _rank(c):
    """Dense index 0..923 of a multiset of up to six dice given as counts:
    sorted dice d_1..d_n map to e_k = d_k + k - 2, ranked as sum C(e_k, k)."""
    k = 0
    r = 0
    for f in range(1, 7):
        for _ in range(c[f]):
            k += 1
            r += _BINOM[f + k - 2][k]
    return _OFFSET[k] + r


def triple_value(face, rules):
    """Points for three of a kind of this face."""
    return rules.ones_triple if face == 1 else face * 100


def kind_value(face, n, rules):
    """Points for n (3..6) dice of one face read as one combination, or 0
    when the `n_of_kind` mode has no such combination."""
    base = triple_value(face, rules)
    if n == 3:
        return base
    mode = rules.n_of_kind
    if mode == "double":
        return base << (n - 3)
    if mode == "add":
        return base * (n - 2)
    if mode == "fixed":
        return 1000 * (n - 3)
    if mode == "five_flat":
        if n == 4:
            return base * 2
        if n == 5:
            return 5000
    return 0  # triple_only, or five_flat with six dice


def _whole_hand(c, rules):
    """Best six-dice combination that uses exactly these six dice, or -1."""
    best = -1
    shape = sorted([x for x in c[1:] if x])
    if shape == [1, 1, 1, 1, 1, 1] and rules.straight:
        best = rules.straight
    if rules.three_pairs and shape == [2, 2, 2]:
        best = max(best, rules.three_pairs)
    if rules.quad_pair and shape == [2, 4]:
        best = max(best, rules.quad_pair)
    if rules.two_triplets and shape == [3, 3]:
        best = max(best, rules.two_triplets)
    return best


def whole_hand(dice, rules):
    """The points of six `dice` read as one hand of all six (a straight,
    three pairs, four of a kind with a pair, two triplets), or -1 when they
    form none of those under `rules`."""
    return _whole_hand(counts_of(dice), rules) if len(dice) == 6 else -1


def _best(c, skip, rules):
    """Best points for the counts `c`, using every die (skip=False, -1 when
    impossible) or any subset (skip=True, 0 when nothing scores). `c` is
    restored before returning."""
    rank = _rank(c)
    if rank == 0:
        return 0
    slot = rank * 2 + skip
    memo = _memo_for(rules)[slot >> 9]  # (_PIECE_SHIFT, written out: no global lookups here)
    slot = (slot & 511) * 2
    found = memo[slot] << 8 | memo[slot + 1]
    if found:  # stored as points // 50 + 2, so -1 is 1 and 0 means unknown
        return (found - 2) * 50 if found > 1 else -1
    best = 0 if skip else -1
    if c[1] + c[2] + c[3] + c[4] + c[5] + c[6] == 6:
        best = max(best, _whole_hand(c, rules))
    low, high = rules.small_straights
    if low and c[1] and c[2] and c[3] and c[4] and c[5]:
        best = max(best, _with_removed(c, (1, 2, 3, 4, 5), low, skip, rules))
    if high and c[2] and c[3] and c[4] and c[5] and c[6]:
        best = max(best, _with_removed(c, (2, 3, 4, 5, 6), high, skip, rules))
    face = 1
    while not c[face]:
        face += 1
    n = c[face]
    if skip:  # leave one die of the lowest face unused
        c[face] = n - 1
        best = max(best, _best(c, True, rules))
        c[face] = n
    single = _SINGLE[face]
    if single:
        c[face] = n - 1
        rest = _best(c, skip, rules)
        c[face] = n
        if rest >= 0:
            best = max(best, rest + single)
    for k in range(3, n + 1):
        value = kind_value(face, k, rules)
        if value:
            c[face] = n - k
            rest = _best(c, skip, rules)
            c[face] = n
            if rest >= 0:
                best = max(best, rest + value)
    stored = best // 50 + 2 if best >= 0 else 1
    memo[slot] = stored >> 8
    memo[slot + 1] = stored & 0xFF
    return best


def _with_removed(c, faces, points, skip, rules):
    for f in faces:
        c[f] -= 1
    rest = _best(c, skip, rules)
    for f in faces:
        c[f] += 1
    return rest + points if rest >= 0 else -1


def _open_singles(aside, rules):
    """(open 1s, open 5s) usable for triples across rolls."""
    if not aside or not rules.triples_across:
        return 0, 0
    o1 = o5 = 0
    for d in aside:
        if d == 1:
            o1 += 1
        elif d == 5:
            o5 += 1
    return o1, o5


def read_keep(keep, rules, aside=()):
    """Best reading of a keep: (points, used) with `used` the faces taken from
    `aside` to complete triples (empty without triples_across), or
    (None, ()) when the keep is empty or has a non-scoring die."""
    c = counts_of(keep)
    if not keep or len(keep) > rules.dice:
        return None, ()
    base = _best(c, False, rules)
    o1, o5 = _open_singles(aside, rules)
    if not (o1 or o5):
        return (base if base >= 0 else None), ()
    best, used = base, ()
    # Use 0, 1 or 2 open singles of each face; two new dice + one open, or
    # one new die + two open, complete a triple.
    for u1 in range(min(o1, 2) + 1):
        n1 = 3 - u1 if u1 else 0
        if n1 > c[1]:
            continue
        for u5 in range(min(o5, 2) + 1):
            n5 = 3 - u5 if u5 else 0
            if (u1 == 0 and u5 == 0) or n5 > c[5]:
                continue
            c[1] -= n1
            c[5] -= n5
            rest = _best(c, False, rules)
            c[1] += n1
            c[5] += n5
            if rest < 0:
                continue
            points = rest
            if u1:
                points += triple_value(1, rules) - 100 * u1
            if u5:
                points += 500 - 50 * u5
            if points > best:
                best, used = points, (1,) * u1 + (5,) * u5
    return (best if best >= 0 else None), used


def score_keep(keep, rules, aside=()):
    """Points for setting aside exactly these dice from one roll, or None when
    any die belongs to no scoring combination (or the keep is empty).
    `aside`: see the module docstring (triples across rolls)."""
    return read_keep(keep, rules, aside)[0]


def keeps(roll, rules, aside=()):
    """Every distinct valid keep of `roll` as (sorted tuple, points), most
    points first, then fewer dice first."""
    out = []
    _subsets(roll, rules, aside, out, True)
    out.sort(key=_order)
    return out


def choices(roll, rules):
    """The distinct (number of dice kept, points) of the valid keeps of
    `roll`: what a planner needs, without building the keeps themselves."""
    out = []
    _subsets(roll, rules, (), out, False)
    return out


def _order(item):
    return (-item[1], len(item[0]), item[0])


def _subsets(roll, rules, aside, out, as_dice):
    """Walk every sub-multiset of `roll` (an odometer over the counts) and
    append the valid ones: (dice tuple, points) or (dice count, points)."""
    c = counts_of(roll)
    across = aside and rules.triples_across
    take = [0, 0, 0, 0, 0, 0, 0]
    while True:
        f = 1  # advance the odometer: the first face that can take one more
        while f < 7 and take[f] == c[f]:
            take[f] = 0
            f += 1
        if f == 7:
            return
        take[f] += 1
        if across:
            keep = _dice_of(take)
            points = read_keep(keep, rules, aside)[0]
        else:
            points = _best(take, False, rules)
        if points is not None and points > 0:
            if as_dice:
                out.append((tuple(keep) if across else tuple(_dice_of(take)), points))
            else:
                item = (sum(take), points)
                if item not in out:
                    out.append(item)


def _dice_of(counts):
    keep = []
    for f in range(1, 7):
        for _ in range(counts[f]):
            keep.append(f)
    return keep


def best_score(dice, rules, aside=()):
    """The highest points any valid keep of these dice scores; 0 is a farkle."""
    if len(dice) > rules.dice:
        raise ValueError("%d dice in a %d-dice game" % (len(dice), rules.dice))
    c = counts_of(dice)
    if not dice:
        return 0
    if aside and rules.triples_across:
        found = keeps(dice, rules, aside)
        return found[0][1] if found else 0
    return _best(c, True, rules)


def is_farkle(roll, rules):
    """True when no die of the roll scores (no valid keep exists)."""
    return best_score(roll, rules) == 0


def scoring_keep(roll, rules, aside=()):
    """The keep that sets aside all scoring dice: the valid keep with the most
    dice, then the most points (what `auto_keep` and the 'take all' button
    use); None on a farkle."""
    return most_dice(keeps(roll, rules, aside))


def most_dice(found):
    """Of (keep, points) pairs, the one with the most dice, then the most
    points; None when there are none."""
    best = None
    for keep, points in found:
        if best is None or len(keep) > len(best[0]) or (
            len(keep) == len(best[0]) and points > best[1]
        ):
            best = (keep, points)
    return best
