"""Entry point of ``python -m simulator`` (``make sim``); the simulator is not built yet."""

import sys

MESSAGE = (
    "The simulator is not built yet (see the play-screens issue); "
    "`make test` runs the engine checks."
)


def main():
    """Explain that the simulator does not exist yet; return exit status 2."""
    print(MESSAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
