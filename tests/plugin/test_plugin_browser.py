"""The corpus's feedback pages in a real Chromium: every diagram drawn, circles visible, nothing runs."""

from __future__ import annotations

import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from plugin_site import build, make_site

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
OPEN_SHADOW_ROOTS = ("(() => { const a = Element.prototype.attachShadow;"
                     " Element.prototype.attachShadow = function (i) { return a.call(this, {...i, mode: 'open'}); }; })();")
ALL_DRAWN = ("() => !document.querySelector('pre.mermaid') && [...document.querySelectorAll('div.mermaid')]"
             ".every(h => h.shadowRoot && h.shadowRoot.querySelector('svg'))")
SVG_TEXTS = ("() => [...document.querySelectorAll('div.mermaid')]"
             ".map(h => h.shadowRoot.querySelector('svg').textContent)")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        if os.environ.get("DRAWCHECK_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing but DRAWCHECK_REQUIRE_BROWSER is set")
        pytest.skip(f"{CHROMIUM} not installed")

    class _Cap:
        records: list = []

        def clear(self):
            pass

        def set_level(self, *a, **k):
            pass

    built = build(make_site(tmp_path_factory.mktemp("browser")), _Cap(), strict=False)
    assert built.error is None, built.error
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(built.site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/", built
    finally:
        server.shutdown()
        server.server_close()


def test_every_feedback_page_draws_every_diagram_and_runs_nothing(served, browser):
    url, built = served
    handles = sorted(p.name for p in (built.site / "feedback").iterdir() if p.is_dir())
    assert {"ada", "mallory", "grace", "edsger", "margaret"} <= set(handles)
    for handle in handles + [""]:
        context = browser.new_context()
        context.add_init_script(OPEN_SHADOW_ROOTS)
        context.route("**/*", lambda r: r.continue_() if "127.0.0.1" in r.request.url else r.abort())
        page = context.new_page()
        errors, dialogs = [], []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(f"{url}feedback/{handle}/" if handle else f"{url}feedback/")
        page.wait_for_function(ALL_DRAWN, timeout=60000)
        texts = page.evaluate(SVG_TEXTS)
        assert not errors and not dialogs, (handle, errors, dialogs)
        assert not any("Syntax error" in t for t in texts), handle
        if handle == "ada":
            # first circled, corrected circled; the reference is linked, not repeated
            assert len(texts) == 2 and "①" in texts[0] and "missing: NormalizeScore" in texts[0]
        if handle == "mallory":
            assert any("<img src=x onerror=alert(1)>" in t for t in texts)  # shown as text, not run
        context.close()
