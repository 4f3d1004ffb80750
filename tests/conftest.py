"""The one Chromium every real-browser test shares.

Playwright's sync API runs one instance per thread: a test that started its own while another test's was
still open in the same xdist worker would fail, so every browser test takes this session fixture.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "browser"))

from browserkit import CHROMIUM, CHROMIUM_ARGS, require_chromium  # noqa: E402


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
