"""The test tree itself: pytest imports test modules by basename, so two alike would clash."""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def test_no_two_test_modules_share_a_basename():
    names = Counter(p.name for p in Path(__file__).parent.rglob("*.py") if p.name != "conftest.py")
    assert [n for n, count in names.items() if count > 1] == []


def test_every_part_of_the_product_has_its_tests_in_the_checkout():
    # A too-broad .gitignore once hid tests/site from every clone; CI runs on a clone.
    here = Path(__file__).parent
    parts = {p.name for p in here.iterdir() if p.is_dir() and any(p.glob("test_*.py"))}
    assert {"parse", "grade", "render", "report", "plugin", "safety", "site", "browser", "fuzz"} <= parts
