"""A fake `machine` module for tests, under CPython and the MicroPython Unix port.

Put `tools/fakes` first on sys.path and `import machine` finds this module
(MicroPython lets a file on the path override its built-in `machine`).

What the firmware uses is here: `Pin` (IN/OUT, PULL_UP, `value()`, calling
the pin), `I2C` (`writeto`, `writevto`, `scan`), `SPI` (`write`), `ADC`
(`read_u16`), `PWM` (`freq`, `duty_u16`, `deinit`), `lightsleep`, `freq`,
`unique_id`, `reset`. What tests use on top:

- `level(pin, v)` sets the level an input pin reads; `press(pin)` and
  `release(pin)` pull a button pin low and let it go (buttons are active low;
  an input with PULL_UP reads 1 until a test pulls it low).
- `attach_i2c(device, bus=0, addr=0x3C)`: `device.i2c_write(data)` gets the
  bytes of every transaction to that address (a `writevto` vector arrives
  joined, as on the wire); `scan()` lists the attached addresses.
- `attach_spi(device, bus=0)`: `device.spi_write(data)` gets each `write`
  while the device reads its DC and CS pins with `pin_level(pin)`.
- `set_adc(pin, raw)`: what `ADC(pin).read_u16()` returns.
- `Clock`: a virtual clock with `ticks_ms`, `ticks_diff`, `sleep_ms`; after
  `use_clock(clock)`, `lightsleep(ms)` advances it too.
- `PWM` objects log their calls in `pwm_log` as (pin, method, value).
- After `log_pins(True)`, `pin_log` lists (pin, level) for every level the
  firmware drives on a pin, in order (off by default: logging allocates);
  `pin_pull(pin)` is the pull a pin was last given.
- `reset_fakes()` forgets every pin, device, ADC value, log and the clock.

- `WDT(timeout=ms)`: a watchdog that counts its `feed`s (`wdts` lists the
  ones started) and sets the RP2040 registers the Pico SDK does in `mem32`
  (a dict of the 32-bit words written, 0 elsewhere): CTRL's enable bit and
  SCRATCH4's magic. `watchdog_fires()` makes `mem32` read as after a reset
  by the watchdog's timer (REASON set).

Counters: `lightsleeps` (list of the ms asked for), `resets`.
"""

_levels = {}  # pin id -> level driven by a test (inputs) or the firmware (outputs)
_modes = {}  # pin id -> mode
_pulls = {}  # pin id -> pull (PULL_UP, PULL_DOWN)
_irqs = {}  # pin id -> (handler, trigger, pin object)
_i2c = {}  # (bus, addr) -> device
_spi = {}  # bus -> device
_adc = {}  # pin id -> raw 16-bit reading
pwm_log = []
pin_log = []
_log_pins = [False]
lightsleeps = []
resets = []
_clock = [None]
_freq = [125000000]
wdts = []


def reset_fakes():
    """Forget pins, buses, ADC values, logs and the clock (between tests)."""
    _levels.clear()
    _irqs.clear()
    _modes.clear()
    _pulls.clear()
    _i2c.clear()
    _spi.clear()
    _adc.clear()
    del pwm_log[:]
    del pin_log[:]
    _log_pins[0] = False
    del lightsleeps[:]
    del resets[:]
    del wdts[:]
    mem32.clear()
    _clock[0] = None


def _pin_id(pin):
    return pin.id if isinstance(pin, Pin) else pin


def level(pin, value):
    """Make pin `pin` (id or Pin) read `value`; a falling edge on a pin with
    an interrupt handler (`Pin.irq`) calls it, as rp2's scheduled IRQs do."""
    pid = _pin_id(pin)
    old = _levels.get(pid, 1)
    new = 1 if value else 0
    _levels[pid] = new
    irq = _irqs.get(pid)
    if irq is not None and old and not new and irq[1] & Pin.IRQ_FALLING:
        irq[0](irq[2])


def press(pin):
    """Hold the button on `pin` down (pull it low)."""
    level(pin, 0)


def release(pin):
    """Let the button on `pin` go (the pull-up makes it read 1)."""
    level(pin, 1)


def pin_level(pin):
    """The level pin `pin` has now (outputs: what the firmware drove)."""
    return _levels.get(_pin_id(pin), 1)


def log_pins(on):
    """Start (True) or stop (False) logging driven pin levels in `pin_log`."""
    _log_pins[0] = on


def _drive(pid, value):
    _levels[pid] = 1 if value else 0
    if _log_pins[0]:
        pin_log.append((pid, _levels[pid]))


def pin_pull(pin):
    """The pull pin `pin` was last set to (Pin.PULL_UP, Pin.PULL_DOWN), or None."""
    return _pulls.get(_pin_id(pin))


def attach_i2c(device, bus=0, addr=0x3C):
    """Put `device` (with `i2c_write(data)`) on I2C bus `bus` at `addr`."""
    _i2c[(bus, addr)] = device


def attach_spi(device, bus=0):
    """Put `device` (with `spi_write(data)`) on SPI bus `bus`."""
    _spi[bus] = device


def set_adc(pin, raw):
    """Make `ADC(pin).read_u16()` return `raw`."""
    _adc[_pin_id(pin)] = raw


class Clock:
    """Virtual milliseconds: `sleep_ms` (and `lightsleep` once used) advance them."""

    def __init__(self, start=0):
        self.now = start
        self.slept = 0  # total ms slept through sleep_ms

    def ticks_ms(self):
        """The virtual time in ms."""
        return self.now

    def ticks_diff(self, new, old):
        """`new - old` (virtual ticks never wrap)."""
        return new - old

    def sleep_ms(self, ms):
        """Let `ms` of virtual time pass."""
        if ms > 0:
            self.now += ms
            self.slept += ms

    def advance(self, ms):
        """Let `ms` pass without a sleep (work that took time)."""
        self.now += ms


