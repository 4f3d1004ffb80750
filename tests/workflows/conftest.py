"""Fixtures for the PR-flow tests (helpers live in prflow_kit.py, a name no other test folder uses)."""

from __future__ import annotations

import pytest

from prflow_kit import GitRepo


@pytest.fixture
def repo(tmp_path):
    return GitRepo(tmp_path / "repo")


@pytest.fixture(autouse=True)
def _no_github(monkeypatch):
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_SHA", "GITHUB_REPOSITORY"):
        monkeypatch.delenv(name, raising=False)
