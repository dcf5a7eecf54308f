"""Rule sets: every option of docs/rules.md, the six presets, and their encoding.

A `Rules` object is immutable by convention: change rules with
`rules.replace(**changes)`, which checks the new combination. The option
keys are the stable names used in saves and by anyone building rules outside
the device:

    dice            6 or 5
    target          positive multiple of 50 (points options and the target
                    are at most MAX_POINTS, 100000)
    entry           opening hurdle, a multiple of 50 from 0 to the target
    n_of_kind       "double", "triple_only", "add", "fixed", "five_flat"
    ones_triple     1000 or 300
    straight        points for 1-6 with 6 dice (0 = off)
    small_straights (points for 1-5, points for 2-6), (0, 0) = off
    three_pairs     points (0 = off), 6 dice only
    quad_pair       four of a kind plus a pair (0 = off), 6 dice only
    two_triplets    points (0 = off), 6 dice only
    hot_dice        "may" or "must"
    auto_keep       all scoring dice are set aside automatically
    triples_across  singles set aside earlier may complete a triple later
    penalty         points off after three farkled turns in a row
    takeover        the next player may take over a banked turn
    exact           the target must be hit exactly (needs finish "exact")
    finish          "last_turn", "round", "exact", "immediate"
    tie             "trigger" or "playoff"

Decisions where docs/rules.md leaves room: `five_flat` is a 5-dice mode; the
entry hurdle may be any multiple of 50 up to the target; `exact` and
`finish="exact"` always go together. `settle(opts, key)` changes the
options linked to `key` so that a dict of options becomes a valid set
(the rules editor uses it after every change).
"""

from engine.crc import crc32

KEYS = (
    "dice", "target", "entry", "n_of_kind", "ones_triple", "straight",
    "small_straights", "three_pairs", "quad_pair", "two_triplets", "hot_dice",
    "auto_keep", "triples_across", "penalty", "takeover", "exact", "finish",
    "tie",
)

DEFAULTS = {
    "dice": 6,
    "target": 10000,
    "entry": 0,
    "n_of_kind": "double",
    "ones_triple": 1000,
    "straight": 1500,
    "small_straights": (0, 0),
    "three_pairs": 1500,
    "quad_pair": 0,
    "two_triplets": 0,
    "hot_dice": "may",
    "auto_keep": False,
    "triples_across": False,
    "penalty": 0,
    "takeover": False,
    "exact": False,
    "finish": "last_turn",
    "tie": "trigger",
}

N_OF_KIND = ("double", "triple_only", "add", "fixed", "five_flat")
FINISH = ("last_turn", "round", "exact", "immediate")
TIE = ("trigger", "playoff")
HOT_DICE = ("may", "must")
BOOLS = ("auto_keep", "triples_across", "takeover", "exact")
CHOICES = {
    "n_of_kind": N_OF_KIND,
    "finish": FINISH,
    "tie": TIE,
    "hot_dice": HOT_DICE,
    "dice": (6, 5),
    "ones_triple": (1000, 300),
}
# The entry hurdles and the penalties for three farkles in a row the forms
# offer (the rules editor and the score pad's; 0: none).
ENTRIES = (0, 300, 350, 500, 1000)
PENALTIES = (0, 500, 1000)
# The targets the new-game form and the rules editor step through.
TARGETS = (1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 12000, 15000, 20000)
# The turn totals the Expert's plan solver works through (plan_solver._top,
# known once its largest roll table is built): the presets' with six and
# five dice; a guess for the solve's progress and time until then.
TOP_GUESS = {6: 483, 5: 109}
# The options the Expert's turn plan (engine.turnplan) does not read: it is
# the expected score of one turn from the dice, the scoring, the entry
# hurdle and hot dice; where the game ends and how, ties, taking over, the
# penalty and the auto keep decide nothing in it (an exact target's capped
# values depend on the distance to the target only). Rule sets that differ
# only in these share one plan: `Rules.plan_rules`.
PLAN_FREE = ("target", "auto_keep", "penalty", "takeover", "exact", "finish", "tie")
# The target of the Master tables that serve lower targets too
# (Rules.master_sources).
MASTER_TARGET = 10000
# Options whose combination needs all six dice.
SIX_DICE_ONLY = ("straight", "three_pairs", "quad_pair", "two_triplets")

