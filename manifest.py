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
# a copy of a package on the filesystem would be imported instead of the
# frozen one.

include("$(PORT_DIR)/boards/manifest.py")

package("engine")
package("firmware")
package("boards")
