"""Fixtures for the parser tests."""

from __future__ import annotations

import os

import pytest

from parse_oracle import corpus_files, node_available, run_oracle


@pytest.fixture(scope="session")
def mermaid_results() -> dict[str, dict]:
    """Mermaid's verdict and message sequence for every corpus file, from ONE node process."""
    reason = node_available()
    if reason:
        if os.environ.get("DRAWCHECK_REQUIRE_NODE"):
            pytest.fail("DRAWCHECK_REQUIRE_NODE is set but %s" % reason)
        pytest.skip(reason)
    results = run_oracle([str(p) for p in corpus_files()])
    return {r["file"]: r for r in results}