PRESETS = ("zehntausend", "kneipe", "fuenf", "farkle4000", "punktlandung", "international")

_PRESET_CHANGES = {
    "zehntausend": {},
    "kneipe": {"entry": 350, "hot_dice": "must"},
    "fuenf": {
        "dice": 5, "n_of_kind": "triple_only", "straight": 0, "three_pairs": 0,
        "entry": 350, "finish": "round", "tie": "playoff",
    },
    "farkle4000": {
        "small_straights": (500, 750), "three_pairs": 0, "target": 4000,
        "tie": "playoff",
    },
    "punktlandung": {
        "dice": 5, "n_of_kind": "triple_only", "straight": 0, "three_pairs": 0,
        "entry": 350, "exact": True, "takeover": True, "auto_keep": True,
        "finish": "exact",
    },
    "international": {
        "ones_triple": 300, "n_of_kind": "fixed", "quad_pair": 1500,
        "two_triplets": 2500,
    },
}

# The rules encodings, oldest first: a version tag and how many of KEYS
# (from the front) its text holds. A new option is appended to KEYS and
# gets a new version here; a text of an older version decodes with the
# DEFAULTS of the options it lacks, and rules whose newer options are all
# at their defaults still encode in the oldest version that holds them, so
# an old rule set keeps its text and its fingerprint (the Master's and the
# Expert's tables are keyed by it). See "A rule option" in
# docs/contributing.md and "Rule sets grow at the end" in docs/architecture.md.
VERSIONS = (("R1", 18),)


# Every reason key a RulesError can carry (the texts hold "rule_why_" +
# key in each language; tests/cpython/test_reason_texts.py checks them).
REASONS = ("unknown", "bool", "pair", "choice", "target", "points", "six_dice",
           "five_flat", "entry", "exact", "encoding", "preset")


class RulesError(ValueError):
    """Rules refused: `key` (one of REASONS) says why, `option` names the
    rule option at fault ("" when none does) and `values` holds the numbers
    a text needs. A screen shows the text "rule_why_" + key."""

    def __init__(self, key, option="", values=()):
        super().__init__(key, option, values)  # no ValueError.__init__ on MicroPython
        self.key = key
        self.option = option
        self.values = values


def _fail(option, why, values=()):
    raise RulesError(why, option, values)


MAX_POINTS = 100000  # far above any table's values; keeps scores in 16 bits


def _points(key, value):
    """Check a points value: an int multiple of 50 from 0 to MAX_POINTS."""
    if type(value) is not int or value < 0 or value % 50 or value > MAX_POINTS:
        _fail(key, "points", (MAX_POINTS,))
    return value


