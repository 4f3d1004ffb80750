"""find_unsafe scans only the lines `_suspect_lines` picks: the result must equal a scan of every line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawcheck import safety
from drawcheck.parse import parse_text

from test_unsafe_fast_path import CORPUS


def _every_line(text: str):
    originals = safety._may_be_unsafe, safety._suspect_lines
    safety._may_be_unsafe = lambda _text: True
    safety._suspect_lines = lambda _text: None
    try:
        return safety.find_unsafe(parse_text(text), text)
    finally:
        safety._may_be_unsafe, safety._suspect_lines = originals


def test_the_corpus_has_drawings_with_only_a_few_suspect_lines():
    picked = [safety._suspect_lines(t) for t in CORPUS if safety._may_be_unsafe(t)]
    few = [lines for lines, text in zip(picked, CORPUS) if lines is not None and len(lines) < len(text.splitlines()) / 2]
    assert len(few) > 20


@pytest.mark.parametrize("index", range(len(CORPUS)))
def test_suspect_lines_equal_every_line_on_corpus(index):
    text = CORPUS[index]
    assert safety.find_unsafe(parse_text(text), text) == _every_line(text)


_PIECES = st.sampled_from(
    list("abcAZ09 :;-_>)(\n\n\n\t*`~?!/") + [
        "java", "script", "scr ipt:", "da\tta :", "data", "on", "Note over A: ", "A->>B: ", "<", "=", "&#58;", "#58;",
        "%%{", "%% note", "$$", "{{", "::error::", "---", "-->>", "```", "???", "\u202e", "\x07", "\\u006a", "\r\n",
    ])


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, max_size=60).map("".join))
def test_suspect_lines_equal_every_line_on_random_text(body):
    text = "sequenceDiagram\n" + body
    assert safety.find_unsafe(parse_text(text), text) == _every_line(text)


@pytest.mark.parametrize("line, expected", [
    ("  A->>B: plain words", set()),
    ("  %% a comment", {1}),
    ("  A->>B: java script :x", {1}),
    ("  --> x", {1}),
    ("  A->>B: pkg::sched", {1}),
])
def test_suspect_lines_picks_the_line_that_can_trip_a_check(line, expected):
    assert safety._suspect_lines(f"sequenceDiagram\n{line}\n  A->>B: hi\n") == expected
