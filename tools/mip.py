"""The package files for MicroPython's `mip`: package.json and package-BOARD.json.

    python -m tools.mip           write them (after adding or removing a module)
    python -m tools.mip --check   exit 1 when one is missing or out of date

`mpremote mip install --target . github:OWNER/REPO` reads package.json at
the repository's root and copies the files it lists onto the board: the
same tree `tools/deploy.py` stages for the default board (`stage`), as
sources instead of `.mpy`. `--target .` puts them in the board's root
folder, where main.py runs at power-on (without it mip writes into /lib).
Another board has its own file, `github:OWNER/REPO/package-thumby.json`,
which differs in the board module and in board.txt.

The URLs are relative to the package file, so the files name no owner and
no repository. main.py, board.txt and firmware/title.frm (the first boot's
title picture, firmware.splash), which deploy writes while staging, come
from mip/ (written here too; `--check`, run by the tests, finds them stale
when the title screen changes).
"""

import json
import sys

from tools import deploy

ROOT = deploy.ROOT
FOLDER = "mip"  # main.py, one BOARD.txt and BOARD.frm per board, for the package files
VERSION = "0.1.0"


def package_name(board):
    """The package file of `board`: package.json for the default board."""
    from firmware.board import DEFAULT_BOARD

    return "package.json" if board == DEFAULT_BOARD else "package-%s.json" % board


def board_file(board):
    """The repository path of the board.txt that names `board`."""
    return "%s/%s.txt" % (FOLDER, board)


def title_file(board):
    """The repository path of the title picture shipped for `board`."""
    return "%s/%s.frm" % (FOLDER, board)


def urls(board):
    """[[path on the board, path in the repository]] for `board`: every
    module deploy stages (as .py), main.py, board.txt, the title picture
    and the tables."""
    out = []
    for src, _ in deploy.sources(board):
        rel = src.relative_to(ROOT).as_posix()
        out.append([rel, rel])
    out.append([deploy.MAIN, FOLDER + "/" + deploy.MAIN])
    out.append([deploy.BOARD_FILE, board_file(board)])
    out.append([deploy.TITLE_FRAME, title_file(board)])
    for src in deploy.table_files():
        rel = src.relative_to(ROOT).as_posix()
        out.append([rel, rel])
    return out


def package(board):
    """The package.json contents for `board`."""
    return {"urls": urls(board), "deps": [], "version": VERSION}


def package_text(board):
    """`package(board)` as JSON text, one file to a line (readable diffs)."""
    pairs = ",\n".join("  " + json.dumps(pair) for pair in urls(board))
    return '{\n "urls": [\n%s\n ],\n "deps": [],\n "version": %s\n}\n' % (
        pairs, json.dumps(VERSION))


def expected():
    """{repository path: text (str) or bytes} of every file this tool writes."""
    files = {FOLDER + "/" + deploy.MAIN: deploy.ROOT_MAIN_TEXT}
    for board in deploy.board_names():
        files[board_file(board)] = board + "\n"
        files[title_file(board)] = deploy.title_frame(board)
        files[package_name(board)] = package_text(board)
    return files


def stale():
    """The repository paths whose contents differ from `expected()`."""
    out = []
    for rel, data in expected().items():
        path = ROOT / rel
        if isinstance(data, str):
            data = data.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            out.append(rel)
    return out


def main(argv):
    """Write the package files, or with --check report stale ones; an exit status."""
    if "-h" in argv or "--help" in argv:
        print(__doc__.strip())
        return 0
    if "--check" in argv:
        bad = stale()
        for rel in bad:
            print("out of date: %s (run python -m tools.mip)" % rel, file=sys.stderr)
        return 1 if bad else 0
    for rel, data in expected().items():
        path = ROOT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
