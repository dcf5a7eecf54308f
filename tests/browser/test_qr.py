"""The page's QR encoder (web/qr.js), run in headless Chromium and read
back with zxing-cpp (an independent decoder and encoder):

- the matrix of every generated text decodes to that text, at level M,
  from one byte up to the largest version (40);
- with the data mask zxing-cpp's own encoder chose, the page's matrix is
  module for module the one zxing-cpp makes (version, error correction,
  interleaving, placement, format and version information all agree);
- the <svg> the page draws, screenshotted, decodes too (the invite link's
  own test is in test_online.py).
"""

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy")
zxingcpp = pytest.importorskip("zxingcpp", reason="zxing-cpp missing (the browser group)")
Image = pytest.importorskip("PIL.Image", reason="pillow missing (the browser group)")

QUIET = 4  # light modules around the symbol
LARGEST = 2331  # bytes in a version 40 symbol at level M (byte mode)
ENCODE = "([texts, mask]) => import('./qr.js').then((q) => texts.map((t) => " \
    "q.qrMatrix(t, mask === null ? undefined : mask).map((row) => row.map(Number).join(''))))"


@pytest.fixture(scope="module")
def page(browser, server):  # noqa: F811
    """A tab on the built page's folder, for importing qr.js."""
    context = browser.new_context()
    tab = context.new_page()
    tab.goto(server + "online.json")  # any page of the origin; the game need not run
    yield tab
    context.close()


def encode(page, texts, mask=None):
    """The page's matrices of `texts` as boolean arrays."""
    rows = page.evaluate(ENCODE, [texts, mask])
    return [np.array([[c == "1" for c in row] for row in m]) for m in rows]


def image(matrix, scale=3):
    """A grey image of `matrix` with the quiet zone (dark = 0)."""
    n = len(matrix)
    img = np.full((n + 2 * QUIET, n + 2 * QUIET), 255, np.uint8)
    img[QUIET:QUIET + n, QUIET:QUIET + n][matrix] = 0
    return np.kron(img, np.ones((scale, scale), np.uint8))


def decode(img):
    """zxing-cpp's reading of one QR code: (text, error correction level);
    the text from the symbol's bytes as UTF-8 (zxing's own text shows
    control characters as names)."""
    found = zxingcpp.read_barcodes(img, formats=zxingcpp.BarcodeFormat.QRCode)
    assert len(found) == 1, found
    return bytes(found[0].bytes).decode("utf-8"), found[0].ec_level


def zxing_matrix(text):
    """zxing-cpp's own level M symbol of `text`, without the quiet zone."""
    code = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    return np.array(code.to_image(scale=1, add_quiet_zones=False)) < 128


def mask_of(matrix):
    """The data mask a symbol's format information names (its first copy)."""
    bits = [matrix[i][8] for i in (0, 1, 2, 3, 4, 5, 7)] + [matrix[8][8], matrix[8][7]]
    bits += [matrix[8][14 - i] for i in range(9, 15)]
    word = sum(int(b) << i for i, b in enumerate(bits)) ^ 0x5412
    return (word >> 10) & 7


TEXTS = st.one_of(
    st.text(min_size=1, max_size=120),
    st.text(alphabet=st.characters(codec="ascii", exclude_categories=["Cc"]), min_size=1,
            max_size=600),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=st.lists(TEXTS, min_size=1, max_size=5))
def test_every_matrix_decodes_to_its_text(page, texts):
    for text, matrix in zip(texts, encode(page, texts), strict=True):
        assert len(matrix) % 4 == 1 and 21 <= len(matrix) <= 177
        assert decode(image(matrix)) == (text, "M")


# zxing-cpp puts runs of digits or of upper case letters into numeric or
# alphanumeric segments; texts without those characters are byte mode only,
# as the page writes every text
ALPHANUMERIC = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
BYTES_ONLY = "".join(chr(c) for c in range(33, 127) if chr(c) not in ALPHANUMERIC)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(alphabet=BYTES_ONLY, min_size=1, max_size=400))
def test_the_matrix_is_zxings_under_the_same_mask(page, text):
    theirs = zxing_matrix(text)
    [ours] = encode(page, [text], mask_of(theirs))
    assert ours.shape == theirs.shape
    assert (ours == theirs).all(), (ours != theirs).sum()


def test_versions_up_to_40_and_too_long(page):
    sizes = [1, 14, 15, 100, 500, 1000, LARGEST]
    for n, matrix in zip(sizes, encode(page, ["u" * n for n in sizes]), strict=True):
        assert decode(image(matrix, 2)) == ("u" * n, "M")
    assert len(matrix) == 177  # the largest text fills version 40
    said = page.evaluate("(n) => import('./qr.js').then((q) => { try { q.qrMatrix('u'.repeat(n)); "
                         "return 'made'; } catch (e) { return e.name; } })", LARGEST + 1)
    assert said == "RangeError"


def test_the_drawn_svg_decodes(page):
    link = "http://127.0.0.1:8765/?room=Ab3_x-Zq90Lm"
    page.evaluate("""([link]) => import('./qr.js').then((q) => {
        const svg = q.qrSvg(link, 'QR');
        svg.style.width = '300px';
        document.body.replaceChildren(svg);
    })""", [link])
    img = page.get_by_role("img", name="QR")
    shot = Image.open(io.BytesIO(img.screenshot())).convert("L")
    assert decode(shot) == (link, "M")
