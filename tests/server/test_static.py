"""The page through the room server (server/static.py), against a real
server process: every file with gzip, with Brotli and with neither (the
exact bytes), HEAD, 304 on If-None-Match and If-Modified-Since, the
caching headers by name, the types, and paths that try to leave the
folder (404, never a file outside it, never a 500).

The folder is made by the build's own compression step (tools.web's
`compress`); the built page (build/web) is checked too when it is there.
"""

import gzip
import http.client
import json
import os
from pathlib import Path

import pytest

brotli = pytest.importorskip("brotli", reason="brotli missing (the server and browser groups)")

from server.static import IMMUTABLE, REVALIDATE, accepted, matches  # noqa: E402
from tools.web import compress  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BUILT = ROOT / "build" / "web"
SECRET = b"outside the page: never served"


def page_folder(tmp):
    """A small page like the build's, compressed by the build's step, a
    file beside the folder and a link inside that points at it."""
    web = tmp / "web"
    web.mkdir()
    (web / "index.html").write_text("<!doctype html><title>Zehntausend</title>" + "<p>x" * 400)
    (web / "sw.js").write_text("self.addEventListener('fetch', () => {});\n" * 40)
    (web / "manifest.webmanifest").write_text('{"name": "Zehntausend", "icons": []}' + " " * 300)
    (web / "app.0123abcd.js").write_text("export const x = 1;\n" * 300)  # a hashed name
    (web / "port.wasm").write_bytes(b"\0asm\1\0\0\0" + bytes(range(256)) * 200)
    (web / "icon.png").write_bytes(b"\x89PNG\r\n\x1a\n" + os.urandom(64))  # not compressed
    (web / "tiny.js").write_text("1")  # compressing makes it bigger: identity only
    (web / "sub").mkdir()
    (web / "sub" / "index.html").write_text("<p>sub</p>")
    (web / ".hidden").write_text("a dot file")
    compress(web)
    (tmp / "secret.txt").write_bytes(SECRET)
    (web / "link.txt").symlink_to(tmp / "secret.txt")
    return web


