"""The boards a PC host can run: the board modules in boards/ (boards/NAME.py).

A board is data (pins, bus, display size) that firmware.board.load_board
loads; this lists them for the hosts' --board options and for the tools
(tools.deploy, tools.uf2, tools.mip), which use the hosts, not the other
way round.
"""

from pathlib import Path

BOARDS_DIR = Path(__file__).resolve().parent.parent / "boards"


def board_names():
    """The supported board names (boards/*.py), sorted."""
    return sorted(p.stem for p in BOARDS_DIR.glob("*.py") if p.stem != "__init__")
