"""Copy the statistics off the board and write them as CSV.

    python -m tools.pull_stats [--port PORT] [--out build/stats.csv]
    python -m tools.pull_stats --file PATH [--out -]   (a stats file on the PC, e.g. the
                                                        simulator's, to stdout)

The board keeps them in /data/stats, an engine.codec blob of kind 0x54 ("T").
The layout is loose: the value is a list of rows, each row a list of plain
values; when the first row is all text it is the header. firmware/stats.py
writes the header and one row per name and group (see its docstring). The
firmware's Store falls back to stats.new and stats.bak, and so does this tool.
"""

import argparse
import csv
import io
import sys
from pathlib import Path

from engine.codec import CodecError, unpack
from firmware.files import BAK, KIND_STATS, NEW, STATS
from tools import deploy

STATS_PATH = "data/" + STATS
FALLBACKS = ("", NEW, BAK)  # firmware.store's order


def to_rows(value):
    """(header, rows) of a decoded stats value; ValueError when it is not a list of rows."""
    if not isinstance(value, list) or not all(isinstance(r, list) for r in value):
        raise ValueError("the stats are not a list of rows")
    rows = [[("" if v is None else v.hex() if isinstance(v, bytes) else v) for v in r]
            for r in value]
    if rows and rows[0] and all(isinstance(v, str) for v in rows[0]):
        return rows[0], rows[1:]
    width = max((len(r) for r in rows), default=0)
    return ["col%d" % (i + 1) for i in range(width)], rows


def to_csv(blob):
    """The CSV text of a stats blob; CodecError/ValueError when it cannot be read."""
    header, rows = to_rows(unpack(blob, KIND_STATS))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def read_blob(reader):
    """(name, bytes) of the first intact stats file from `reader(name) -> bytes|None`."""
    problems = []
    for suffix in FALLBACKS:
        name = STATS_PATH + suffix
        blob = reader(name)
        if blob is None:
            continue
        try:
            unpack(blob, KIND_STATS)
            return name, blob
        except CodecError as e:
            problems.append("%s: %s" % (name, e))
    if problems:
        raise CodecError("; ".join(problems))
    return None, None


def main(argv=None, finder=None, device_factory=None):
    """Command line; returns the exit status (fakes for the board as in tools.deploy)."""
    finder = finder or deploy.find_ports
    device_factory = device_factory or deploy.Device
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", help="serial port of the board (default: found on USB)")
    parser.add_argument("--file", help="convert this stats file instead of reading the board")
    parser.add_argument("--out", default=str(deploy.ROOT / "build" / "stats.csv"),
                        help="CSV file to write, - for stdout (default build/stats.csv)")
    args = parser.parse_args(argv)
    device = None
    try:
        if args.file:
            path = Path(args.file)
            name, blob = (str(path), path.read_bytes()) if path.is_file() else (None, None)
        else:
            port = args.port
            if port is None:
                ports = finder()
                if not ports:
                    raise deploy.DeployError("no MicroPython board found on USB: plug it in "
                                             "(or pass --port)")
                port = ports[0]
            device = device_factory(port)
            name, blob = read_blob(device.read)
        if blob is None:
            print("no statistics yet: %s does not exist (no game has ended, or they "
                  "were reset)" % (args.file or "/" + STATS_PATH))
            return 1
        text = to_csv(blob)
    except (deploy.DeployError, CodecError, ValueError) as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    finally:
        if device is not None:
            device.close()
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print("wrote %s: %d rows from %s" % (args.out, text.count("\n") - 1, name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
