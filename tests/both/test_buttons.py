"""Tests of firmware.buttons: debounce, edges, long press, auto-repeat, ticks.
Run under CPython (pytest) and MicroPython (mprun)."""

import sys

from firmware.buttons import (
    ALL,
    ARROWS,
    BITS,
    DOWN,
    LEFT,
    NAMES,
    RIGHT,
    UP,
    A,
    B,
    Buttons,
)
from firmware.clock import ticks_add, ticks_diff

MICROPYTHON = sys.implementation.name == "micropython"


def run(b, steps):
    """Feed (time, bits) steps; return (time, pressed, released, long, repeat) of busy steps."""
    out = []
    for t, bits in steps:
        b.update(t, bits)
        if b.pressed or b.released or b.long or b.repeat:
            out.append((t, b.pressed, b.released, b.long, b.repeat))
    return out


def poll(b, start, end, bits, every=5):
    """Update every `every` ms from `start` to `end` inclusive with the same bits."""
    seen = []
    t = start
    while t <= end:
        b.update(t, bits)
        if b.pressed or b.released or b.long or b.repeat:
            seen.append((t, b.pressed, b.released, b.long, b.repeat))
        t += every
    return seen


def test_constants():
    assert (UP, DOWN, LEFT, RIGHT, A, B) == (1, 2, 4, 8, 16, 32)
    assert NAMES == ("UP", "DOWN", "LEFT", "RIGHT", "A", "B")
    for i, name in enumerate(NAMES):
        assert BITS[name] == 1 << i
    assert len(BITS) == 6
    assert ARROWS == UP | DOWN | LEFT | RIGHT
    assert ALL == 63
    assert Buttons.DEBOUNCE_MS == 20 and Buttons.LONG_MS == 600
    assert Buttons.REPEAT_DELAY_MS == 400 and Buttons.REPEAT_MS == 120


def test_the_first_edge_counts_at_once():
    b = Buttons()
    poll(b, 0, 100, 0)
    seen = poll(b, 101, 130, A, every=1) + poll(b, 131, 300, 0, every=1)
    assert seen == [(101, A, 0, 0, 0), (131, 0, A, 0, 0)], seen


def test_first_edge_with_one_update_per_change():
    b = Buttons()
    seen = run(b, [(0, 0), (100, A), (130, 0), (1000, 0)])
    assert seen == [(100, A, 0, 0, 0), (130, 0, A, 0, 0)], seen


def test_a_release_inside_the_lockout_counts_when_it_ends():
    b = Buttons()
    seen = run(b, [(0, 0), (100, A), (105, 0), (110, 0), (119, 0), (120, 0), (121, 0)])
    assert seen == [(100, A, 0, 0, 0), (120, 0, A, 0, 0)], seen
    b = Buttons()  # a host that updates only on changes gets it at its next update
    seen = run(b, [(0, 0), (100, A), (105, 0), (500, 0)])
    assert seen == [(100, A, 0, 0, 0), (500, 0, A, 0, 0)], seen


def test_bouncy_press_counts_once():
    b = Buttons()
    steps = []
    t = 0
    for bits in (A, 0, A, 0, A, A, A, A, A, A, A, A, A, 0, A, 0, 0, 0, 0, 0, 0, 0, 0, 0):
        steps.append((t, bits))
        t += 3
    seen = run(b, steps)
    assert [s[1] for s in seen if s[1]] == [A]
    assert [s[2] for s in seen if s[2]] == [A]
    assert seen[0][0] == 0  # the first edge


def test_each_button_has_its_own_lockout():
    b = Buttons()
    seen = run(b, [(0, 0), (100, A), (105, A | B), (110, B), (125, B), (140, 0)])
    # A lets go at 110, inside its lockout: it counts at the next update after 120
    assert seen == [(100, A, 0, 0, 0), (105, B, 0, 0, 0), (125, 0, A, 0, 0),
                    (140, 0, B, 0, 0)], seen


def test_pressed_only_on_the_edge():
    b = Buttons(debounce_ms=0)
    b.update(0, B)
    assert b.pressed == B and b.events == B and b.held == B
    for t in range(1, 300):
        b.update(t, B)
        assert b.pressed == 0 and b.events == 0 and b.held == B
    b.update(300, 0)
    assert b.released == B and b.pressed == 0 and b.held == 0
    b.update(301, 0)
    assert b.released == 0


def test_long_press_once_after_600ms():
    b = Buttons()
    poll(b, 0, 50, 0)
    seen = poll(b, 100, 2000, A)
    assert seen == [(100, A, 0, 0, 0), (700, 0, 0, A, 0)], seen
    seen = poll(b, 2005, 2100, 0)
    assert seen == [(2005, 0, A, 0, 0)], seen
    assert b.short == 0  # it was a long press


def test_short_press_is_a_tap():
    b = Buttons(debounce_ms=0)
    b.update(0, A)
    b.update(599, A)
    assert b.long == 0
    b.update(600, 0)
    assert b.released == A and b.short == A and b.long == 0


def test_long_press_again_after_release():
    b = Buttons(debounce_ms=0)
    longs = []
    for start in (0, 1000):
        for t in range(start, start + 800, 10):
            b.update(t, B)
            if b.long:
                longs.append(t)
        b.update(start + 800, 0)
    assert longs == [600, 1600]


def test_auto_repeat_timing_for_arrows():
    b = Buttons(debounce_ms=0)
    seen = []
    for t in range(0, 1000):
        b.update(t, DOWN)
        if b.repeat:
            assert b.repeat == DOWN and b.events == DOWN
            seen.append(t)
        elif t:
            assert b.events == 0
    assert seen == [400, 520, 640, 760, 880], seen
    b.update(1000, 0)
    assert b.repeat == 0 and b.released == DOWN


