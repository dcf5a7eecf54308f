# Optional: the game frozen into a custom MicroPython firmware for the Pico.
#
# Stock MicroPython is the way in (`make flash`, `make uf2`): nothing needs
# this file. Frozen bytecode runs from flash instead of being loaded into
# RAM, which leaves most of the 246 KB heap free and makes the boot faster.
# From a MicroPython checkout:
#
#     make -C ports/rp2 BOARD=RPI_PICO FROZEN_MANIFEST=/path/to/this/manifest.py
#
# then flash the firmware and copy only main.py, board.txt and tables/ onto
# the board (the tree from `make stage` minus engine/, firmware/, boards/):
# a folder of a package's name on the file system is imported instead of
# the frozen package, even one that holds only data. The shipped title
# picture (firmware/title.frm) may go to /data/title.frm, where the device
# keeps its own. `make chipbench CHIPBENCH_ARGS="--frozen ..."` stages such a
# tree (tools/chipbench.drop_frozen) and measures the firmware on the
# emulated Pico; `make chipheap` does the same for the heap per module.

include("$(PORT_DIR)/boards/manifest.py")

package("engine")
package("firmware")
package("boards")
