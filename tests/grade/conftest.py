"""Fixtures for the grader tests: the real exercise and the small TCP exercise."""

from __future__ import annotations

from pathlib import Path

import pytest

from drawcheck.reference import load_reference

REPO = Path(__file__).resolve().parents[2]
EXERCISE = REPO / "reference" / "two-cycles" / "exercise.yml"
TCP = Path(__file__).resolve().parent / "tcp" / "exercise.yml"


@pytest.fixture(scope="session")
def reference():
    return load_reference(EXERCISE)


@pytest.fixture(scope="session")
def kubectl_reference():
    return load_reference(REPO / "reference" / "kubectl-apply" / "exercise.yml")


@pytest.fixture(scope="session")
def tcp_reference():
    return load_reference(TCP)
