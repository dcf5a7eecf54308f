"""The browser tests' shared fixtures: one headless Chromium and one static
server of build/web per module (each test opens its own context, so
nothing of one test's page reaches another's). Not one for the whole run:
Playwright's sync API keeps an event loop running in the thread while it
is open, and the room tests after the browser tests call asyncio.run.
Without chromium or the built page they skip with the reason
(tests/browser/test_web.py)."""

import threading

import pytest


@pytest.fixture(scope="module")
def browser():
    """The system's Chromium, launched for the module."""
    from tests.browser.test_web import CHROMIUM, sync_api  # skips without them

    with sync_api.sync_playwright() as p:
        # root in a container: no sandbox, and a small /dev/shm is not used
        b = p.chromium.launch(executable_path=CHROMIUM,
                              args=["--no-sandbox", "--disable-dev-shm-usage"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def server():
    """build/web served on 127.0.0.1 (tools.web): its base URL."""
    from tests.browser.test_web import PAGE  # skips without the built page
    from tools.web import make_server

    httpd = make_server(PAGE, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()