class Rules:
    """One complete rule set; construct with keyword options, defaults as the
    `zehntausend` preset. Raises RulesError (a ValueError) naming the option
    for an unknown key, a bad value or an impossible combination."""

    # The options (KEYS), set in __init__; declared for the type check
    # (MicroPython ignores annotations).
    dice: int
    target: int
    entry: int
    n_of_kind: str
    ones_triple: int
    straight: int
    small_straights: tuple
    three_pairs: int
    quad_pair: int
    two_triplets: int
    hot_dice: str
    auto_keep: bool
    triples_across: bool
    penalty: int
    takeover: bool
    exact: bool
    finish: str
    tie: str

    def __init__(self, **options):
        for key in options:
            if key not in DEFAULTS:
                _fail(key, "unknown")
        for key in KEYS:
            value = options[key] if key in options else DEFAULTS[key]
            setattr(self, key, self._normalise(key, value))
        self._check_combination()
        self._encoded = self._encode()

    @staticmethod
    def _normalise(key, value):
        if key in BOOLS:
            if value not in (True, False):  # 0 and 1 compare equal and pass
                _fail(key, "bool")
            return bool(value)
        if key == "small_straights":
            if not isinstance(value, (tuple, list)) or len(value) != 2:
                _fail(key, "pair")
            return (_points(key, value[0]), _points(key, value[1]))
        if key in CHOICES:
            if type(value) is not type(CHOICES[key][0]) or value not in CHOICES[key]:
                _fail(key, "choice")
            return value
        if key == "target":
            if type(value) is not int or value <= 0 or value % 50 or value > MAX_POINTS:
                _fail(key, "target", (MAX_POINTS,))
            return value
        return _points(key, value)

    def _check_combination(self):
        if self.dice == 5:
            for key in SIX_DICE_ONLY:
                if getattr(self, key):
                    _fail(key, "six_dice")
        if self.n_of_kind == "five_flat" and self.dice != 5:
            _fail("n_of_kind", "five_flat")
        if self.entry > self.target:
            _fail("entry", "entry", (self.target,))
        if self.exact and self.finish != "exact":
            _fail("exact", "exact")
        if self.finish == "exact" and not self.exact:
            _fail("finish", "exact")

    def to_dict(self):
        """All options as a plain dict (a fresh copy)."""
        d = {}
        for key in KEYS:
            d[key] = getattr(self, key)
        return d

    def replace(self, **changes):
        """A new Rules with these options changed; checked like the constructor."""
        d = self.to_dict()
        for key in changes:
            if key not in DEFAULTS:
                _fail(key, "unknown")
            d[key] = changes[key]
        return _intern(Rules(**d))

    def _encode(self):
        tag, count = VERSIONS[-1]
        for version in VERSIONS:  # the oldest version that holds every option set
            if all(getattr(self, k) == DEFAULTS[k] for k in KEYS[version[1]:]):
                tag, count = version
                break
        parts = [tag]
        for key in KEYS[:count]:
            v = getattr(self, key)
            if key == "small_straights":
                parts.append("%d/%d" % v)
            elif key in BOOLS:
                parts.append("1" if v else "0")
            else:
                parts.append(str(v))
        return ",".join(parts)

    def encode(self):
        """The stable compact text form used in saves, e.g. 'R1,6,10000,...'
        (the oldest version of VERSIONS that holds every option set)."""
        return self._encoded

    @staticmethod
    def decode(text):
        """Rebuild Rules from `encode()` output of this or an older version
        (the options it lacks take their DEFAULTS); RulesError when malformed
        or of a newer version."""
        if not isinstance(text, str):
            _fail("", "encoding")
        parts = text.split(",")
        count = -1
        for tag, n in VERSIONS:
            if parts[0] == tag:
                count = n
        if len(parts) != count + 1:
            _fail("", "encoding")
        opts = {}
        for i in range(count):
            key = KEYS[i]
            raw = parts[i + 1]
            if key == "small_straights":
                pair = raw.split("/")
                if len(pair) != 2:
                    _fail(key, "encoding")
                opts[key] = (_int(pair[0]), _int(pair[1]))
            elif key in BOOLS:
                if raw not in ("0", "1"):
                    _fail(key, "encoding")
                opts[key] = raw == "1"
            elif key in CHOICES and isinstance(CHOICES[key][0], str):
                opts[key] = raw
            else:
                opts[key] = _int(raw)
        return _intern(Rules(**opts))

    def fingerprint(self):
        """Eight hex digits identifying these rules; equal on every interpreter."""
        return "%08x" % crc32(self._encoded.encode())

    def plan_rules(self):
        """These rules with every option of PLAN_FREE at its default: what
        the Expert's turn plan depends on (its file is named by their
        fingerprint, and a stored plan is checked against their encoding)."""
        changes = {}
        for key in PLAN_FREE:
            if getattr(self, key) != DEFAULTS[key]:
                changes[key] = DEFAULTS[key]
        return self.replace(**changes) if changes else self

    def master_sources(self):
        """(rules, shift) of the Master tables (engine.master) that serve
        these rules, best first: their own (shift 0); then, for a target
        below MASTER_TARGET without an entry hurdle or a penalty, the table
        of the same rules at MASTER_TARGET read `shift` 50-point steps up.
        Without a hurdle or a penalty the game depends only on how far
        each score is from the target (no score is special), so own i and
        opponent j at target N are i + shift and j + shift there."""
        out: list = [(self, 0)]
        if self.target < MASTER_TARGET and not self.entry and not self.penalty:
            out.append((self.replace(target=MASTER_TARGET), (MASTER_TARGET - self.target) // 50))
        return out

    def preset_key(self):
        """The key of the preset these rules equal, or None for custom rules."""
        for key in PRESETS:
            if _is_preset(self, _PRESET_CHANGES[key]):
                return key
        return None

    def __eq__(self, other):
        return isinstance(other, Rules) and other._encoded == self._encoded

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._encoded)

    def __repr__(self):
        return "Rules(%s)" % self._encoded


def settle(opts, key):
    """Make the option dict `opts` a valid combination after option `key`
    was set, by changing the options that depend on it (never `key`).

    Returns (options, changes): a new dict, and the options it changed as
    (key, new value) pairs in the order they were made ([] when `opts`
    was fine). The dependencies (docs/rules.md, "Option dependencies"):
    5 dice turn the six-dice combinations off, and turning one of those
    on means 6 dice; five_flat and 6 dice exclude each other (the one
    not set gives way: 5 dice, or n_of_kind back to its default); `exact`
    and finish "exact" follow each other; an entry above the target
    lowers the entry to the target, or raises the target when the entry
    was set. Values that are wrong on their own are left for `Rules` to
    refuse."""
    d = dict(opts)
    changes = []

    def put(k, v):
        if d[k] != v:
            d[k] = v
            changes.append((k, v))

    if key in SIX_DICE_ONLY and d[key] and d["dice"] == 5:
        put("dice", 6)
    if key == "n_of_kind" and d[key] == "five_flat":
        put("dice", 5)
    if d["dice"] == 5:
        for k in SIX_DICE_ONLY:
            put(k, 0)
    elif d["n_of_kind"] == "five_flat":
        put("n_of_kind", DEFAULTS["n_of_kind"])
    if key == "finish":
        put("exact", d[key] == "exact")
    elif d["exact"] != (d["finish"] == "exact"):
        put("finish", "exact" if d["exact"] else DEFAULTS["finish"])
    entry, target = d["entry"], d["target"]
    if type(entry) is int and type(target) is int and entry > target:
        if key == "entry":
            put("target", entry)
        else:
            put("entry", target)
    return d, changes


def _int(text):
    if not text or not (text.isdigit() or (text[0] == "-" and text[1:].isdigit())):
        _fail("", "encoding")
    return int(text)


def preset(key):
    """The Rules of one preset key (see PRESETS); RulesError for others."""
    if key not in _PRESET_CHANGES:
        _fail("", "preset")
    changes = _PRESET_CHANGES[key]
    for known in _INTERNED:  # made already: no checking and encoding again
        if _is_preset(known, changes):
            return known
    return _intern(Rules(**changes))


def _is_preset(rules, changes):
    """True when `rules` has the options of the preset `changes` (the
    DEFAULTS where it changes none). Comparing the options costs an eighth
    of making the preset's Rules (0.45 against 3.6 ms on the chip)."""
    for key in KEYS:
        if getattr(rules, key) != (changes[key] if key in changes else DEFAULTS[key]):
            return False
    return True


_INTERNED = []
_INTERN_MAX = 4


def _intern(rules):
    """Share one Rules object per encoding among the last few in use: saves
    reload their rules on every decision, and a shared object costs no heap."""
    for known in _INTERNED:
        if known == rules:
            return known
    _INTERNED.insert(0, rules)
    del _INTERNED[_INTERN_MAX:]
    return rules
