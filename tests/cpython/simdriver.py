"""Drive the headless simulator by key presses alone, as a person would.

`new_game(sim, preset_key, kinds)` fills the new-game form; `play_to_end`
plays every person's turns with a simple rule (take all scoring dice, bank
from 350 or with two dice or fewer left) and waits through the computers'.
Every key goes through `Sim.press`; nothing touches the engine directly.
"""

from firmware.screens.setup import KINDS
from simulator.host import Sim


def scripted_game(rules, seats, faces, scores=()):
    """A Game of `rules` for `seats` ([(name, kind)]) whose dice come from
    `faces`, with the first seats' banked `scores` (entered when above 0)."""
    from engine.dice import ScriptedDice
    from engine.game import Game

    game = Game(rules, list(seats), ScriptedDice(faces))
    for i, score in enumerate(scores):
        game.seats[i].score = score
        game.seats[i].entered = score > 0
    return game


def settle(sim, bound_ms=2000):
    """Let virtual time pass until the play screen's dice stop tumbling
    (its result shows only then, issue 51); a screen without dice at once."""
    anim = getattr(sim.app.top(), "anim", None)
    waited = 0
    while anim is not None and anim.armed:
        assert waited < bound_ms, "the roll animation did not end in %d ms" % bound_ms
        sim.step(20)
        waited += 20


def press(sim, *keys):
    """Press keys in order."""
    for key in keys:
        sim.press(key)


def to_row(sim, row):
    """Move the new-game form's cursor to its row number `row` by the
    shorter way round."""
    count = len(sim.app.top().labels(sim.app))
    down = (row - sim.state()["index"]) % count
    press(sim, *(["DOWN"] * down if down <= count - down else ["UP"] * (count - down)))


def new_game(sim, preset_key, kinds):
    """From the title screen: fill the form (preset with its own target,
    seats of `kinds`, '' for a person) and start; the form may start from
    the last table. A running game is replaced (the question answered A)."""
    from engine.rules import preset

    state = sim.state()
    assert state["screen"] == "title"
    row = sim.app.top()._entries(sim.app).index("new_game")  # after "continue", if any
    while sim.state()["index"] != row:
        press(sim, "DOWN" if sim.state()["index"] < row else "UP")
    press(sim, "A")
    assert sim.state()["screen"] == "setup"
    to_row(sim, 0)
    for _ in range(sim.app.top()._choice_count()):
        if sim.state()["preset"] == preset_key:
            break
        press(sim, "RIGHT")
    target = preset(preset_key).target
    to_row(sim, 1)
    while sim.state()["target"] != target:
        press(sim, "LEFT" if sim.state()["target"] > target else "RIGHT")
    to_row(sim, 2)  # the seat count row
    while len(sim.state()["seats"]) != len(kinds):
        press(sim, "RIGHT" if len(sim.state()["seats"]) < len(kinds) else "LEFT")
    for i, kind in enumerate(kinds):
        press(sim, "DOWN")
        current = sim.state()["seats"][i][1]
        steps = (KINDS.index(kind) - KINDS.index(current)) % len(KINDS)
        press(sim, *["RIGHT"] * steps)
    to_row(sim, len(sim.app.top().labels(sim.app)) - 1)  # start
    press(sim, "A")
    if sim.state()["screen"] == "confirm":
        press(sim, "A")  # replace the running game
    assert sim.state()["screen"] in ("play", "handover"), sim.state()["screen"]


def _seat_kind(state, seat):
    return state["engine"][1][seat][1]


def _commit(sim, key, other):
    """Roll on (UP) or bank (DOWN) as a person does: the key, and again when
    the screen asks; a refused bank rolls on instead. Returns the presses."""
    before = sim.state()
    press(sim, key)
    count = 1
    after = sim.state()
    if after.get("asking"):
        press(sim, key)
        return count + 1
    if after.get("phase") == before["phase"] and after.get("roll") == before["roll"] and after.get(
            "message"):
        return count + _commit(sim, other, key)  # refused (entry hurdle, hot dice)
    return count


