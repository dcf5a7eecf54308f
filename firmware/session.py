"""What the app keeps on flash: the game in progress, the score pad, the
names, settings and rule sets (file names and kinds: firmware/files.py).

Every file goes through firmware.store (temporary file, rename, last good
copy, CRC) and engine.codec. The game is saved after every decision, before
its dice are shown, so switching off never re-rolls a roll; the score pad
after every entry.
"""

from engine.codec import CodecError
from firmware.files import (
    CONTRAST,
    GAME,
    KIND_GAME,
    KIND_NAMES,
    KIND_PAD,
    KIND_PICKS,
    KIND_RULESETS,
    KIND_SETTINGS,
    KIND_TABLE,
    NAMES,
    PAD,
    PICKS,
    RULESETS,
    SETTINGS,
    TABLE,
)
from firmware.store import NoSave, SaveDamaged, SaveFailed

MAX_NAMES = 24
MAX_RULESETS = 12

# Every setting and its default: `Session.settings` holds each key with a
# value its readers can take as it is (see `_setting`), so they read
# `settings[key]`, never a default of their own.
DEFAULT_SETTINGS = {
    "lang": "de",  # "de" or "en" (App.lang)
    "speed": 1,  # computer pace: 0 slow, 1 normal, 2 fast
    "contrast": CONTRAST,  # display contrast 1..255 (firmware.device reads it)
    "sleep": 120,  # seconds idle until the display sleeps, 0 never (firmware.device)
    "dice": 0,  # dice style: 0 pips, 1 rounded, 2 digits (firmware.ui)
    "sound": True,  # the buzzer, where the board has one (firmware.device)
    "tips": False,  # new people start with tips on (the new-game form reads it)
    "ask": True,  # rolling on and banking ask first (firmware.screens.play)
    "pad": None,  # the last score pad's [entry hurdle, penalty] (firmware.screens.pad)
    "solve": 0,  # ms per 100 solver steps, measured by the last solve here (firmware.players)
}


