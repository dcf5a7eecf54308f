"""Property tests of engine.scorepad (CPython, hypothesis): random evenings of
entries, Nichts, adjustments, joins, leaves and undos.

At every step: nothing crashes (a refusal is a PadError that leaves the pad
exactly as it was); totals are multiples of 50 and never negative and agree
with a small independent model of the totals; the turn is always with a seat
at the table (a play-off seat during a play-off); undo right after any
accepted action restores the previous to_data exactly (with snapshots for
undo taken every 1, 2, 3 or 64 entries); a save through to_data/from_data
and through the codec gives the same pad back. A second property checks the
end: equal turns, one winner, play-off seats only.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import scorepad
from engine.scorepad import MAX_ROWS, PadError, ScorePad
from tests.both.helpers import decode_pad, encode_pad

NAMES = ["Anna", "Ben", "Cleo", "Dora", "Emil", "Fritz", "Gina", "Hans", "Ida", "anna"]

points = st.one_of(
    st.sampled_from((0, 50, 100, 300, 350, 400, 500, 1000, 1500, 3000)),
    st.integers(min_value=-200, max_value=3200),
)
actions = st.one_of(
    st.tuples(st.just("enter"), points),
    st.tuples(st.just("enter"), points),
    st.just(("nothing",)),
    st.just(("nothing",)),
    st.tuples(st.just("adjust"), st.integers(min_value=-1, max_value=10),
              st.one_of(st.sampled_from((-1000, -500, 50, 500)),
                        st.integers(min_value=-3000, max_value=3000))),
    st.tuples(st.just("join"), st.sampled_from(NAMES)),
    st.tuples(st.just("leave"), st.integers(min_value=-1, max_value=10)),
    st.just(("undo",)),
)
setups = st.tuples(
    st.sampled_from((500, 1000, 2000, 5000, 10000)),
    st.sampled_from((0, 300, 350, 500)),
    st.sampled_from((0, 500, 1000)),
    st.integers(min_value=1, max_value=8),
)


class Model:
    """The totals as the rules of 002 say, kept apart from the pad."""

    def __init__(self, pad):
        self.entry = pad.entry
        self.penalty = pad.penalty
        self.score = [0] * len(pad.seats)
        self.inside = [False] * len(pad.seats)
        self.run = [0] * len(pad.seats)

    def copy(self):
        m = Model.__new__(Model)
        m.entry, m.penalty = self.entry, self.penalty
        m.score, m.inside, m.run = list(self.score), list(self.inside), list(self.run)
        return m

    def apply(self, action, seat):
        kind = action[0]
        if kind == "enter":
            self.run[seat] = 0
            if self.inside[seat] or action[1] >= self.entry:
                self.inside[seat] = True
                self.score[seat] += action[1]
        elif kind == "nothing":
            self.run[seat] += 1
            if self.penalty and self.run[seat] == 3:
                self.score[seat] = max(0, self.score[seat] - self.penalty)
                self.run[seat] = 0
        elif kind == "adjust":
            i, d = action[1], action[2]
            self.score[i] = max(0, self.score[i] + d)
            if d > 0:
                self.inside[i] = True
        elif kind == "join":
            self.score.append(0)
            self.inside.append(False)
            self.run.append(0)


def check(pad, model):
    active = pad.active_seats()
    assert 1 <= len(active) <= 8 and len(pad.seats) <= MAX_ROWS
    keys = [pad.seats[i].name.strip().lower() for i in active]
    assert len(set(keys)) == len(keys)
    for s in pad.seats:
        assert s.score >= 0 and s.score % 50 == 0
        assert s.turns >= s.nothing and s.best % 50 == 0
    assert [s.score for s in pad.seats] == model.score
    assert [s.entered for s in pad.seats] == model.inside
    assert pad.current in active
    if pad.playoff is not None:
        assert len(pad.playoff) >= (1 if pad.over else 2)
        assert all(i in active for i in pad.playoff)
        if not pad.over:
            assert pad.current in pad.playoff
    if pad.over:
        assert pad.winner in active and pad.to_play() == []
        assert not pad.final_round
    turns = sum(1 for e in pad.history() if e[0] in ("enter", "nothing"))
    assert sum(s.turns for s in pad.seats) == turns
    assert pad.standings() == sorted(active, key=lambda i: (-pad.seats[i].score, i))


@settings(max_examples=300, deadline=None)
@given(setups, st.lists(actions, max_size=80), st.sampled_from((1, 2, 3, 64)))
def test_random_evenings(setup, steps, mark_every):
    keep = scorepad.MARK_EVERY
    scorepad.MARK_EVERY = mark_every
    try:
        evening(setup, steps)
    finally:
        scorepad.MARK_EVERY = keep


def evening(setup, steps):
    target, entry, penalty, n = setup
    entry = min(entry, target)
    pad = ScorePad(target=target, entry=entry, penalty=penalty, names=NAMES[:n])
    model = Model(pad)
    models = []
    for action in steps:
        before = pad.to_data()
        seat = pad.current
        reason = pad.why_not(action)
        try:
            events = pad.apply(action)
        except PadError as e:
            assert reason == e.reason
            assert pad.to_data() == before
            continue
        assert reason is None and isinstance(events, list)
        if action[0] == "undo":
            model = models.pop()
        else:
            models.append(model.copy())
            model.apply(action, seat)
            after = pad.to_data()
            entry_done = pad.last_entry()
            assert pad.undo() == [("undo", entry_done)]
            assert pad.to_data() == before
            again = pad.apply(action)
            assert again == events and pad.to_data() == after
        check(pad, model)
        assert len(pad._marks) == len(pad.log) // scorepad.MARK_EVERY
        back = ScorePad.from_data(pad.to_data())
        assert back == pad and back._marks == pad._marks
        assert decode_pad(encode_pad(pad)) == pad
    while pad.can_undo:  # all the way back, snapshots and all
        pad.undo()
        model = models.pop()
        check(pad, model)
    assert pad == ScorePad(target=target, entry=entry, penalty=penalty, names=NAMES[:n])


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=1, max_value=8), st.sampled_from((1000, 3000)),
       st.lists(st.one_of(st.none(), st.sampled_from((0, 50, 350, 500, 1000, 2000)),
                          st.sampled_from((500, 1000))),
                max_size=120))
def test_equal_turns_at_the_end(n, target, turns):
    """Without joins and leaves the evening ends with equal turns for all
    (play-off seats: equal turns among them, more than the rest)."""
    pad = ScorePad(target=target, entry=350, penalty=500, names=NAMES[:n])
    for t in turns:
        if pad.over:
            break
        if t is None:
            pad.nothing()
        else:
            pad.enter(t)
    count = [s.turns for s in pad.seats]
    if pad.over:
        assert max(s.score for s in pad.seats) == pad.seats[pad.winner].score
        if pad.playoff is None:
            assert len(set(count)) == 1
            assert pad.seats[pad.winner].score >= target
            assert [s.score for s in pad.seats].count(pad.seats[pad.winner].score) == 1
        else:
            inside = [count[i] for i in pad.playoff]
            assert len(set(inside)) == 1
            assert all(c <= inside[0] for c in count)
    else:
        # The seats before the current one have one turn more than the rest
        cur = pad.current
        if pad.playoff is None:
            assert all(count[i] == count[0] for i in range(cur))
            assert all(count[i] == count[-1] for i in range(cur, n))
            assert count[0] - count[-1] in (0, 1)