def person_turn_step(sim, state, presses):
    """One decision of a person on the play screen; counts its presses."""
    phase = state["phase"]
    if phase == "start" or phase == "farkle":
        press(sim, "A")
        presses.append(1)
        return
    if phase == "decide":
        bank = state["turn_total"] >= 350
        presses.append(_commit(sim, "DOWN" if bank else "UP", "UP" if bank else "DOWN"))
        return
    # keep: all scoring dice (the first UP or DOWN picks them), then bank or roll on
    keep, points = _best(state)
    left = len(state["roll"]) - len(keep)
    bank = state["turn_total"] + points >= 350 or 0 < left <= 2
    presses.append(_commit(sim, "DOWN" if bank else "UP", "UP"))


def _best(state):
    """(dice, points) of every scoring die on the table."""
    from engine.rules import Rules
    from engine.scoring import scoring_keep

    rules = Rules.decode(state["engine"][0])
    return scoring_keep(tuple(state["roll"]), rules, tuple(state["engine"][7])) or ((), 0)


def play_to_end(sim, limit=20000):
    """Play until the winner screen; returns (winner state, presses per
    person decision)."""
    presses = []
    for _ in range(limit):
        state = sim.state()
        screen = state["screen"]
        if screen == "winner":
            return state, presses
        if screen in ("handover", "message"):
            press(sim, "A")
        elif screen == "standings":
            press(sim, "B")
        elif screen == "play":
            if state["phase"] == "over" or _seat_kind(state, state["current"]):
                sim.run(300)
            else:
                person_turn_step(sim, state, presses)
        else:
            raise AssertionError("unexpected screen %r" % screen)
    raise AssertionError("game did not end")


class Cut(Exception):
    """The power went off between two steps."""


class CutSim(Sim):
    """A Sim whose power goes off before step number `steps_left`."""

    steps_left = -1

    def step(self, ms=0):
        """Sim.step, unless the power is due to go off."""
        if self.steps_left == 0:
            raise Cut()
        self.steps_left -= 1
        return Sim.step(self, ms)


class _Planner:
    """Stands in for the App while a copy of the Typer tries keys
    (`_fewest_keys`): nothing is drawn, taking the name ends the copy."""

    def t(self, key):
        return key

    def redraw(self):
        pass

    def pop(self):
        pass


def _fewest_keys(typer, name, take):
    """The fewest key presses (a list of key names) that bring `typer`
    (a copy of it is tried, the screen itself untouched) to `name`: taken
    (`take`: by the ✓ or by the whole name the title line offers) or typed.
    Breadth first over (text, cursor, offer); a text that stops being the
    start of `name` is not followed."""
    import copy

    from firmware import buttons

    app = _Planner()

    def key_of(t):
        return (t.typed, t.row, t.col, t.suggestion)

    start = copy.copy(typer)
    start.used = typer.used
    seen = {key_of(start)}
    level = [(start, [])]
    while level:
        nxt = []
        for t, keys in level:
            for key in buttons.NAMES:
                c = copy.copy(t)
                got = []
                c.done = lambda app, taken, got=got: got.append(taken)
                c.on_key(app, buttons.BITS[key], "press")
                if got or (not take and c.typed == name):
                    if (got and got[0] == name) or (not take and not got):
                        return keys + [key]
                    continue
                if not name.startswith(c.typed) or c.error:
                    continue
                k = key_of(c)
                if k not in seen:
                    seen.add(k)
                    nxt.append((c, keys + [key]))
        level = nxt
    raise AssertionError("no keys type %r" % name)


def type_name(sim, name, take=True):
    """On the Typer: type `name` with the fewest presses, planned on a copy
    of the screen (the letter grid round its edges, A on each letter, the
    whole name the title line offers and LEFT/RIGHT there for the other
    names that begin alike), and (`take`) take it; the keys then go
    through the simulator. Returns the presses."""
    assert sim.state()["screen"] == "typer"
    keys = _fewest_keys(sim.app.top(), name, take)
    press(sim, *keys)
    if take:
        assert sim.state()["screen"] != "typer"
    else:
        assert sim.state()["text"] == name.rstrip()
    return len(keys)
