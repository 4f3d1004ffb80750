"""The feedback page: sections, circles, escaping, closed reference blocks, side by side when corrected."""

from __future__ import annotations

import re

from drawcheck.grade.model import Result
from drawcheck.parse.model import Diagram, Message, Note, Participant
from drawcheck.render.feedback import assumed_notes, feedback_page, format_score
from drawcheck.render.model import Graded


def _page(result, diagram, reference, **kw):
    return feedback_page(Graded(kw.pop("handle", "ada"), "answers/ada.mmd", result, diagram, **kw), reference)


def test_page_has_drawing_circled_drawing_numbered_corrections_and_score(result, diagram, reference):
    page = _page(result, diagram, reference)
    assert page.count("```mermaid") == 3  # drawing, circled drawing, reference
    assert "**Score:** 50 %" in page
    assert "after Reserve, before Permit (1 early)" in page
    rows = [ln for ln in page.splitlines() if re.match(r"^\| [①②③④] \|", ln)]
    assert [r.split("|")[2].strip() for r in rows] == ["12", "13", "—", "—"]
    assert rows[1].endswith("|  |")  # the empty "What I had assumed" cell
    assert "*(your drawing matches Kubernetes v1&#46;15–v1&#46;17)*" in rows[1]
    assert "Example submission" not in page


def test_learner_text_is_escaped_everywhere(result, diagram, reference):
    page = _page(result, diagram, reference)
    for raw in ("<script>", "<img", "--8<--", "<b>", "%%{init}"):
        assert raw not in page
    assert "&#60;img src&#61;x" in page  # the reason, shown but inert


def test_reference_and_explanations_sit_behind_closed_blocks(result, diagram, reference):
    page = _page(result, diagram, reference)
    assert "???+" not in page
    blocks = re.findall(r'^\?\?\? note "([^"]+)"$', page, flags=re.M)
    assert blocks == ["Reference sequence (open after you have drawn yours)", "Why the boundary is there", "Cache"]
    ref = page.index("??? note \"Reference sequence")
    assert page[ref:].split("\n")[2] == "    ```mermaid"
    assert "\n        S->>S: PreFilter\n" in page  # indented inside the block


def test_example_submissions_say_so(result, diagram, reference):
    assert "!!! example \"Example submission\"" in _page(result, diagram, reference, handle="permit-late", example=True)
    # marked by the config (Graded.example), not by the name
    assert "Example submission" not in _page(result, diagram, reference, handle="example-permit-late")


def test_corrected_drawing_is_shown_beside_the_first_with_assumed_notes(result, diagram, reference):
    fixed = Diagram(header_line=1, participants=[Participant("S", "Scheduler", "participant", 2)],
                    statements=[Message("S", "S", "Permit", "->>", 3),
                                Note("over", ("S",), "assumed 2: Permit waits in binding", 4),
                                Note("over", ("S",), "assumed ①: the go was earlier", 5)])
    corrected = Graded("ada", "answers/ada.corrected.mmd", Result("answers/ada.corrected.mmd", "correct", 1.0), fixed)
    page = _page(result, diagram, reference, corrected=corrected)
    assert '<div class="grid" markdown>' in page
    first, second = page.index("**First drawing**"), page.index("**Corrected drawing**")
    assert first < second < page.index("</div>\n\n</div>")
    row2 = next(ln for ln in page.splitlines() if ln.startswith("| ② |"))
    assert row2.endswith("| Permit waits in binding |")
    row1 = next(ln for ln in page.splitlines() if ln.startswith("| ① |"))
    assert row1.endswith("| the go was earlier |")
    assert assumed_notes(fixed) == {"2": "Permit waits in binding", "1": "the go was earlier"}


def test_invalid_drawing_lists_errors_and_draws_nothing(reference):
    from drawcheck.grade.model import Finding

    result = Result("answers/ada.mmd", "invalid", 0.0,
                    findings=[Finding("syntax", None, 3, "correction", "expected an arrow, found `<x>`"),
                              Finding("missing", "Bind", None, "correction", "Bind is missing")])
    page = _page(result, None, reference)
    assert "could not be checked" in page
    assert "**line 3** (syntax): expected an arrow&#44; found &#96;&#60;x&#62;&#96;" in page
    assert page.count("```mermaid") == 1  # only the reference
    assert "## Corrections" not in page and "Bind is missing" not in page  # fix the syntax first


def test_correct_drawing_says_so(diagram, reference):
    page = _page(Result("answers/ada.mmd", "correct", 1.0), diagram, reference)
    assert "None: every point" in page and "**Score:** 100 %" in page


def test_format_score():
    assert format_score(0.583) == "58 %"
    assert format_score(7.5) == "7.5"