def use_clock(clock):
    """Make `lightsleep` advance `clock`."""
    _clock[0] = clock


class Pin:
    """A GPIO pin; inputs read what tests set, outputs remember their level."""

    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None):
        """Set the mode (and an output's level)."""
        if mode != -1:
            _modes[self.id] = mode
        if pull != -1:
            _pulls[self.id] = pull
        if value is not None:
            _drive(self.id, value)

    def value(self, v=None):
        """Read the level, or drive it (outputs)."""
        if v is None:
            return _levels.get(self.id, 1)
        _drive(self.id, v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING):
        """Call `handler(pin)` on the edges of `trigger` (None: no handler)."""
        if handler is None:
            _irqs.pop(self.id, None)
        else:
            _irqs[self.id] = (handler, trigger, self)

    def on(self):
        """Drive the pin high."""
        self.value(1)

    def off(self):
        """Drive the pin low."""
        self.value(0)


class I2C:
    """An I2C controller; transactions go to the attached device at the address."""

    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        self.id = id
        self.freq = freq
        self.transactions = 0
        self.bytes = 0  # bytes after the address byte, all transactions

    def scan(self):
        """The addresses that answer."""
        return sorted(addr for (bus, addr) in _i2c if bus == self.id)

    def _send(self, addr, data):
        device = _i2c.get((self.id, addr))
        if device is None:
            raise OSError(19, "ENODEV")  # no ACK, as on the rp2 port
        self.transactions += 1
        self.bytes += len(data)
        device.i2c_write(data)

    def writeto(self, addr, buf, stop=True):
        """One write transaction of `buf`; returns the number of ACKs. The
        device reads `buf` in place: a copy per frame would fragment the
        capped heap of the MicroPython runs, which the real port does not."""
        self._send(addr, buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        """One write transaction of the buffers in `vector`, back to back."""
        data = bytearray()
        for part in vector:
            data.extend(part)
        self._send(addr, data)
        return len(data)


class SPI:
    """An SPI controller; writes go to the attached device."""

    def __init__(self, id=0, baudrate=1000000, polarity=0, phase=0, sck=None, mosi=None,
                 miso=None):
        self.id = id
        self.baudrate = baudrate
        self.writes = 0
        self.bytes = 0

    def write(self, buf):
        """Clock out `buf`."""
        self.writes += 1
        self.bytes += len(buf)
        device = _spi.get(self.id)
        if device is not None:
            device.spi_write(bytes(buf))


class ADC:
    """An ADC input (a Pin or a pin number); `read_u16` returns what tests set."""

    def __init__(self, pin):
        self.pin = _pin_id(pin)

    def read_u16(self):
        """The raw reading, 0..65535."""
        return _adc.get(self.pin, 0)


class PWM:
    """A PWM output; every call is logged in `pwm_log`."""

    def __init__(self, pin, freq=None, duty_u16=None):
        self.pin = _pin_id(pin)
        self._freq = 1000
        self._duty = 0
        pwm_log.append((self.pin, "init", 0))

    def freq(self, f=None):
        """Get or set the frequency in Hz."""
        if f is None:
            return self._freq
        self._freq = f
        pwm_log.append((self.pin, "freq", f))
        return None

    def duty_u16(self, d=None):
        """Get or set the duty cycle, 0..65535."""
        if d is None:
            return self._duty
        self._duty = d
        pwm_log.append((self.pin, "duty_u16", d))
        return None

    def deinit(self):
        """Stop the output."""
        pwm_log.append((self.pin, "deinit", 0))


def lightsleep(ms=None):
    """Record the sleep; advance the clock given to `use_clock`."""
    lightsleeps.append(ms)
    clock = _clock[0]
    if clock is not None and ms:
        clock.now += ms


def freq(hz=None):
    """Get or set the CPU frequency."""
    if hz is None:
        return _freq[0]
    _freq[0] = hz
    return None


def unique_id():
    """Eight bytes, as on the RP2040's flash chip."""
    return b"\xe6\x61\x38\x97\x63\x2b\x4d\x2e"


def reset():
    """Record a reset request (a real board would restart); `mem32` reads
    as after the Pico SDK's watchdog_reboot (REASON set, SCRATCH4 0)."""
    resets.append(1)
    mem32[_WD_REASON] = 1
    mem32[_WD_SCRATCH4] = 0
    mem32[_WD_CTRL] = 0


class _Mem32(dict):
    """machine.mem32: the words written, 0 where none was."""

    def __getitem__(self, addr):
        return self.get(addr, 0)


mem32 = _Mem32()
_WD_CTRL = 0x40058000
_WD_REASON = 0x40058008
_WD_SCRATCH4 = 0x4005801C


class WDT:
    """A watchdog: counts `feeds`; started as the Pico SDK's
    watchdog_enable starts the RP2040's (see `mem32`)."""

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        mem32[_WD_SCRATCH4] = 0x6AB73121
        mem32[_WD_CTRL] = mem32[_WD_CTRL] | (1 << 30)
        wdts.append(self)

    def feed(self):
        """The loop is alive."""
        self.feeds += 1


def watchdog_running():
    """True while a started watchdog's enable bit is set."""
    return bool(mem32[_WD_CTRL] & (1 << 30))


def watchdog_fires():
    """The registers as the boot after a reset by the watchdog's timer reads
    them (SCRATCH4 keeps the magic its start wrote: a reset keeps it)."""
    mem32[_WD_REASON] = 1
    mem32[_WD_SCRATCH4] = 0x6AB73121
    mem32[_WD_CTRL] = 0


def idle():
    """Nothing to wait for."""
