"""Fixtures for the real-browser tests (the shared `browser` is in tests/conftest.py); the helpers live in browserkit.py.

Browser tests skip only when /usr/bin/chromium is absent AND DRAWCHECK_REQUIRE_BROWSER is unset;
`.ci/run` sets it, so CI fails instead of skipping.
"""

from __future__ import annotations

import pytest

from browserkit import CHROMIUM, CHROMIUM_ARGS, require_chromium