def test_repeat_counts_from_the_press_with_debounce():
    b = Buttons()
    seen = poll(b, 0, 700, LEFT, every=10)
    assert [s[0] for s in seen if s[4]] == [400, 520, 640]
    assert seen[0] == (0, LEFT, 0, 0, 0)


def test_slow_polling_skips_missed_repeats():
    b = Buttons(debounce_ms=0)
    b.update(0, UP)
    b.update(1000, UP)  # five repeats were due: one is reported
    assert b.repeat == UP
    b.update(1001, UP)
    assert b.repeat == 0
    b.update(1120, UP)  # due at 1120 = 400 + 6 * 120
    assert b.repeat == UP


def test_a_and_b_never_repeat():
    b = Buttons(debounce_ms=0)
    for t in range(0, 3000, 7):
        b.update(t, A | B)
        assert b.repeat == 0
        assert b.events == (A | B if t == 0 else 0)


def test_several_buttons_at_once():
    b = Buttons(debounce_ms=0)
    b.update(0, UP | A)
    assert b.pressed == UP | A and b.held == UP | A
    b.update(100, UP | A | RIGHT)
    assert b.pressed == RIGHT and b.held == UP | A | RIGHT
    b.update(400, UP | A | RIGHT)
    assert b.repeat == UP  # RIGHT went down 100 ms later
    b.update(500, UP | RIGHT)
    assert b.released == A and b.pressed == 0 and b.repeat == RIGHT
    b.update(600, UP | RIGHT)
    assert b.long == UP
    b.update(700, UP | RIGHT)
    assert b.long == RIGHT
    b.update(701, 0)
    assert b.released == UP | RIGHT and b.held == 0


def test_bits_outside_the_six_buttons_are_ignored():
    b = Buttons(debounce_ms=0)
    b.update(0, 64 | 128 | A)
    assert b.held == A and b.pressed == A


def test_last_activity_and_idle():
    b = Buttons()
    b.update(1000, 0)
    assert b.last_activity_ms == 1000
    b.update(5000, 0)
    assert b.idle_ms(5000) == 4000
    b.update(5000, A)  # a 3 ms spike counts as a tap: the first edge counts
    b.update(5003, 0)
    assert b.last_activity_ms == 5000
    b.update(6000, 0)  # its release, after the lockout
    assert b.last_activity_ms == 6000 and b.released == A
    b.update(7000, B)
    b.update(7020, B)
    assert b.last_activity_ms == 7000
    b.update(7600, B)  # long press
    assert b.last_activity_ms == 7600
    b.update(9000, B)  # held, nothing new
    assert b.idle_ms(9000) == 1400


def test_tunables_are_class_attributes():
    class Slow(Buttons):
        LONG_MS = 1000

    b = Slow(debounce_ms=0)
    b.update(0, A)
    b.update(999, A)
    assert b.long == 0
    b.update(1000, A)
    assert b.long == A
    assert Buttons.LONG_MS == 600


def test_ticks_helpers():
    assert ticks_diff(130, 100) == 30
    assert ticks_diff(100, 130) == -30
    assert ticks_add(100, 30) == 130
    if MICROPYTHON:
        period = ticks_add(0, -1) + 1  # 2**30 on the RP2040, more on 64-bit Unix
        assert period >= 2**30
        near = period - 10
        assert ticks_add(near, 25) == 15
        assert ticks_diff(15, near) == 25
        assert ticks_diff(near, 15) == -25
        assert ticks_diff(ticks_add(0, -1), 0) == -1


def test_update_across_the_ticks_wrap():
    start = ticks_add(0, -300)  # 300 ms before the wrap on MicroPython
    b = Buttons()
    longs = []
    repeats = []
    presses = []
    for step in range(0, 1000, 10):
        t = ticks_add(start, step)
        b.update(t, UP if step >= 100 else 0)
        if b.pressed:
            presses.append(step)
        if b.long:
            longs.append(step)
        if b.repeat:
            repeats.append(step)
    assert presses == [100]
    assert longs == [700]
    assert repeats == [500, 620, 740, 860, 980]
    assert b.idle_ms(ticks_add(start, 1000)) == 20


def test_no_allocation_per_update():
    b = Buttons()
    b.update(0, 0)
    if not MICROPYTHON:
        return
    import micropython

    micropython.heap_lock()
    try:
        t = 0
        for i in range(3000):
            t += 7
            b.update(t, (i * 37 >> 4) & 63 if i % 200 < 150 else UP | A)
            b.idle_ms(t)
    finally:
        micropython.heap_unlock()


def test_random_mashing():
    seed = 12345
    for debounce in (20, 0, 5):
        b = Buttons(debounce_ms=debounce)
        t = raw = 0
        stable = 0  # the model: per button, a change counts unless it is locked out
        changed_at = [None] * 6
        prev_held = long_seen = 0
        for _ in range(1000):
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            r = seed >> 8
            t += r % 40 if r & 0x100 else r % 3  # fast bounce and slower holds
            if r & 0x200:
                raw = (r >> 12) & ALL
            b.update(t, raw if r & 0xC00 else raw | 0xC0)  # stray high bits
            for i in range(6):
                bit = 1 << i
                if (raw ^ stable) & bit and (changed_at[i] is None
                                             or t - changed_at[i] >= debounce):
                    stable ^= bit
                    changed_at[i] = t
            assert b.held == stable, (t, raw, b.held, stable)
            assert b.pressed == b.held & ~prev_held
            assert b.released == prev_held & ~b.held
            assert b.repeat & ~(b.held & ARROWS) == 0
            assert b.long & ~b.held == 0
            assert b.long & long_seen == 0  # once per press
            long_seen = (long_seen | b.long) & b.held
            assert b.events == b.pressed | b.repeat
            prev_held = b.held
