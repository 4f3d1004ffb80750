"""Fixtures for the render tests (the builders live in render_fixtures.py, a name no other folder uses)."""

from __future__ import annotations

import pytest

from render_fixtures import make_diagram, make_reference, make_result


@pytest.fixture
def reference():
    return make_reference()


@pytest.fixture
def diagram():
    return make_diagram()


@pytest.fixture
def result():
    return make_result()
