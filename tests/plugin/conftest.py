"""Fixtures for the plugin tests (helpers live in plugin_site.py, a name no other test folder uses)."""

from __future__ import annotations

import pytest

from plugin_site import make_site


@pytest.fixture
def site_factory(tmp_path):
    return lambda *a, **k: make_site(tmp_path, *a, **k)


@pytest.fixture(autouse=True)
def _no_github(monkeypatch):
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
