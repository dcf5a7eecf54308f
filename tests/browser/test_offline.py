"""Offline, install and the page's figures, in headless Chromium (see
test_web.py for how it runs and when it is skipped).

- the service worker keeps the page: a reload without network shows the
  title and plays; the manifest names the icons, which are PNGs; when
  sw.js could not be had, the page registers it once the network is back;
- the title comes before the Master's tables (master.bin is fetched
  after it); printed: load to title on a fast line and on a slow one
  (1.6 Mbit/s, 150 ms latency, emulated through the DevTools protocol),
  and the bytes fetched before the title.
"""

import statistics

from tests.browser.reader import Reader, new_game

SLOW = {"offline": False, "latency": 150, "downloadThroughput": 1.6e6 / 8,
        "uploadThroughput": 1.6e6 / 8}
SLOW_TARGET_MS = 2500
RUNS = 3
# What arrived before the title (every resource that ended by then: a
# figure, which varies with the machine's pace), and when each file was
# asked for and when it arrived (the order, which holds by construction).
BEFORE_TITLE = """() => {
  const until = zt.titleMs;
  const nav = performance.getEntriesByType("navigation")[0];
  const all = performance.getEntriesByType("resource");
  const parts = all.filter((e) => e.responseEnd <= until);
  const files = {};
  for (const e of all) {
    const name = e.name.split("/").pop();
    if (!(name in files)) files[name] = [e.startTime, e.responseEnd];
  }
  return {
    title: until,
    ready: zt.readyMs,
    bytes: nav.transferSize + parts.reduce((sum, e) => sum + e.transferSize, 0),
    names: parts.map((e) => e.name.split("/").pop()),
    files,
  };
}"""


def assert_title_first(got, later=("more.bin",)):
    """What holds by construction on any machine, however busy: the title
    needs game.bin (it arrived before the title); the files in `later`
    (the rest of the game, the online part) are asked for only once
    game.bin is in; the Master's tables only once the title is drawn; keys
    are taken after the title. (Whether `later` files also arrive before
    the title is a race with drawing it, so only printed as bytes.)"""
    files = got["files"]
    assert "game.bin" in got["names"], got  # the title needs the bundle
    arrived = files["game.bin"][1]
    for name in later:
        assert name in files, (name, got)
        assert files[name][0] >= arrived, ("%s asked for before game.bin was in" % name, got)
    if "master.bin" in files:
        assert files["master.bin"][0] >= got["title"], ("master.bin before the title", got)
    assert "master.bin" not in got["names"], got  # the title never waits for it
    assert got["ready"] >= got["title"], got


def test_offline_reload_and_install(browser, server):  # noqa: F811
    r = Reader(browser, server + "?seed=7")
    r.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)
    manifest = r.page.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((x) => x.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    for icon in manifest["icons"]:
        head = r.page.evaluate("(src) => fetch(src).then((x) => x.arrayBuffer())"
                               ".then((b) => [...new Uint8Array(b.slice(0, 8))])", icon["src"])
        assert bytes(head) == b"\x89PNG\r\n\x1a\n", icon
    r.context.set_offline(True)
    r.page.reload()
    r.wait()
    assert 'heading "Zehntausend"' in r.snapshot()
    new_game(r)  # and it plays
    assert "Spieler 1" in r.snapshot()
    rules = r.page.evaluate("fetch('rules-de.html').then((x) => x.text())")
    assert "Wertung" in rules
    assert not [e for e in r.errors if "Failed to fetch" not in e], r.errors
    r.close()


def load(chromium, url, slow):
    """One fresh load (nothing cached): ms to the title, bytes before it,
    files fetched by then, and ms until the page takes keys (the rest of
    the game, more.bin, is in)."""
    context = chromium.new_context(locale="de-DE", viewport={"width": 900, "height": 800})
    page = context.new_page()
    if slow:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW)
    page.goto(url)
    page.wait_for_function("window.zt && zt.ready", timeout=60000)
    got = page.evaluate(BEFORE_TITLE)
    context.close()
    return got


def test_title_before_the_tables_on_a_slow_line(browser, server, figure):  # noqa: F811
    figures = {}
    for slow in (False, True):
        runs = [load(browser, server, slow) for _ in range(RUNS if slow else 5)]
        for got in runs:
            assert_title_first(got)
        figures[slow] = ([g["title"] for g in runs], statistics.median(g["bytes"] for g in runs))
    for slow, (times, size) in figures.items():
        figure("web: load to title on a %s line, median of %d fresh loads: %.0f ms (max %.0f"
               "%s); %d KB before the title" % (
                   "slow (1.6 Mbit/s, 150 ms)" if slow else "fast (127.0.0.1)", len(times),
                   statistics.median(times), max(times),
                   "; target <= %d ms" % SLOW_TARGET_MS if slow else "", size // 1024))


def test_the_offline_copy_is_taken_once_the_network_is_back(browser, server):  # noqa: F811
    """sw.js refused at the first try (the network went away meanwhile):
    the page registers the service worker again when it hears 'online'."""
    context = browser.new_context()
    asked = []

    def refuse(route):
        asked.append(route.request.url)
        route.abort()

    context.route("**/sw.js", refuse)
    r = Reader(browser, server + "?seed=7", context=context)
    r.page.wait_for_function("zt.mastersDone === true", timeout=30000)  # sw.js comes after
    for _ in range(100):
        if asked:
            break
        r.page.wait_for_timeout(100)
    assert asked, "the page never asked for sw.js"
    registered = "navigator.serviceWorker.getRegistration().then((x) => x !== undefined)"
    assert r.page.evaluate(registered) is False
    context.unroute("**/sw.js")
    context.set_offline(True)
    context.set_offline(False)  # the page hears 'online'
    r.page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)
    assert r.page.evaluate(registered) is True
    assert len(asked) == 1
    context.close()
