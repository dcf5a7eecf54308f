"""Benchmarks for the engine (run with ``make bench``).

Placeholder: the benchmarks are added together with the engine.
"""


def main():
    """Say that there is nothing to measure yet."""
    print("No benchmarks yet: they are added together with the engine.")


if __name__ == "__main__":
    main()
