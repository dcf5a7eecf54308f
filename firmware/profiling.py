"""Where a loop pass spends its time on the chip (benchmark builds only).

`tools/chipbench` stages a `bench.json` that switches this on
(firmware.device.bench_options); a normal device never imports it. Each
pass that pushes a frame prints one line on the USB serial:

    @prof ms=<ticks_ms> read=<us> step=<us> draw=<us> show=<us> alloc=<bytes>
          idle=<n>:<bytes> scr=<name>

(on one line)

`read` is reading the pins, `step` the app's step without drawing, `draw`
drawing the screen, `show` handing the frame to the display (its transfer),
`alloc` the heap the whole pass allocated (the printing not included),
`idle` the passes without a frame since the last line and what they
allocated. The heap figures need "heap" on: `gc.mem_alloc()` walks the
whole heap (about 6 ms on the chip), which would slow every pass, so a
timing run prints them as 0. With "heap" on, the pass then collects the
garbage and prints

    @heap ms=<ticks_ms> live=<bytes> free=<bytes> scr=<name>

The collection and the printing come after the frame is on the panel, so
the press-to-panel times stay the loop's own (the next poll is later).
"""

import gc

from firmware.clock import ticks_diff  # (time's on MicroPython; CircuitPython has none)

_idle = [0, 0]  # passes without a frame since the last line, bytes they allocated


def profiled_step(dev):
    """`Device.step` with its phases timed (see the module docstring)."""
    if dev.asleep:
        dev.doze()
        return
    app = dev.app
    heap = dev.heap
    ticks_us = dev.clock.ticks_us  # the device clock's: `time` on MicroPython, circuitpy.clock
    a0 = gc.mem_alloc() if heap else 0
    t0 = ticks_us()
    now = dev.clock.ticks_ms()
    bits = dev.read(now)
    t1 = ticks_us()
    app.draw_us = 0
    shown = app.step(now, bits)
    t2 = ticks_us()
    if shown:
        dev.push()
    t3 = ticks_us()
    alloc = gc.mem_alloc() - a0 if heap else 0
    if shown:
        draw = app.draw_us
        print("@prof ms=%d read=%d step=%d draw=%d show=%d alloc=%d idle=%d:%d scr=%s" % (
            now, ticks_diff(t1, t0), ticks_diff(t2, t1) - draw, draw, ticks_diff(t3, t2), alloc,
            _idle[0], _idle[1], app.top().name))
        _idle[0] = _idle[1] = 0
        if heap:
            gc.collect()
            print("@heap ms=%d live=%d free=%d scr=%s" % (now, gc.mem_alloc(), gc.mem_free(),
                                                        app.top().name))
    else:
        _idle[0] += 1
        if alloc > 0:  # a collection during the pass makes it negative: not an allocation
            _idle[1] += alloc
    dev.settle(now)
