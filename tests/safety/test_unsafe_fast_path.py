"""find_unsafe skips its per-line scan for text with no suspect character: both paths must agree."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from drawcheck import safety
from drawcheck.parse import parse_text

ROOT = Path(__file__).resolve().parents[2]


def _corpus() -> list[str]:
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in sorted((ROOT / "tests").rglob("*.mmd"))]
    for case in sorted((ROOT / "tests/grade/golden").glob("*.yml")):
        data = yaml.safe_load(case.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("drawing"), str):
            texts.append(data["drawing"])
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "answers").glob("*.mmd"))]
    return texts


def _slow(text: str):
    original = safety._may_be_unsafe
    safety._may_be_unsafe = lambda _text: True
    try:
        return safety.find_unsafe(parse_text(text), text)
    finally:
        safety._may_be_unsafe = original


CORPUS = _corpus()


def test_corpus_is_large_and_has_both_kinds():
    quiet = [t for t in CORPUS if not safety._may_be_unsafe(t)]
    assert len(CORPUS) > 250
    assert quiet and len(quiet) < len(CORPUS)


@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_fast_path_equals_full_scan_on_corpus(index):
    text = CORPUS[index]
    assert safety.find_unsafe(parse_text(text), text) == _slow(text)


_ALPHABET = st.sampled_from(list("abcAZ09 :;-_>)(\n\t\r") + ["java", "script", "data", "on", "Note over A: ",
                                                            "A->>B: ", "<", "=", "&#58;", "#58;", "%%{", "$$",
                                                            "{{", "::error::", "---", "\u202e", "\x07", "\\u006a"])


@settings(max_examples=400, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join))
def test_fast_path_equals_full_scan_on_random_text(body):
    text = "sequenceDiagram\n" + body
    assert safety.find_unsafe(parse_text(text), text) == _slow(text)


def test_a_quiet_drawing_still_reports_its_directives():
    diagram = parse_text("sequenceDiagram\n  A->>B: hi\n")
    assert not safety._may_be_unsafe("sequenceDiagram\n  A->>B: hi\n")
    assert safety.find_unsafe(diagram, "sequenceDiagram\n  A->>B: hi\n") == []
