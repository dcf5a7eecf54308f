"""The built page at / (build/web, tools/web.py): each file compressed as
the build prepared it and cached as its name allows.

- Encoding: the build writes a `.gz` beside each compressible file and a
  `.br` where Brotli is smaller; the smallest one the browser accepts
  (Accept-Encoding) is sent, with `Vary: Accept-Encoding`, else the file
  itself. A `.gz` or `.br` older than its file (a build that stopped half
  way) is not used.
- Caching: a file whose name carries its content hash (`name.<8+ hex
  digits>.ext`) is `immutable` for a year; every other file (index.html,
  sw.js, the manifest, the bundles: the build keeps their names) is
  `no-cache`: the browser asks again each time with If-None-Match and
  gets a 304 without a body while the file is unchanged.
- Only regular files under the folder are served: a path with `..`, a
  hidden name or a link out of the folder gets a 404.

The files are read once and kept in memory (the whole page is a few MB);
a changed file (another `make web` while the server runs) is noticed by
its size and time and read again.
"""

import os
import re
import stat
from email.utils import formatdate

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

# The types a browser insists on (modules, wasm) and the rest of the build.
TYPES = {
    ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8", ".wasm": "application/wasm",
    ".webmanifest": "application/manifest+json", ".json": "application/json",
    ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml",
    ".ico": "image/x-icon", ".txt": "text/plain; charset=utf-8",
    ".bin": "application/octet-stream",
}
HASHED = re.compile(r"\.[0-9a-f]{8,}\.[A-Za-z0-9]+$")  # app.3f2a9c1d.js
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# The prepared encodings: (Accept-Encoding token, suffix of the file beside)
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
INDEX = "index.html"


def accepted(header):
    """The content codings an Accept-Encoding header allows (q above 0);
    "*" stands for any not named."""
    out = {}
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for p in params.split(";"):
            k, _, v = p.strip().partition("=")
            if k.strip().lower() == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        out[name] = q > 0
    star = out.pop("*", False)
    return {name for name, _ in ENCODINGS if out.get(name, star)}


def matches(header, etag):
    """True when If-None-Match `header` names `etag` (weak comparison) or is "*"."""
    for tag in header.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False


class Entry:
    """One file as served: its stamp (to notice a change), type, caching
    headers and bodies by encoding (None: the file itself)."""

    def __init__(self, path, st):
        self.stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
        name = os.path.basename(path)
        self.type = TYPES.get(os.path.splitext(name)[1].lower(), "application/octet-stream")
        self.cache = IMMUTABLE if HASHED.search(name) else REVALIDATE
        self.modified = formatdate(st.st_mtime, usegmt=True)
        base = "%x-%x" % (st.st_mtime_ns, st.st_size)
        with open(path, "rb") as f:
            self.bodies = {None: f.read()}
        self.etags = {None: '"%s"' % base}
        for coding, suffix in ENCODINGS:
            try:
                side = os.stat(path + suffix)
            except OSError:
                continue
            # Not older than the file, and smaller than it.
            if (not stat.S_ISREG(side.st_mode) or side.st_mtime_ns < st.st_mtime_ns
                    or side.st_size >= st.st_size):
                continue
            with open(path + suffix, "rb") as f:
                self.bodies[coding] = f.read()
            self.etags[coding] = '"%s-%s"' % (base, coding)


class Page:
    """Serves folder `root` (`serve`: the handler of a Starlette route)."""

    def __init__(self, root):
        self.root = os.path.realpath(root)
        self.entries = {}  # real path -> Entry

    def resolve(self, url_path):
        """The real path of the regular file `url_path` names, or None."""
        parts = [p for p in url_path.split("/") if p]
        for p in parts:
            # no parent, no hidden files, nothing a file system reads otherwise
            if p.startswith(".") or "\\" in p or "\0" in p:
                return None
        path = os.path.join(self.root, *parts)
        try:
            if os.path.isdir(path):
                path = os.path.join(path, INDEX)
            real = os.path.realpath(path)
            if os.path.commonpath([real, self.root]) != self.root:
                return None  # a link out of the folder
            return real if os.path.isfile(real) else None
        except (OSError, ValueError):
            return None

    def entry(self, real):
        """The Entry of file `real`, read again when it changed; None when gone."""
        try:
            st = os.stat(real)
            entry = self.entries.get(real)
            if entry is None or entry.stamp != (st.st_mtime_ns, st.st_size, st.st_ino):
                entry = Entry(real, st)
                self.entries[real] = entry
            return entry
        except OSError:
            return None

    async def serve(self, request: Request):
        """GET or HEAD of a file of the page."""
        real = self.resolve(request.url.path)
        entry = None if real is None else self.entry(real)
        if entry is None:
            return PlainTextResponse("Not Found", status_code=404)
        take = accepted(request.headers.get("accept-encoding", ""))
        coding = None
        for c, _ in ENCODINGS:  # the smallest: br is only kept when smaller than gzip
            if c in take and c in entry.bodies:
                coding = c
                break
        etag = entry.etags[coding]
        headers = {"ETag": etag, "Last-Modified": entry.modified,
                   "Cache-Control": entry.cache, "Vary": "Accept-Encoding"}
        inm = request.headers.get("if-none-match")
        ims = request.headers.get("if-modified-since")
        if (inm is not None and matches(inm, etag)) or (inm is None and ims == entry.modified):
            return Response(status_code=304, headers=headers)
        if coding is not None:
            headers["Content-Encoding"] = coding
        body = entry.bodies[coding]
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            return Response(b"", headers=headers, media_type=entry.type)
        return Response(body, headers=headers, media_type=entry.type)
