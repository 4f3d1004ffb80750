"""Every file of the hostile corpus is reported by find_unsafe on exactly the lines that carry the attack."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drawcheck.safety import find_unsafe

CORPUS = Path(__file__).resolve().parents[1] / "hostile"
EXPECTED = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))


def test_corpus_is_complete():
    files = sorted(p.name for p in CORPUS.glob("*.mmd"))
    assert len(files) >= 30
    assert files == sorted(EXPECTED), "every corpus file needs an entry in expected.json, and back"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_find_unsafe_reports_the_attack_on_its_line(name):
    text = (CORPUS / name).read_text(encoding="utf-8")
    items = find_unsafe(None, text)
    expected = EXPECTED[name]
    assert {i.line for i in items} == {e["line"] for e in expected}, items
    for e in expected:
        on_line = [i.what for i in items if i.line == e["line"]]
        assert any(e["says"] in what for what in on_line), (e, on_line)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_find_unsafe_uses_the_parsed_diagram_when_there_is_one(name):
    from drawcheck.parse import parse_text

    text = (CORPUS / name).read_text(encoding="utf-8")
    with_model = find_unsafe(parse_text(text), text)
    assert {i.line for i in with_model} == {e["line"] for e in EXPECTED[name]}