class Session:
    """The app's files, on a firmware.store.Store."""

    def __init__(self, store):
        self.store = store
        self.note = None  # a message about a damaged file, for the screen
        self.settings = dict(DEFAULT_SETTINGS)
        self.names = []
        self._load_settings()
        self._load_names()

    # ------------------------------------------------------------ game

    def has_game(self):
        """True when a saved game (or a usable copy of one) exists: not an
        unfinished first save a power cut left behind (Store.has)."""
        return self.store.has(GAME, KIND_GAME)

    def load_game(self, dice):
        """(game, note): the saved game with `dice` as its dice source and a
        note when an older copy had to be used. Raises NoSave or SaveDamaged."""
        data, note = self.store.load(GAME, KIND_GAME)
        try:
            from engine.game import Game  # here: booting to the title needs no game code

            game = Game.from_data(data, dice)
        except (ValueError, CodecError) as e:
            raise SaveDamaged("saved game is not valid: %s" % e)
        return game, note

    def save_game(self, game):
        """Save the whole game; returns None or a message when it failed."""
        try:
            self.store.save(GAME, KIND_GAME, game.to_data())
        except SaveFailed as e:
            return str(e)
        return None

    def clear_game(self):
        """Forget the saved game (it is over), and the picks on its table."""
        try:
            self.store.clear(GAME)  # .bak first: a power cut never revives it
            self.store.clear(PICKS)
        except SaveFailed:
            pass

    def save_picks(self, value):
        """Keep what a person has picked on the table (firmware.screens.play:
        not a decision, so not in the game save); a failed write only
        loses the picks."""
        try:
            self.store.save(PICKS, KIND_PICKS, value)
        except SaveFailed:
            pass

    def load_picks(self):
        """The value of the last `save_picks`, or None."""
        try:
            return self.store.load(PICKS, KIND_PICKS)[0]
        except (NoSave, SaveDamaged):
            return None

    # ------------------------------------------------------------ score pad

    def has_pad(self):
        """True when a score pad (or a usable copy of one) is saved."""
        return self.store.has(PAD, KIND_PAD)

    def load_pad(self):
        """(pad, note): the saved engine.scorepad.ScorePad and a note when
        an older copy had to be used. Raises NoSave or SaveDamaged."""
        data, note = self.store.load(PAD, KIND_PAD)
        from engine.scorepad import ScorePad  # here: the title needs no pad code

        try:
            return ScorePad.from_data(data), note
        except ValueError as e:  # intact bytes, not a valid pad
            raise SaveDamaged("saved pad is not valid: %s" % e)

    def save_pad(self, pad):
        """Save the score pad; None, or the reason it failed."""
        try:
            self.store.save(PAD, KIND_PAD, pad.to_data())
        except SaveFailed as e:
            return str(e)
        return None

    def clear_pad(self):
        """Delete the saved pad (the evening is over)."""
        try:
            self.store.clear(PAD)
        except SaveFailed:
            pass

    # ------------------------------------------------------------ names

    def _load_names(self):
        try:
            value, _ = self.store.load(NAMES, KIND_NAMES)
        except (NoSave, SaveDamaged):
            return
        if isinstance(value, list):
            self.names = [n for n in value if isinstance(n, str) and n][:MAX_NAMES]

    def remember_name(self, name):
        """Put `name` first in the saved names."""
        if name in self.names:
            self.names.remove(name)
        self.names.insert(0, name)
        del self.names[MAX_NAMES:]
        try:
            self.store.save(NAMES, KIND_NAMES, self.names)
        except SaveFailed:
            pass

    # ------------------------------------------------------------ settings

    def _load_settings(self):
        try:
            value, _ = self.store.load(SETTINGS, KIND_SETTINGS)
        except (NoSave, SaveDamaged):
            return
        if isinstance(value, list):
            for pair in value:
                if isinstance(pair, list) and len(pair) == 2 and pair[0] in DEFAULT_SETTINGS:
                    setting = _setting(pair[0], pair[1])
                    if setting is not None:
                        self.settings[pair[0]] = setting

    def save_settings(self):
        """Write the settings file."""
        pairs = [[k, self.settings[k]] for k in DEFAULT_SETTINGS]
        try:
            self.store.save(SETTINGS, KIND_SETTINGS, pairs)
        except SaveFailed:
            pass

    # ------------------------------------------------------------ rule sets

    def rulesets(self):
        """Saved custom rule sets (file "rulesets"): [name, rules encoding]
        pairs, oldest first; entries that no longer decode are left out."""
        from engine.rules import Rules

        try:
            value, _ = self.store.load(RULESETS, KIND_RULESETS)
        except (NoSave, SaveDamaged):
            return []
        out = []
        if isinstance(value, list):
            for pair in value:
                if isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str):
                    try:
                        Rules.decode(pair[1])
                    except ValueError:
                        continue
                    out.append([pair[0], pair[1]])
        return out

    def save_ruleset(self, name, rules):
        """Save `rules` under `name` (replacing a set of that name); None or
        a message when it failed."""
        sets = [p for p in self.rulesets() if p[0] != name]
        sets.append([name, rules.encode()])
        del sets[:-MAX_RULESETS]
        try:
            self.store.save(RULESETS, KIND_RULESETS, sets)
        except SaveFailed as e:
            return str(e)
        return None

    def delete_ruleset(self, name):
        """Forget the saved rule set `name`."""
        sets = [p for p in self.rulesets() if p[0] != name]
        try:
            self.store.save(RULESETS, KIND_RULESETS, sets)
        except SaveFailed:
            pass

    # ------------------------------------------------------------ last table

    def load_seating(self):
        """The last seating the new-game form started (the rules and who
        sat where; file "table"):
        (choice, rules, seats, tips) or None when there is none or it does
        not hold together. `choice` names the form's rules row (a preset
        key, a saved set's name, or "" for an unsaved edit), `rules` the
        engine.rules.Rules played (target included), `seats` [name, kind]
        pairs, `tips` the names of people with tips on. A damaged file
        only loses the table: the form starts from its defaults."""
        try:
            value, _ = self.store.load(TABLE, KIND_TABLE)
        except (NoSave, SaveDamaged):
            return None
        try:
            return _table(value)
        except (ValueError, TypeError, KeyError, IndexError):
            return None

    def save_seating(self, choice, rules, seats, tips):
        """Remember the seating a game starts with (see `load_seating`); a
        failed write only loses the memory of it."""
        value = [choice, rules.encode(), [[n, k] for n, k in seats], list(tips)]
        try:
            self.store.save(TABLE, KIND_TABLE, value)
        except SaveFailed:
            pass


def _table(value):
    """`load_seating`'s check of the stored value: raises ValueError (or a
    TypeError on a wrong shape) when it does not hold together."""
    from engine.game import MAX_SEATS, check_name
    from engine.levels import LEVELS
    from engine.rules import Rules

    choice, encoding, seats, tips = value
    if not isinstance(choice, str) or not isinstance(seats, list) or not (
            1 <= len(seats) <= MAX_SEATS) or not isinstance(tips, list):
        raise ValueError("table")
    rules = Rules.decode(encoding)
    names = []
    for name, kind in seats:
        if check_name(name) in names or not (kind == "" or kind in LEVELS):
            raise ValueError("seat")
        names.append(name)
    return choice, rules, [[n, k] for n, k in seats], [n for n in tips if n in names]


def _setting(key, value):
    """`value` of setting `key` as the settings hold it, or None when the
    file's value cannot be one (the default stays): a file from a newer
    version, or damaged in a way its checksum missed. A pace is taken
    round its three steps, the switches as true or false; the score pad's
    pair is checked by its form (firmware.screens.pad)."""
    if key == "lang":
        return value if value in ("de", "en") else None
    if key in ("sound", "tips", "ask"):
        return bool(value)
    if key == "pad":
        return value
    if type(value) is not int:
        return None
    if key == "speed":
        return value % 3
    if key == "contrast":
        return value if 0 < value < 256 else None
    if key in ("sleep", "solve"):
        return value if value >= 0 else None
    return value if 0 <= value < 3 else None  # "dice": firmware.ui.DICE_STYLES
