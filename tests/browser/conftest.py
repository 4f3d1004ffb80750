"""Fixtures for the real-browser tests; the helpers live in browserkit.py.

Browser tests skip only when /usr/bin/chromium is absent AND DRAWCHECK_REQUIRE_BROWSER is unset;
`.ci/run` sets it, so CI fails instead of skipping.
"""

from __future__ import annotations

import pytest

from browserkit import CHROMIUM, CHROMIUM_ARGS, require_chromium


@pytest.fixture(scope="session")
def browser():
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield chromium
        finally:
            chromium.close()