def fetch(port, path, method="GET", headers=None):
    """One raw request (no Accept-Encoding unless given): (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        conn.endheaders()
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def decoded(headers, body):
    coding = headers.get("content-encoding")
    if coding == "gzip":
        return gzip.decompress(body)
    if coding == "br":
        return brotli.decompress(body)
    assert coding is None, coding
    return body


def check_file(port, folder, rel):
    """Every way of asking for file `rel` of `folder`."""
    want = (folder / rel).read_bytes()
    path = "/" + rel
    # a prepared file is sent when it is smaller than the file itself
    has_gz, has_br = [(folder / (rel + x)).exists()
                      and (folder / (rel + x)).stat().st_size < len(want)
                      for x in (".gz", ".br")]
    status, h, body = fetch(port, path)
    assert status == 200 and body == want and "content-encoding" not in h, rel
    assert int(h["content-length"]) == len(want)
    assert h["vary"] == "Accept-Encoding"
    status, hg, body = fetch(port, path, headers={"Accept-Encoding": "gzip"})
    assert status == 200 and decoded(hg, body) == want, rel
    assert hg.get("content-encoding") == ("gzip" if has_gz else None), rel
    if has_gz:
        assert body == (folder / (rel + ".gz")).read_bytes()
    status, hb, body = fetch(port, path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert status == 200 and decoded(hb, body) == want, rel
    best = "br" if has_br else "gzip" if has_gz else None
    assert hb.get("content-encoding") == best, rel
    assert len(body) <= len(want)
    for head in (h, hg, hb):  # the same type and caching whatever the encoding
        assert head["content-type"] == h["content-type"]
        assert head["cache-control"] == h["cache-control"]
    # a browser's second visit: the tag of what it got, a 304 without a body
    for got, ae in ((h, ""), (hg, "gzip"), (hb, "gzip, deflate, br")):
        status, h304, body = fetch(port, path, headers={"Accept-Encoding": ae,
                                                        "If-None-Match": got["etag"]})
        assert status == 304 and body == b"" and h304["etag"] == got["etag"], rel
    status, hh, body = fetch(port, path, "HEAD", {"Accept-Encoding": "br, gzip"})
    assert status == 200 and body == b"" and hh.get("content-encoding") == best, rel
    assert hh["etag"] == hb["etag"] and hh["content-length"] == hb["content-length"], rel
    return h


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from tests.server.conftest import ServerProc

    tmp = tmp_path_factory.mktemp("static")
    folder = page_folder(tmp)
    s = ServerProc(tmp / "data", "--web", str(folder))
    yield s, folder
    s.stop()
    s.log.close()


def test_every_file_every_encoding(page):
    s, folder = page
    types = {}
    for p in sorted(folder.iterdir()):
        if p.is_file() and p.suffix not in (".gz", ".br") and not p.name.startswith("."):
            if p.is_symlink():
                continue
            types[p.name] = check_file(s.port, folder, p.name)
    assert types["port.wasm"]["content-type"] == "application/wasm"
    assert types["sw.js"]["content-type"].startswith("text/javascript")
    assert types["app.0123abcd.js"]["content-type"].startswith("text/javascript")
    assert types["manifest.webmanifest"]["content-type"] == "application/manifest+json"
    assert types["index.html"]["content-type"].startswith("text/html")
    assert types["icon.png"]["content-type"] == "image/png"
    # only a name carrying its content hash is cached for a year
    assert types["app.0123abcd.js"]["cache-control"] == IMMUTABLE
    for name in ("index.html", "sw.js", "manifest.webmanifest", "port.wasm"):
        assert types[name]["cache-control"] == REVALIDATE, name
    assert (folder / "port.wasm.br").exists() and (folder / "port.wasm.gz").exists()
    assert not (folder / "tiny.js.br").exists()  # never written bigger


def test_folders_and_revalidation(page):
    s, folder = page
    status, h, body = fetch(s.port, "/", headers={"Accept-Encoding": "gzip"})
    assert status == 200 and gzip.decompress(body) == (folder / "index.html").read_bytes()
    assert h["cache-control"] == "no-cache"
    status, _, body = fetch(s.port, "/sub/")
    assert status == 200 and body == b"<p>sub</p>"
    status, h, _ = fetch(s.port, "/sw.js")
    status, _, body = fetch(s.port, "/sw.js", headers={"If-Modified-Since": h["last-modified"]})
    assert status == 304 and body == b""
    # a list of tags, weak or not: any one matching is a match
    status, _, _ = fetch(s.port, "/sw.js", headers={"If-None-Match": '"x", W/%s' % h["etag"]})
    assert status == 304
    status, _, body = fetch(s.port, "/sw.js", headers={"If-None-Match": '"other"'})
    assert status == 200 and body == (folder / "sw.js").read_bytes()
    # a new build of the file: a new tag, the new bytes (no stale .gz)
    new = b"// version 2\n" * 200  # bigger than the old .gz and .br: only their age rules them out
    (folder / "sw.js").write_bytes(new)
    later = (folder / "sw.js").stat().st_mtime_ns + 10 ** 9  # newer than its .gz and .br
    os.utime(folder / "sw.js", ns=(later, later))
    status, h2, body = fetch(s.port, "/sw.js", headers={"Accept-Encoding": "gzip, br",
                                                        "If-None-Match": h["etag"]})
    assert status == 200 and body == new and h2["etag"] != h["etag"]
    assert "content-encoding" not in h2  # its .gz and .br are older than it: not used


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/sub/../../secret.txt",
    "/link.txt", "/.hidden", "/%00", "/index.html%00", "/" + "a" * 5000, "/sub/%2e%2e/%2e%2e/",
    "//etc/passwd", "/..\\secret.txt", "/nothing.js", "/sub/nothing", "/%ff%fe",
])
def test_no_way_out(page, path):
    s, _ = page
    for ae in ("", "gzip, br"):
        status, _, body = fetch(s.port, path, headers={"Accept-Encoding": ae})
        assert status in (400, 404), (path, status)  # 400: the HTTP parser refused it
        assert SECRET not in body and b"a dot file" not in body


def test_other_methods_and_odd_headers(page):
    s, folder = page
    status, _, _ = fetch(s.port, "/index.html", "POST")
    assert status == 405
    for ae in ("br;q=0, gzip;q=0", "identity", "*;q=0", ";;,", "gzip;q=x", "BR"):
        status, h, body = fetch(s.port, "/port.wasm", headers={"Accept-Encoding": ae})
        assert status == 200 and decoded(h, body) == (folder / "port.wasm").read_bytes(), ae
    for inm in ("", ",", "*x", 'W/', '"' * 50):
        status, _, _ = fetch(s.port, "/sw.js", headers={"If-None-Match": inm})
        assert status == 200, inm
    assert "Traceback" not in s.log_text()


def test_parsing():
    assert accepted("gzip, deflate, br") == {"gzip", "br"}
    assert accepted("br;q=0, gzip") == {"gzip"}
    assert accepted("*") == {"gzip", "br"}
    assert accepted("*, br;q=0") == {"gzip"}
    assert accepted("") == set()
    assert matches('"a", "b"', '"b"') and matches('W/"b"', '"b"') and matches("*", '"b"')
    assert not matches('"a"', '"b"')


@pytest.mark.skipif(not (BUILT / "index.html").exists(), reason="build/web missing: make web")
def test_the_built_page(tmp_path):
    from tests.server.conftest import ServerProc

    s = ServerProc(tmp_path, "--web", str(BUILT))
    try:
        # online.json is the server's own answer (rooms: true), not the build's file
        names = sorted(p.name for p in BUILT.iterdir()
                       if p.is_file() and p.suffix not in (".gz", ".br")
                       and p.name != "online.json")
        assert "micropython.wasm" in names and "sw.js" in names
        for name in names:
            h = check_file(s.port, BUILT, name)
            assert h["cache-control"] == REVALIDATE, name  # no hashed names in the build
        assert (BUILT / "micropython.wasm.br").exists()
        # (with the stand-in's waits a room may choose, this server's first)
        assert json.loads(fetch(s.port, "/online.json")[2]) == {
            "rooms": True, "wait": 0.8, "waits": [15, 30, 60]}
    finally:
        s.stop()
        s.log.close()
