"""The test tree itself: pytest imports test modules by basename, so two alike would clash."""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def test_no_two_test_modules_share_a_basename():
    names = Counter(p.name for p in Path(__file__).parent.rglob("*.py") if p.name != "conftest.py")
    assert [n for n, count in names.items() if count > 1] == []
