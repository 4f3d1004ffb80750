"""Untrusted input: grading never raises, and its output is always well formed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drawcheck.grade import grade_text
from drawcheck.grade.model import FINDING_KINDS

DRAWINGS = [yaml.safe_load(p.read_text())["drawing"] for p in sorted((Path(__file__).parent / "golden").glob("*.yml"))]
WORDS = ["PreFilter", "go func", "reason:", "cache:", "Note over S: binding cycle", "alt", "end", "rect rgb(1,2,3)",
         "par", "and", "-)", "->>", "S", ":", "%%", "box", "Permit", "PostScore", "\t", "é", "😀", "<b>", "Reject",
         "participant X as Binding goroutine", "opt no fit", "critical", "option fails", "else", "assume"]


def check(text: str, reference) -> None:
    r = grade_text(text, file="x.mmd", reference=reference)
    n_lines = len(re.split(r"\r\n|\r|\n", text)) + 1  # Mermaid ends lines at CR, LF or CRLF
    assert 0.0 <= r.score <= 1.0
    assert r.status in ("correct", "corrections", "invalid")
    assert (r.status == "correct") == (not r.corrections and not any(f.kind == "syntax" for f in r.findings))
    for f in r.findings:
        assert f.kind in FINDING_KINDS and f.severity in ("correction", "hint") and f.message
        # `unsafe` lines come from drawcheck.safety, which (unlike Mermaid and the parser) also ends lines at
        # \x0b, \x0c, \x85, \u2028, \u2029; bound those by its own count (reported to the safety owner).
        limit = len(text.splitlines()) + 1 if f.kind == "unsafe" else n_lines
        assert f.line is None or 1 <= f.line <= max(limit, n_lines)
        assert f.point is None or reference.has_step(f.point)
    for p in r.points:
        assert reference.has_step(p.point) and 1 <= p.line <= n_lines


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(DRAWINGS), cuts=st.lists(st.integers(0, 60), max_size=4),
       inserts=st.lists(st.tuples(st.integers(0, 60), st.sampled_from(WORDS)), max_size=4))
def test_mutated_drawings(reference, base, cuts, inserts):
    lines = base.splitlines()
    for c in cuts:
        if lines:
            del lines[c % len(lines)]
    for at, word in inserts:
        lines.insert(at % (len(lines) + 1), "    " + word)
    check("\n".join(lines), reference)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
def test_arbitrary_text(reference, text):
    check("sequenceDiagram\n" + text, reference)
    check(text, reference)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(base=st.sampled_from(DRAWINGS), inserts=st.lists(st.tuples(st.integers(0, 60), st.sampled_from(WORDS)),
                                                        max_size=3))
def test_any_drawing_against_a_reference_without_optional_sections(tcp_reference, base, inserts):
    """The TCP exercise has no cache function and no beliefs: grading must not depend on them."""
    lines = base.splitlines()
    for at, word in inserts:
        lines.insert(at % (len(lines) + 1), "    " + word)
    r = grade_text("\n".join(lines), file="x.mmd", reference=tcp_reference)
    assert 0.0 <= r.score <= 1.0 and all(tcp_reference.has_step(p.point) for p in r.points)
    assert not any(f.kind == "cache-function" for f in r.findings)


# Units that pump the readers of names (places in a text, struck-out text, a legend): one text of 128 KiB
# of each. Splitting a text at every place it names once took square time (16,000 `/a-b` took 12 s).
NAME_UNITS = ["/a", "/a-b", "a.b/", "POST a/", "x/a.go ", "a.com/b ", "GET /a.go ", "~~a", "(rgb(", ", red = x",
              "legend: red = x, blue = y, ", "TODO ", "PreFilter ", "filter/", "a_", "aB", "lý do: ", "ä",
              "<s>a", "<del>", "(x, crossed out, ", "a, sorry, ", "[a] ", " ", "\t ", "?a=", 'a="', "a=b ", " · ",
              "PreFilter step 1 ", "[a]: b, ", "pf PreFilter ", "binding: ", "a ·"]


@pytest.mark.parametrize("unit", NAME_UNITS)
def test_reading_names_in_a_text_of_one_repeated_unit_is_not_square_time(reference, unit):
    """A worst case, so a generous bound: far above the linear cost (well under a second) and far below the
    square one (minutes)."""
    import time

    from drawcheck.parse.model import Diagram, Note
    from drawcheck.recognise import read_text
    from drawcheck.recognise.abbreviations import find_key
    from drawcheck.recognise.legend import find_legend
    from drawcheck.recognise.names import matcher, not_struck_out, words

    text = unit * (131_072 // len(unit.encode("utf-8")))
    started = time.process_time()
    words(text)
    not_struck_out(text)
    matcher(reference).unretracted(text)
    find_legend([Note("over", ("A",), text, 1)])
    find_key(Diagram(statements=[Note("over", ("A",), text, 1)], title=text, comments=[(2, text)]), matcher(reference))
    matcher(reference).find(text[:20_000])
    read_text(reference, "a" + text[:20_000])
    assert time.process_time() - started < 10
