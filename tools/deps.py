"""Print the dependencies of the named optional groups in pyproject.toml.

Usage: python3 tools/deps.py test [sim ...]   (one requirement per line)
"""

import sys
import tomllib
from pathlib import Path


def main(groups):
    """Print each requirement of the given groups once, in order; return an exit status."""
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    with pyproject.open("rb") as f:
        table = tomllib.load(f)["project"]["optional-dependencies"]
    seen = []
    for group in groups:
        if group not in table:
            print("unknown group: " + group, file=sys.stderr)
            return 2
        for req in table[group]:
            if req not in seen:
                seen.append(req)
    print("\n".join(seen))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
