"""The page on a phone, in headless Chromium with the phone's viewport,
pixel ratio and touch (see test_web.py for how it runs and when it is
skipped): no sideways scroll, every button in view, the screen centred
and as wide as whole device pixels per game pixel allow, the buttons
beside it when the phone is held sideways, pinch zoom allowed, touch
hints instead of key hints, and the layout settled before the game
loads (the layout shift is printed)."""

import pytest

from tests.browser.reader import Reader

# The page's layout shifts, summed as Chrome's CLS does for a page this short.
SHIFTS = """
window.__shift = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shift += e.value;
}).observe({ type: "layout-shift", buffered: true });
"""
GEOMETRY = """() => {
  const c = document.getElementById("screen").getBoundingClientRect();
  const box = (sel) => document.querySelector(sel).getBoundingClientRect();
  const keys = [...document.querySelectorAll("[data-key]")].map((b) => {
    const r = b.getBoundingClientRect();
    return [b.dataset.key, r.left, r.top, r.right, r.bottom];
  });
  return {
    vw: innerWidth, vh: innerHeight, dpr: devicePixelRatio,
    scrollWidth: document.documentElement.scrollWidth,
    canvas: [c.left, c.top, c.width, c.height],
    backing: [document.getElementById("screen").width, document.getElementById("screen").height],
    dpad: [box(".dpad").left, box(".dpad").right], ab: [box(".ab").left, box(".ab").right],
    keys, viewport: document.querySelector("meta[name=viewport]").content,
    touchHint: getComputedStyle(document.querySelector(".touch")).display,
    keyHint: getComputedStyle(document.querySelector(".keys")).display,
  };
}"""
PHONES = [((390, 844), 3), ((844, 390), 3), ((320, 568), 2)]


@pytest.mark.parametrize("size,scale", PHONES, ids=["390x844", "844x390", "320x568"])
def test_phone_viewports(browser, server, size, scale, figure):  # noqa: F811
    r = Reader(browser, server + "?seed=7", viewport=size, scale=scale, phone=True, init=SHIFTS)
    r.snapshot()
    g = r.page.evaluate(GEOMETRY)
    vw, vh = g["vw"], g["vh"]
    assert g["scrollWidth"] <= vw, g  # no sideways scroll
    for key, left, top, right, bottom in g["keys"]:
        assert 0 <= left and right <= vw and 0 <= top and bottom <= vh, (key, g)
    left, _top, width, height = g["canvas"]
    assert abs(left - (vw - left - width)) <= 1, g  # centred
    game_w = 128
    assert g["backing"][0] % game_w == 0, g  # whole device pixels per game pixel ...
    assert abs(width * g["dpr"] - g["backing"][0]) < 0.5, g  # ... drawn 1:1 on the device
    if vw < vh:
        assert width >= 0.75 * vw, g  # the screen fills the width
    else:
        assert g["dpad"][1] <= left and g["ab"][0] >= left + width, g  # buttons beside it
    assert "user-scalable=no" not in g["viewport"] and "maximum-scale" not in g["viewport"]
    assert g["touchHint"] != "none" and g["keyHint"] == "none", g
    r.page.wait_for_timeout(500)
    shift = r.page.evaluate("window.__shift")
    assert not r.errors, r.errors
    r.close()
    figure("web: %dx%d at %gx: screen %dx%d css px (%d device px per game pixel), layout "
           "shift %.4f (target <= 0.02)" % (vw, vh, g["dpr"], width, height,
                                            g["backing"][0] // game_w, shift))
    assert shift <= 0.02


@pytest.mark.parametrize("scale", [1, 1.25, 1.5, 2.625])
def test_crisp_pixels_at_any_pixel_ratio(browser, server, scale):  # noqa: F811
    r = Reader(browser, server + "?seed=7", viewport=(900, 800), scale=scale)
    g = r.page.evaluate(GEOMETRY)
    assert g["backing"][0] % 128 == 0 and g["backing"][1] % 64 == 0, g
    assert abs(g["canvas"][2] * g["dpr"] - g["backing"][0]) < 0.5, g
    assert g["backing"][0] // 128 == g["backing"][1] // 64, g
    r.close()
