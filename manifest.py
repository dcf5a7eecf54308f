# Optional: the game frozen into a custom MicroPython firmware for the Pico.
#
# Stock MicroPython is the way in (`make flash`, `make uf2`): nothing needs
# this file. Frozen bytecode runs from flash instead of being loaded into
# RAM, which leaves most of the 246 KB heap free and makes the boot faster.
# `make uf2-frozen MICROPYTHON=/path/to/micropython` builds it
# (tools/frozen_uf2.py: ports/rp2 for RPI_PICO with FROZEN_MANIFEST set to
# this file); then flash the firmware and copy the tree of `make stage FROZEN=1` onto
# the board with mpremote: main.py, board.txt, tables/ and the title picture
# as /data/title.frm, no engine/, firmware/ or boards/ (a folder of a
# package's name on the file system is imported instead of the frozen
# package, even one holding only data; remove any an earlier stock install
# left). `make chipbench CHIPBENCH_ARGS="--frozen ..."` stages such a tree
# and measures the firmware on the emulated Pico; `make chipheap` with
# --frozen gives the heap per module.

include("$(PORT_DIR)/boards/manifest.py")

package("engine")
package("firmware")
package("boards")
